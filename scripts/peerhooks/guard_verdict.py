"""Whether to let git operations run while live peers share what they act on, and the reason the
model (or the human) reads when they do not.

Pure: operations come from peerhooks.gitops, the peers' changes and the index from the hook.
A refusal is a `deny` when a narrow form exists (the model retries with it) and an `ask` when none
does (a branch switch, a pull, `reset --hard`, a stash pop): then the human decides.
  verdict(judged, own_changes, staged_of) -> [Refusal]
  reason(refusals, command, host)         -> text
"""
import posixpath

from . import gitops as g
from .records import record

# Every refusal opens with this phrase; `peers.py --stats` counts refusals in transcripts by it.
REFUSAL_MARK = "peerhooks git guard"
COMMAND_ECHO_CHARS = 200  # the command is echoed so the model knows which one; never a whole script
MAX_FILES_SHOWN = 8  # files named per refusal; the rest are counted
MAX_OWN_FILES = 12  # own files filled into a suggested command

# Kinds refused outright while a peer is at stake, with no narrow form: the human decides.
ASK_KINDS = frozenset([g.MOVE_HEAD, g.RESET_ALL, g.STASH_STACK, g.STASH_APPLY, g.WRITE_REFS,
                       g.REMOVE_WORKTREE, g.AMEND, g.UNFOLLOWED])
# Kinds refused outright (deny) unless they act on a subfolder holding no peer's change.
WHOLE_KINDS = frozenset([g.STAGE_ALL, g.COMMIT_ALL, g.STASH_ALL, g.DISCARD_ALL, g.CLEAN_ALL, g.UNSTAGE_ALL])


Peer = record("Peer", "name changes can_message busy checkout", ((), False, True, None), """A live peer
    at stake: its name, the files its transcript shows it changed (realpaths), whether it can be
    sent a message, whether it is busy, and the checkout it works in.""")

Judged = record("Judged", "operation toplevel peers", (), """An operation with the checkout it acts on
    and the live peers at stake (for stash and refs operations, the peers of every worktree of the
    repository).""")

Refusal = record("Refusal", "operation peers effect instead ask files", (False, ()), """One operation
    refused: the peers at stake, what it would do to them, what to run instead (with {own} and
    {message} to fill in), whether only the human can decide (ask), and the peers' files named.""")


EFFECTS = {
    g.STAGE_ALL: "it stages every change in the checkout, the peers' unfinished work with yours",
    g.COMMIT_ALL: "it commits every modified file in the checkout, the peers' changes with yours",
    g.STASH_ALL: "it stashes every change in the checkout, taking the peers' work out from under them",
    g.DISCARD_ALL: "it discards or removes every session's uncommitted changes",
    g.CLEAN_ALL: "it deletes every untracked file, including the peers' new files",
    g.UNSTAGE_ALL: "it unstages everything, including what the peers staged",
    g.RESET_ALL: "it moves the branch or rewrites the index and tree under every session",
    g.MOVE_HEAD: "it moves HEAD and rewrites the working tree under every session",
    g.STASH_STACK: "the stash stack is shared by every worktree: this drops entries that may be a peer's",
    g.STASH_APPLY: "it re-applies a stash entry, which may be a peer's, over the shared tree",
    g.WRITE_REFS: "refs are shared by every worktree: this rewrites a branch a peer may have checked out",
    g.REMOVE_WORKTREE: "a live peer works in that worktree (or it cannot be told which one this is)",
    g.AMEND: "it rewrites HEAD, which may be a commit a peer just made, and commits the whole index",
    g.UNFOLLOWED: "it runs code that mentions git, and the guard cannot tell which git commands it runs",
}
VERBS = {g.STAGE_PATHS: "stage", g.DISCARD_PATHS: "discard", g.CLEAN_PATHS: "delete",
         g.REMOVE_PATHS: "remove", g.COMMIT_PATHS: "commit", g.STASH_PATHS: "stash",
         g.UNSTAGE_PATHS: "unstage"}
