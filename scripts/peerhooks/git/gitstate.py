"""A checkout's uncommitted work as git holds it at this moment: per path, staged, unstaged,
untracked or ignored, and the stash entries. The guard judges a command by what it would reach of
this state, not by which files a peer once touched (issue 18: with a peer whose work was only
untracked files, `git stash`, `git add -u`, `git commit -am`, `git checkout .` and `git reset --hard`
were refused although none of them touches an untracked file; a file whose change the peer had
committed was still "the peer's").

One `git status --porcelain=v2 -z --untracked-files=normal --no-renames` gives every changed path
with its index (X) and working-tree (Y) state, and untracked folders collapsed to `dir/`, which is
what `git clean` without `-d` tells apart. Ignored files are asked for only when a command can reach
them (`clean -x/-X`, `add -f`, `stash -a`). Parsing is pure; `read` is the one git call of every
judgement (`read_renames` and `read_stash` only for the lines that need them).
"""

from . import gitrepo
from ..startup import oscalls
from ..startup.records import record

UNCHANGED = "."  # porcelain v2's "unmodified" in the X and Y columns

PathState = record("PathState", "path index worktree untracked ignored folder", (False, False, False),
                   """One changed path, toplevel-relative. index / worktree: porcelain v2's X and Y
    letters (`.` unchanged, `M`, `A`, `D`, `U` unmerged); untracked / ignored: not in the index;
    folder: an untracked (or ignored) folder git lists as one entry (`new/`), none of whose files
    is tracked: `git clean` without `-d` leaves it alone.""")

StashEntry = record("StashEntry", "ref commit created_s subject", (), """One stash entry: `stash@{N}`, its
    commit id, when it was made (epoch seconds) and its subject (`WIP on main: …`, `On main: <message>`).""")

# The words a refusal uses for a path's state (tests/guard_corpus reads them back).
STAGED, UNSTAGED, BOTH, UNTRACKED, IGNORED = "staged", "unstaged", "staged+unstaged", "untracked", "ignored"
STAGED_DELETION, UNSTAGED_DELETION, STASHED, UNKNOWN = "staged-deletion", "unstaged-deletion", "stash", "unknown"


def parse_status(output):
    """{toplevel-relative path: PathState} from `git status --porcelain=v2 -z` output. Pure."""
    states = {}
    fields = output.split("\0")
    index = 0
    while index < len(fields):
        entry = fields[index]
        index += 1
        if not entry:
            continue
        kind = entry[0]
        if kind in ("1", "u"):
            parts = entry.split(" ", 8 if kind == "1" else 10)
            if len(parts) < (9 if kind == "1" else 11) or len(parts[1]) != 2:
                continue
            path = parts[-1]
            x, y = parts[1][0], parts[1][1]
            if kind == "u":
                x = y = "U"
            states[_clean(path)] = PathState(_clean(path), x, y)
        elif kind == "2":  # a rename or copy (only without --no-renames): the original path follows
            parts = entry.split(" ", 9)
            if len(parts) == 10 and len(parts[1]) == 2:
                states[_clean(parts[9])] = PathState(_clean(parts[9]), parts[1][0], parts[1][1])
            index += 1
        elif kind in ("?", "!") and len(entry) > 2:
            path = entry[2:]
            folder = path.endswith("/")
            states[_clean(path)] = PathState(_clean(path), UNCHANGED, UNCHANGED, kind == "?", kind == "!", folder)
    return states


def _clean(path):
    return path.rstrip("/") if len(path) > 1 else path


def read(top, timeout, ignored=False, paths=()):
    """The checkout's changed paths now, or None when git could not tell in time. paths:
    toplevel-relative paths to ask about alone (git then stats only those), taken literally."""
    return finish_read(start_read(top, timeout, ignored, paths))


def start_read(top, timeout, ignored=False, paths=()):
    """`read` started: git works while the caller reads other files; finish_read gives the answer."""
    args = ["status", "--porcelain=v2", "-z", "--untracked-files=normal", "--no-renames", "--no-ahead-behind"]
    if ignored:
        args.append("--ignored=matching")
    if paths:
        args += ["--"] + [literal(p) for p in paths]
    return gitrepo.start_git(top, args, timeout=timeout)


def finish_read(started):
    out = gitrepo.output_text(gitrepo.finish_git(started))
    return None if out is None else parse_status(out)


def literal(path):
    """A pathspec that names exactly one toplevel-relative path (`*`, `?`, `[` and a leading `:`
    are not patterns or magic)."""
    return ":(literal)" + path


MIN_EPOCH_S = 10 ** 9  # 2001-09-09: the first time git's `@<seconds>` reads as a time, not a date


def parse_commit_times(output):
    """{path: the newest commit's time (epoch seconds)} from `git log --format=%x01%ct --name-only
    -z` output (newest first: the first time a path is listed is its newest commit). Pure."""
    newest, current = {}, None
    for token in output.split("\0"):
        token = token.lstrip("\n")
        if token.startswith("\x01"):
            current = int(token[1:]) if token[1:].isdigit() else None
        elif token and current is not None:
            newest.setdefault(token, current)
    return newest


