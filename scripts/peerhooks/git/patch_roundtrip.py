"""A working tree saved as a patch and put back by the same line: `git diff > F && git checkout . &&
git apply F`; or staged from it: `git diff > F && git apply --cached F`. Pure.

The checkout throws away the tree's changes to tracked files; the apply of the diff saved before
it writes them back. `git diff` prints the tree against the index, and the index is what the
checkout puts back in the tree, so the saved patch applies cleanly and gives each path it holds
its tree again: only the end state counts (tests/guard_corpus), and that path's work is not lost.
What the saved diff does not hold is lost all the same: a path outside its pathspecs, one outside
the folder the apply runs in (from a subfolder git apply skips the others), a binary file (a diff
without --binary holds nothing git apply can write, and the apply then fails as a whole), and what
a discard of the index too (`git checkout HEAD .`) takes, which the diff never held.

`git apply --cached F` of such a patch stages what the tree held there when it was saved: every
hunk of the paths it holds, a peer's with this session's (the guard had taken any patch file a line
names for one the session wrote of its own work).
"""
from ..shell.words import resolve
from . import kinds
from .args import pathspec
from .reach import covers
from ..startup.records import record

RoundTrip = record("RoundTrip", "saved applied specs apply_cwd binary", (), """A patch of the tree saved at
    step `saved` (`git diff [--binary] [-- <paths>] > F`) and applied at step `applied` (`git
    apply F`): the diff's Pathspecs (() for the whole tree), the folder the apply runs in, and
    whether the diff holds binary files' contents (--binary).""")

# What `git diff` may say beside its paths for its output still to be the tree against the index.
DIFF_OPTIONS = frozenset(["--binary", "--no-color", "--no-ext-diff", "--full-index"])
SAVING_REDIRECTIONS = (">", ">|")  # `>>` adds to what the file held, which the apply reads too


def round_trips(runs, line, context, is_path=None):
    """The RoundTrips of a line's commands (cmdline Commands, the line's text for the redirections'
    spelling): each plain `git apply F` of the F an earlier `git diff` wrote, nothing writing F between.
    is_path(word, cwd): whether a `git diff` operand before any `--` names a path (git takes it for
    a path when it names one and no revision); None: only operands after `--` are paths."""
    return [RoundTrip(saved, applied, specs, cwd, binary) for saved, applied, specs, cwd, binary, options
            in _applies_of_saved(runs, line, context, is_path) if not options]


def with_staged_patches(operations, runs, line, context, is_path=None):
    """The line's operations, each `git apply --cached F` of the F an earlier `git diff` of the tree
    wrote judged as what it does: it stages what the tree holds under the diff's paths, as `git add
    -u -- <those paths>` would (a peer's hunks with this session's), not a patch of the session's
    own making (the classifier takes a patch file the line names for one)."""
    staged = {applied: specs for _saved, applied, specs, _cwd, _binary, options
              in _applies_of_saved(runs, line, context, is_path) if options == {"--cached"}}
    return [op._replace(kind=kinds.STAGE_PATHS if staged[op.step] else kinds.STAGE_ALL, paths=staged[op.step],
                        relative=not staged[op.step], touches=frozenset([kinds.TRACKED_WORK]), runtime=False)
            if op.step in staged and op.kind == kinds.SAFE else op for op in operations]


def _applies_of_saved(runs, line, context, is_path):
    """(saved step, applied step, specs, the apply's folder, binary, the apply's options) of each
    `git apply [--cached] [--index] F` reading the F an earlier `git diff` of the tree wrote."""
    found, saved = [], {}  # saved: {patch path: (step, specs, binary)}
    for step, run in enumerate(runs):
        if run.depth or run.via:
            continue
        for word in run.writes:
            path = _path(word, run, context)
            saved.pop(path, None)
            diff = _saved_diff(run, word, line, context, is_path)
            if diff is not None and path is not None:
                saved[path] = (step,) + diff
        applied, options = _applied_patch(run, context)
        if applied in saved and (run.gate is None or run.gate[1] == "&&"):  # after `||` it may not run
            step_saved, specs, binary = saved[applied]
            found.append((step_saved, step, specs, run.cwd, binary, options))
    return found