NARROW = {g.STAGE_PATHS: "git add -- {own}", g.STAGE_ALL: "git add -- {own}",
          g.COMMIT_PATHS: "git commit -m {message} -- {own}", g.COMMIT_ALL: "git commit -m {message} -- {own}",
          g.COMMIT_INDEX: "git commit -m {message} -- {own}",
          g.STASH_PATHS: "git stash push -- {own}", g.STASH_ALL: "git stash push -- {own}",
          g.DISCARD_PATHS: "git restore -- {own}", g.DISCARD_ALL: "git restore -- {own}",
          g.CLEAN_PATHS: "git clean -f -- {own}", g.CLEAN_ALL: "git clean -f -- {own}",
          g.REMOVE_PATHS: "git rm -- {own}", g.UNSTAGE_PATHS: "git restore --staged -- {own}",
          g.UNSTAGE_ALL: "git restore --staged -- {own}"}
ASK_ADVICE = {
    g.MOVE_HEAD: "work on another branch in a linked worktree: git worktree add -b <new-branch> ../<dir> "
                 "(an existing branch: git worktree add ../<dir> <branch>); for one file: "
                 "git checkout <rev> -- <path>",
    g.RESET_ALL: "to undo your own changes name them: git restore --staged --worktree -- {own}; to move "
                 "the branch, do it in a linked worktree",
    g.STASH_STACK: "leave the stash alone, or check whose entry it is with git stash list / git stash show",
    g.STASH_APPLY: "check whose entry it is with git stash show -p stash@{{n}}; apply it in a linked worktree",
    g.WRITE_REFS: "work on your own branch in a linked worktree: git worktree add -b <new-branch> ../<dir>",
    g.REMOVE_WORKTREE: "leave that worktree to its session",
    g.AMEND: "make a new commit of your own files: git commit -m {message} -- {own}",
    g.UNFOLLOWED: "run the git commands it would run yourself, by name, so that each can be judged",
}
PULL_ADVICE = ("git fetch first (it touches no working tree), then merge or rebase in a linked worktree, "
               "or ask the user to pull when the peers are done")


def verdict(judged, own_changes=frozenset(), staged_of=None):
    """Every refusal for the judged operations, in order (empty: let the line run).

    own_changes: realpaths this session changed. staged_of: {toplevel: realpaths in its index, or
    None when git could not tell}, read only for a plain commit and a stash apply."""
    staged_of = staged_of or {}
    refusals, pushed, added = [], set(), {}
    for item in judged:
        op, top, peers = item
        if not peers or op.cwd is None:
            if op.kind in (g.STASH_ALL, g.STASH_PATHS):
                pushed.add(top)
            continue
        refusal = _judge(op, top, peers, own_changes, staged_of, pushed, added.get(top, ()))
        if refusal is not None:
            refusals.append(refusal)
        elif op.kind in (g.STASH_ALL, g.STASH_PATHS):
            pushed.add(top)
        elif op.kind == g.STAGE_PATHS:
            added[top] = added.get(top, ()) + tuple(_literal_paths(op, top))
    return refusals


def _judge(op, top, peers, own, staged_of, pushed, added):
    kind = op.kind
    if kind in WHOLE_KINDS and op.relative and op.cwd != top and op.cwd.startswith(top + "/"):
        kind = g.PATHS_OF[kind]
        op = op._replace(kind=kind, paths=op.paths or (g.Pathspec(".", op.cwd, ""),))
    if kind in (g.STASH_STACK, g.STASH_APPLY) and top in pushed and "clear" not in op.command \
            and "stash@{" not in op.command.replace("stash@{0}", ""):
        return None  # popping or dropping the entry the same line pushed
    if kind == g.STASH_APPLY and op.entries is not None:
        return _judge_stash_apply(op, top, peers, staged_of.get(top, ()))
    if kind in ASK_KINDS:
        if kind == g.REMOVE_WORKTREE and op.target and not any(p.checkout == op.target for p in peers):
            return None
        advice = PULL_ADVICE if op.command.startswith("git pull") else ASK_ADVICE[kind]
        return Refusal(op, peers, EFFECTS[kind], advice, ask=True)
    if kind in WHOLE_KINDS:
        return Refusal(op, peers, EFFECTS[kind], NARROW[kind])
    if kind in g.PATH_KINDS:
        return _judge_paths(op, kind, top, peers, own)
    if kind == g.COMMIT_INDEX:
        return _judge_plain_commit(op, top, peers, own, staged_of.get(top, ()), added)
    return None


