"""git_index_guard.py: the guard's judgement with its I/O: which checkout each git operation acts
on, who else is live there, and — only when a verdict needs them — the peers' recent edits and the
staged index.

The decisions themselves are pure (peerhooks.gitops); scripts/git_index_guard.py is the front door,
kept tiny because a script is compiled on every run and this module's bytecode is cached.
"""
import os

from . import gitops, gitrepo, home, hookio, registry

# Bounds the alias worklist: an alias expanding to aliases expanding to ... is git's loop to refuse.
MAX_JUDGED_OPERATIONS = 64


def run(payload, argv, environ, now):
    """Refuse (exit 2, the reason on stderr) a Bash command that would harm a live peer's work."""
    command = payload.command
    if payload.tool_name != "Bash" or command is None or "git" not in command:
        return hookio.QUIET
    cwd = payload.cwd
    cwd = os.path.realpath(cwd) if cwd and os.path.isabs(cwd) and os.path.isdir(cwd) else None
    operations = [op for op in gitops.parse(command, cwd) if op.kind != gitops.SAFE and op.cwd]
    if not operations:
        return hookio.QUIET
    refusal = _judge(operations, payload.session_id, cwd, environ, int(now * 1000))
    if refusal is None:
        return hookio.QUIET
    return hookio.Outcome(hookio.EXIT_REFUSE, stderr=refusal.message())


def _judge(operations, session_id, cwd, environ, now_ms):
    """Group the operations by the checkout they act on and judge each checkout that has peers."""
    claude = home.claude_home(environ)
    sessions = registry.read_sessions(claude)
    if not sessions:
        return None
    ancestors = registry.ancestor_pids()
    peers_of, by_checkout, aliases = {}, {}, None
    pending = list(operations)
    judged = 0
    while pending and judged < MAX_JUDGED_OPERATIONS:
        judged += 1
        op = pending.pop(0)
        real = os.path.realpath(op.cwd)
        top = gitrepo.toplevel(real)
        if top is None:
            continue
        if top not in peers_of:
            peers_of[top] = registry.peers_in_checkout(claude, top, session_id, ancestors, sessions)
        if not peers_of[top]:
            continue
        op = gitops.relocated(op, real)
        if gitops.is_unknown(op):
            if aliases is None:
                aliases = _read_aliases(top)
            pending.extend(o for o in gitops.expand_alias(op, aliases, top) if o.kind != gitops.SAFE and o.cwd)
            continue
        by_checkout.setdefault(top, []).append(op)
    for top, checkout_ops in by_checkout.items():
        refusal = _judge_checkout(checkout_ops, peers_of[top], top, claude, session_id, cwd, now_ms)
        if refusal is not None:
            return refusal
    return None


def _judge_checkout(operations, sessions, top, claude, session_id, cwd, now_ms):
    """Judge on the peers' names first; read their edits (and the index) only when a path-limited
    add or a plain commit needs them."""
    names = [s.name or "session %s" % s.short_id for s in sessions]
    refusal = gitops.verdict(operations, [gitops.Peer(n) for n in names], top)
    if refusal is not None or not gitops.needs_edits(operations):
        return refusal
    edits = _edits_of(claude, [(s.session_id, s.cwd) for s in sessions] + [(session_id, cwd)], now_ms)
    peers = [gitops.Peer(name, edits[i]) for i, name in enumerate(names)]
    staged, own = (), frozenset()
    if gitops.needs_staged(operations) and any(p.edits for p in peers):
        staged = tuple(gitrepo.staged_paths(top) or ())
        own = frozenset(edits[-1]) if session_id else frozenset()
    return gitops.verdict(operations, peers, top, staged, own)


def _edits_of(claude, sessions, now_ms):
    """Each session's recent edits (realpaths), from the remembered transcript scans."""
    from . import editindex, transcripts  # only a folder add or a plain commit needs them

    paths = [transcripts.transcript_path(claude, sid, cwd) if sid else None for sid, cwd in sessions]
    scans = editindex.recent_edits_of(claude, paths, now_ms)
    return [tuple(os.path.realpath(e.path) for e in scans[p].edits) if p in scans else () for p in paths]


def _read_aliases(top):
    """Every git alias visible from the checkout, in one `git config` call."""
    return gitops.parse_alias_config(gitrepo.run_git(top, ["config", "--get-regexp", r"^alias\."]) or "")