def restores(trip, rel, state, top, binary):
    """Whether the trip's apply gives the toplevel-relative path its tree back after a discard of
    the tree alone: the saved diff holds it (a tracked path whose tree differs from the index,
    under the diff's pathspecs and the apply's folder), and it is not a binary file the diff
    holds without its contents (binary: toplevel-relative paths `git diff --numstat` shows as binary)."""
    if state is None or state.untracked or state.ignored or state.worktree == ".":
        return False
    path = top.rstrip("/") + "/" + rel
    if not (path + "/").startswith(trip.apply_cwd.rstrip("/") + "/"):
        return False
    if trip.specs and not any(covers(spec, path, top) for spec in trip.specs):
        return False
    return trip.binary or rel not in binary


def discards_tree_only(op):
    """A discard of the working tree's changes that leaves the index and untracked files (`git
    checkout .`, `git restore -- src`): what a saved `git diff` holds is all it takes."""
    touches = kinds.touches_of(op)
    return op.kind in (kinds.DISCARD_ALL, kinds.DISCARD_PATHS) and not op.runtime and kinds.STAGED_WORK not in touches \
        and not touches & (kinds.UNTRACKED_ANYWHERE | {kinds.IGNORED_WORK})


def _path(word, run, context):
    """The file a word names: its absolute path, or, for an absolute word under a root only the
    running shell knows (Git Bash's /tmp), the word itself (the same word is the same file there)."""
    found = resolve(word, run.cwd, context, dict(run.variables)) if run.cwd else None
    if found is None and not word.expanded and word.value.startswith("/"):
        return ("as written", word.value)
    return found


def _saved_diff(run, word, line, context, is_path=None):
    """(specs, binary) when the run is a `git diff` of the tree against the index whose output the
    redirection of `word` saves whole, else None."""
    if run.name != "git" or not run.args or run.args[0].value != "diff" or run.env or run.cwd is None:
        return None
    if word.span is None or not line[:word.span[0]].rstrip().endswith(SAVING_REDIRECTIONS) \
            or line[:word.span[0]].rstrip().endswith(">>"):
        return None
    rest = list(run.args[1:])
    specs = _diff_pathspecs(rest, run, context, is_path)
    if specs is None or any(not s.known or s.pattern or s.shell_glob for s in specs):
        return None
    return tuple(specs), any(w.value == "--binary" for w in rest)


def _diff_pathspecs(rest, run, context, is_path):
    """The pathspecs of a `git diff` of the tree's own changes, or None when its words say more
    (a revision, --cached, --stat, -R, a context size, a word only the shell knows)."""
    dashes, specs = False, []
    for arg in rest:
        if arg.expanded or arg.glob:
            return None
        if dashes or not arg.value.startswith("-"):
            if not dashes and (is_path is None or not is_path(arg.value, run.cwd)):
                return None  # a revision (the diff is then not the tree against the index)
            specs.append(pathspec(arg, run.cwd, context.paths))
        elif arg.value == "--":
            dashes = True
        elif arg.value not in DIFF_OPTIONS:
            return None  # --cached, --stat, -R, a context size ...: not the tree's own patch
    return specs


APPLY_OPTIONS = frozenset(["--cached", "--index"])  # where the patch goes; any other option: not read here


def _applied_patch(run, context):
    """(the patch file, its options) of a `git apply [--cached|--index] F`, or (None, None)."""
    if run.name != "git" or not 2 <= len(run.args) <= 3 or run.args[0].value != "apply" or run.env or run.cwd is None:
        return None, None
    *options, word = run.args[1:]
    if word.expanded or word.value.startswith("-") or any(o.value not in APPLY_OPTIONS for o in options):
        return None, None
    return _path(word, run, context), {o.value for o in options}