def _judge_paths(op, kind, top, peers, own):
    if op.runtime:
        return Refusal(op, peers, "its paths are computed when it runs (a substitution, a variable, "
                       "xargs or a file list), so they may be a live peer's changes",
                       "name your files literally: " + NARROW[kind])
    if any(_reaches_toplevel(spec, top) for spec in op.paths):
        whole = g.WHOLE_OF[kind]
        return Refusal(op._replace(kind=whole), peers, EFFECTS[whole], NARROW[whole])
    at_stake, files = [], []
    for peer in peers:
        hits = [c for c in peer.changes if c not in own and any(covers(s, c, top) for s in op.paths)
                and (op.entries is None or relative(c, top) in op.entries)]
        if hits:
            at_stake.append(peer)
            files.extend(relative(c, top) for c in hits if relative(c, top) not in files)
    if not at_stake:
        return None
    effect = "it would %s files a live peer changed: %s" % (VERBS[kind], _listed(files))
    return Refusal(op, tuple(at_stake), effect, "name only your own files: " + NARROW[kind], files=tuple(files))


def _judge_plain_commit(op, top, peers, own, staged, added):
    """A plain commit takes the whole index: refused when it holds a file a live peer changed, or
    one this session did not change (nor stage in this line) while a live peer is busy."""
    if staged is None:
        return Refusal(op, peers, "the index could not be read in time to tell whose files it holds",
                       NARROW[g.COMMIT_INDEX], ask=True)
    changed_by_peers = {c for p in peers for c in p.changes}
    mine = set(own) | set(added)
    foreign = [p for p in staged if p not in mine]
    peer_files = [p for p in foreign if p in changed_by_peers]
    busy = any(p.busy for p in peers)
    if not peer_files and not (foreign and busy):
        return None
    files = [relative(p, top) for p in (peer_files or foreign)]
    at_stake = tuple(p for p in peers if set(p.changes) & set(peer_files)) or peers
    who = "a live peer changed" if peer_files else "this session did not change (a busy peer may have staged)"
    effect = "the index holds files %s: %s; a plain commit would commit them as yours" % (who, _listed(files))
    own_staged = [p for p in staged if p in mine]
    return Refusal(op, at_stake, effect, NARROW[g.COMMIT_INDEX], files=tuple(files))._replace(
        operation=op._replace(paths=tuple(g.Pathspec(p, None, relative(p, top)) for p in own_staged)))


def _judge_stash_apply(op, top, peers, staged):
    """A stash apply whose files are known reaches uncommitted work only where a file it holds is
    staged (gitops._stash_apply says why): refused (ask) then, whoever staged it."""
    if staged is None:
        return Refusal(op, peers, "the index could not be read in time to tell what the entry would merge into",
                       ASK_ADVICE[g.STASH_APPLY], ask=True)
    files = [relative(p, top) for p in staged if relative(p, top) in op.entries]
    if not files:
        return None
    effect = "it would merge a stash entry into staged files, which may be a peer's: %s" % _listed(files)
    return Refusal(op, peers, effect, ASK_ADVICE[g.STASH_APPLY], ask=True, files=tuple(files))


def _literal_paths(op, top):
    return [resolve(s, top) for s in op.paths if s.known and not s.pattern and not s.shell_glob]


def resolve(spec, toplevel):
    root = toplevel if spec.root is None else spec.root
    return posixpath.normpath(posixpath.join(root, spec.relative)) if spec.relative else root


def _reaches_toplevel(spec, toplevel):
    """A pathspec naming the toplevel or above it (`git add ../..`)."""
    if not spec.known or spec.pattern or spec.shell_glob:
        return False
    path = resolve(spec, toplevel)
    return path == toplevel or toplevel.startswith(path.rstrip("/") + "/")