def committed_since(top, paths, since_s, timeout):
    """{toplevel-relative path: when the newest commit on HEAD that touched it was made} for the
    commits since since_s (epoch seconds; git's own --since, by committer time; None or a time
    before 2001: every commit), in one `git log`; None when git could not tell in time. A change
    made before such a commit is in history (it was committed), not uncommitted work, whatever the
    path holds now."""
    # `--since=@0` reads as "now" in git 2.39: a time that early is no bound at all
    since = ["--since=@%d" % since_s] if since_s is not None and since_s >= MIN_EPOCH_S else []
    out = gitrepo.run_git(top, ["log", "--no-renames"] + since + ["--format=%x01%ct", "--name-only", "-z", "--"]
                          + [literal(p) for p in paths], timeout=timeout)
    return None if out is None else parse_commit_times(out)

def state_of(states, path):
    """The state of one toplevel-relative path: its own entry, or the untracked (or ignored) folder
    that holds it; None when git sees no change there (committed, reverted, or never changed)."""
    found = states.get(path)
    if found is not None:
        return found
    parent = oscalls.posixpath.dirname(path)
    while parent:
        holder = states.get(parent)
        if holder is not None and holder.folder:
            return PathState(path, UNCHANGED, UNCHANGED, holder.untracked, holder.ignored, True)
        parent = oscalls.posixpath.dirname(parent)
    return None


def is_staged(state):
    return state.index not in (UNCHANGED, "?", "!") and not state.untracked and not state.ignored


def is_unstaged(state):
    return state.worktree != UNCHANGED and not state.untracked and not state.ignored


def describe(state):
    """The word a refusal uses for a path's state."""
    if state is None:
        return UNKNOWN
    if state.untracked:
        return UNTRACKED
    if state.ignored:
        return IGNORED
    if state.index == "D":
        return STAGED_DELETION
    staged, unstaged = is_staged(state), is_unstaged(state)
    if staged and unstaged:
        return BOTH
    if staged:
        return STAGED
    if state.worktree == "D":
        return UNSTAGED_DELETION
    return UNSTAGED if unstaged else UNKNOWN


def parse_stash_list(output):
    """[StashEntry] from `git stash list -z --format=%gd%x1f%H%x1f%ct%x1f%gs`. Pure."""
    entries = []
    for line in output.split("\0"):
        parts = line.strip("\n").split("\x1f")
        if len(parts) == 4 and parts[0].startswith("stash@{"):
            created = int(parts[2]) if parts[2].isdigit() else None
            entries.append(StashEntry(parts[0], parts[1], created, parts[3]))
    return entries


def read_stash(top, timeout):
    """The repository's stash entries, newest first, or None when git could not tell in time."""
    out = gitrepo.run_git(top, ["stash", "list", "-z", "--format=%gd%x1f%H%x1f%ct%x1f%gs"], timeout=timeout)
    return None if out is None else parse_stash_list(out)


MAX_APPLIED_COMMITS = 256  # a revert of a longer range is judged without the commits' times


def commit_times(top, revisions, timeout):
    """The committer times (epoch seconds) of the commits a `revert` or `cherry-pick` of these
    revisions applies (each one, a range's every commit), in one `git log`; None when git could not
    tell in time, a revision names no commit, or there are more than MAX_APPLIED_COMMITS."""
    # no -n: with it git walks each revision's history, not the commits alone (git 2.39)
    out = gitrepo.run_git(top, ["log", "--no-walk=unsorted", "--format=%ct"] + list(revisions) + ["--"],
                          timeout=timeout)
    times = [int(t) for t in out.split()] if out is not None and all(t.isdigit() for t in out.split()) else None
    return times if times and len(times) <= MAX_APPLIED_COMMITS else None


def parse_renames(output):
    """{new path: old path} of the renames in `git diff --name-status -z -M` output. Pure."""
    fields = output.split("\0")
    renames, index = {}, 0
    while index < len(fields):
        status = fields[index]
        if status.startswith(("R", "C")) and index + 2 < len(fields):
            if status.startswith("R"):
                renames[_clean(fields[index + 2])] = _clean(fields[index + 1])
            index += 3
        else:
            index += 2 if status else 1
    return renames


def read_renames(top, comparison, timeout):
    """{new: old} the renames git finds in the index (comparison "cached") or the tree ("head")
    against HEAD, toplevel-relative, or None when git could not tell in time. The state above is
    read without them; a lister that detects renames prints them (peerhooks.shell.feeds), and only a
    line fed by one, in a state that could hold one, pays for this call."""
    against = ["--cached"] if comparison == "cached" else ["HEAD"]
    out = gitrepo.run_git(top, ["diff"] + against + ["--name-status", "-z", "-M", "--"], timeout=timeout)
    return None if out is None else parse_renames(out)
