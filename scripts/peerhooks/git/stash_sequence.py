"""Which stash entry each stash operation of a line takes, as the stack will be when it runs. Pure.

The stack changes under the line itself: `git stash && git stash pop` pops the entry the push just
made, `git stash pop && git stash pop` pops this session's entry and then the one below it (a
peer's), and a push with nothing to stash makes no entry, so a pop after it takes whatever was on
top. Walking the line's pushes, pops, drops and applies in order over the stack as git lists it
tells each operation's entry; a push whose own entry the line pops (or applies) again is a round
trip, which puts the files back but not what was staged (without --index).
"""
from . import kinds
from .gitstate import StashEntry
from ..startup.records import record

# An entry pushed earlier in the same line: this session's own.
PUSHED_HERE = StashEntry("(pushed by this line)", None, None, "")

Sequence = record("Sequence", "taken round_trips", (), """What a line's stash operations act on: taken
    {index of the operation: [StashEntry] it pops, drops or applies (PUSHED_HERE for an entry the
    line pushed)}, for the operations whose stack is known; round_trips {index of a push: True when
    the pop or apply that gives its entry back restores the index too (--index)}.""")


def walk(ops, stack, stashes_something):
    """The Sequence of ops (Operations in line order, each with its place in the stack's
    repository) over the stack as it is now ([StashEntry], newest first, or None: unknown).
    stashes_something(index) says whether the push at that index makes an entry."""
    stack = None if stack is None else list(stack)
    pushed_at = []  # for each PUSHED_HERE in the stack, newest first: the index of its push
    taken, round_trips = {}, {}
    for index, op in enumerate(ops):
        if op.kind in (kinds.STASH_ALL, kinds.STASH_PATHS):
            if stack is not None and stashes_something(index):
                stack.insert(0, PUSHED_HERE)
                pushed_at.insert(0, index)
            continue
        if op.kind not in (kinds.STASH_STACK, kinds.STASH_APPLY) or stack is None:
            continue
        if op.target == kinds.ALL_ENTRIES:  # clear, expire, update-ref -d refs/stash
            taken[index], stack, pushed_at = list(stack), [], []
            continue
        if op.target == kinds.OLDER_ENTRIES:  # every entry but the newest
            taken[index], stack = stack[1:], stack[:1]
            pushed_at = pushed_at[:1] if stack and stack[0] is PUSHED_HERE else []
            continue
        position = _position(op.target)
        if position is None:
            stack = None  # an entry only the shell knows: unknown from here
            continue
        if position >= len(stack):
            taken[index] = []  # git finds no such entry and changes nothing
            continue
        entry = stack[position]
        taken[index] = [entry]
        mine = _pushes_before(stack, position, pushed_at) if entry is PUSHED_HERE else None
        if mine is not None and (op.kind == kinds.STASH_APPLY or _is_pop(op)):
            round_trips[mine] = _restores_index(op)  # an apply puts the files back as a pop does
        if op.kind == kinds.STASH_APPLY:
            continue
        if mine is not None:
            pushed_at.remove(mine)
        del stack[position]
    return Sequence(taken, round_trips)


def _position(ref):
    """N of `stash@{N}`, or None."""
    if not ref or not ref.startswith("stash@{") or not ref.endswith("}"):
        return None
    number = ref[len("stash@{"):-1]
    return int(number) if number.isdigit() else None


def _pushes_before(stack, position, pushed_at):
    """The index of the push whose entry sits at `position` (the PUSHED_HERE entries above it
    are newer pushes)."""
    newer = sum(1 for entry in stack[:position] if entry is PUSHED_HERE)
    return pushed_at[newer]


def _is_pop(op):
    return bool(op.words) and len(op.words) > 1 and op.words[1].value == "pop"


def _restores_index(op):
    return any(w.value == "--index" for w in op.words[2:])