def covers(spec, path, toplevel):
    """True when the pathspec reaches the absolute path: names it, lies above it, or matches it."""
    if not spec.known:
        return False
    root = toplevel if spec.root is None else spec.root
    if spec.pattern or spec.shell_glob:
        import fnmatch  # only a pattern needs it

        if not path.startswith(root.rstrip("/") + "/"):
            return False
        rest = path[len(root.rstrip("/")) + 1:]
        pattern = spec.relative
        if spec.pattern:
            return fnmatch.fnmatchcase(rest, pattern) or any(
                fnmatch.fnmatchcase(rest[:i], pattern) for i, c in enumerate(rest) if c == "/")
        pattern_parts, parts = pattern.split("/"), rest.split("/")
        return len(parts) >= len(pattern_parts) and all(
            fnmatch.fnmatchcase(part, wanted) for part, wanted in zip(parts, pattern_parts))
    named = resolve(spec, toplevel)
    return path == named or path.startswith(named.rstrip("/") + "/")


def relative(path, toplevel):
    prefix = toplevel.rstrip("/") + "/"
    return path[len(prefix):] if path.startswith(prefix) else path


def _listed(files):
    shown = ", ".join(files[:MAX_FILES_SHOWN])
    return shown + (" (+%d more)" % (len(files) - MAX_FILES_SHOWN) if len(files) > MAX_FILES_SHOWN else "")


# -- the reason --------------------------------------------------------------------------------

def is_ask(refusals):
    """Ask the human only when no refusal has a narrow form the model could retry with."""
    return bool(refusals) and all(r.ask for r in refusals)


def reason(refusals, command, own_files, host="claude", can_send=True):
    """The text the model (deny) or the human (ask) reads: every refusal in the line, what to do
    instead with this session's own files and message filled in, and how to reach the peers
    (`can_send`: whether this session can send SendMessage at all)."""
    echo = " ".join(command.split())
    if len(echo) > COMMAND_ECHO_CHARS:
        echo = echo[:COMMAND_ECHO_CHARS - 1] + "…"
    lines = ["%s refused `%s`:" % (REFUSAL_MARK, echo)]
    peers = []
    for refusal in refusals:
        own = _own_for(refusal, own_files)
        message = g.quote(refusal.operation.message) if refusal.operation.message else "<message>"
        instead = refusal.instead.format(own=own, message=message)
        lines.append("- `%s`%s: %s. Instead: %s" % (_short(refusal.operation.command), _run_by(refusal.operation),
                                                    refusal.effect, instead))
        peers.extend(p for p in refusal.peers if p.name not in [q.name for q in peers])
    lines.append(_peers_line(peers, host, can_send))
    return "\n".join(lines)


def _own_for(refusal, own_files):
    named = [s.relative for s in refusal.operation.paths if s.root is None and refusal.operation.kind == g.COMMIT_INDEX]
    files = named or list(own_files)
    if not files:
        return "<your files>"
    shown = " ".join(g.quote(f) for f in files[:MAX_OWN_FILES])
    return shown + (" …" if len(files) > MAX_OWN_FILES else "")


def _run_by(op):
    """Which wrapper runs the operation, as the reader can check it: `, which `make commit` runs
    (`git add -A && git commit -m save`)`; through several, each named (`make release` through
    `make commit`). A wrapper that is itself the operation (`gh pr checkout 12`) names only the
    wrappers that run it, and why it cannot be followed when it cannot."""
    via = op.via
    if not via:
        return ""
    why = ""
    if via[-1].wrapper == op.command:
        why = " (%s)" % via[-1].runs if op.kind == g.UNFOLLOWED and via[-1].runs else ""
        via = via[:-1]
        if not via:
            return why
    names = " through ".join("`%s`" % _short(v.wrapper) for v in via)
    shown = via[-1].runs
    return ", which %s runs%s%s" % (names, " (`%s`)" % _short(shown) if shown else "", why)


def _short(command):
    return command if len(command) <= 80 else command[:79] + "…"


def _peers_line(peers, host, can_send):
    names = ", ".join(p.name for p in peers)
    if host == "codex":
        return "Live peers at stake: %s. Coordinate with them through the user." % names
    if not can_send:
        return ("Live peers at stake: %s. This session's Claude Code cannot send messages: coordinate with "
                "them through the user." % names)
    reachable = [p.name for p in peers if p.can_message]
    others = [p.name for p in peers if not p.can_message]
    parts = ["Live peers at stake: %s." % names]
    if reachable:
        parts.append("Message %s with SendMessage to coordinate." % ", ".join(reachable))
    if others:
        parts.append("%s cannot receive messages: coordinate through the user." % ", ".join(others))
    return " ".join(parts)
