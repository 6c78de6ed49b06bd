"""What a later command of the same line puts back as it was: the refusal of an earlier index change
without the peers' paths that come back to the state they are in now. Pure.

The guard judges each git command of a line by what it reaches of the state git holds now, and the
At stake line names the union. A later command can undo an earlier one's change to a path, and then
naming that path says something false about what the line does to it:
- `git rm -r --cached . && git add .` (re-reading .gitignore) takes every entry out of the index and
  stages the tree again: a staged file whose tree holds what is staged comes back as it was;
- `git add -A && git reset -q -- src && git commit -m docs` stages everything, then puts the index of
  `src` back as HEAD holds it: a peer's untracked or unstaged file under src is untracked or
  unstaged again, and the commit does not take it (a file the peer had staged loses its staging
  there, which the reset's own refusal names).
"""
from ..shell import chains
from ..git import gitstate
from ..git import gitops as g
from ..git.reach import reaches, resolve

STAGE_KINDS = frozenset([g.STAGE_ALL, g.STAGE_PATHS])
INDEX_RESETS = frozenset([g.UNSTAGE_ALL, g.UNSTAGE_PATHS])


def readded(refusal, top, later, states):
    """The refusal of a `git rm --cached` without the files a later add stages again as they were
    (the add is judged by itself), or None when none is left."""
    if states is None:
        return refusal
    adds = [o for o in later if o.kind in STAGE_KINDS]
    prefix = top.rstrip("/") + "/"

    def restored(held):
        state = gitstate.state_of(states, held.path)
        if state is None or state.worktree != gitstate.UNCHANGED:
            return False
        untracked = state._replace(index=gitstate.UNCHANGED, untracked=True)  # what rm --cached leaves
        return any(reaches(add, prefix + held.path, untracked, top) for add in adds)

    return _without(refusal, restored)


def unstaged_again(refusal, top, after, chain, states):
    """The refusal of a staging (`git add -A`) without the peers' files it stages that an index reset
    to HEAD right after it (`&& git reset -q -- src`) puts back: a file with nothing staged now
    (untracked, or changed in the tree only) is as it was once the reset has run. after: the
    operations of the line after the staging, in order. Only while the reset runs whenever the
    staging did (nothing but other such resets of the checkout between them, each after `;` or
    the one before it with `&&`: `git reset` refuses no pathspec inside the checkout), so that
    nothing reads the index in between. When the reset is refused too, the suggestion narrows the
    staging with it (peerhooks.guard.narrow): narrowed, the reset no longer puts back what it staged."""
    op = refusal.operation
    if states is None or chain is None or op.step is None or op.depth or op.in_loop or op.via:
        return refusal
    resets = _resets_run_after(op.step, top, after, chain)
    if not resets:
        return refusal
    prefix = top.rstrip("/") + "/"

    def put_back(held):
        state = gitstate.state_of(states, held.path)
        if state is None or gitstate.is_staged(state) or state.index == "U":
            return False  # what was staged before loses its staging: the reset's own refusal says so
        staged = state._replace(index="A" if state.untracked or state.ignored else state.worktree,
                                worktree=gitstate.UNCHANGED, untracked=False, ignored=False)
        return any(reaches(reset, prefix + held.path, staged, top) for reset in resets)

    return _without(refusal, put_back)


def _resets_run_after(step, top, after, chain):
    """The index resets to HEAD that run right after the command at `step` whenever it succeeds."""
    resets, previous = [], step
    for op in after:
        if op.step is None or op.step <= step:
            continue
        if op.step != previous + 1 or not _is_plain_reset(op, top):
            break
        gate = chain.gates.get(op.step)
        if gate is not None and gate != (previous, chains.AND):
            break
        resets.append(op)
        previous = op.step
    return resets


def _is_plain_reset(op, top):
    """`git reset [-q] [HEAD] [--] <paths inside the checkout>` of this checkout's own index, or
    `git restore --staged .` (restore refuses a whole list for one pathspec that matches nothing;
    the tree or folder just staged always matches)."""
    if op.kind not in INDEX_RESETS or op.target is not None or op.runtime or op.depth or op.in_loop or op.via \
            or op.private or not op.words or op.cwd is None:
        return False
    if op.words[0].value == "restore":
        return op.kind == g.UNSTAGE_ALL and not op.excludes
    return op.words[0].value == "reset" and all(spec.known and _inside(resolve(spec, top), top)
                                                for spec in op.paths + op.excludes)


def _inside(path, top):
    return path == top or path.startswith(top.rstrip("/") + "/")


def _without(refusal, dropped):
    held = tuple(h for h in refusal.held if not dropped(h))
    if len(held) == len(refusal.held):
        return refusal
    if not held:
        return None
    names = {h.peer for h in held}
    return refusal._replace(held=held, peers=tuple(p for p in refusal.peers if p.name in names) or refusal.peers)
