"""What a line's git operations do together, in order. Pure.

Two of them are read again in the light of the ones before: adds into a private index
(GIT_INDEX_FILE) fold into the commit made from it, whose tree is what the line filled that index
with; and a reset to HEAD~1 that certainly runs right after the line's one commit takes the branch
back to where the line started, not to a peer's earlier commit.
"""
from ..shell.chains import AND
from .forms.head_movers import HEAD_MOVERS
from .kinds import (ALIAS, AMEND, COMMIT_ALL, COMMIT_INDEX, COMMIT_PATHS, COMMIT_PRIVATE, MOVE_HEAD, RESET_ALL, SAFE,
                    STAGE_ALL, STAGE_PATHS, UNFOLLOWED, WRITE_REFS)
from .operation import PrivateIndex


def fold_private_indexes(operations):
    """The operations in order, with those on a private index (GIT_INDEX_FILE) folded into the
    commit made from it: an add there touches no shared state, but the commit makes HEAD's tree from
    that index, so what the line filled it with is what the commit is judged by. Pure."""
    fresh, adds, folded = set(), {}, []
    for op in operations:
        key = op.private
        if key is None or op.kind not in (STAGE_ALL, STAGE_PATHS, COMMIT_PRIVATE) and not _reads_a_tree(op):
            folded.append(op)
        elif _reads_a_tree(op):
            fresh.add(key)
            adds[key] = []
        elif op.kind == COMMIT_PRIVATE:
            folded.append(op._replace(private=PrivateIndex(key, key in fresh, tuple(adds.get(key, ())))))
        else:
            adds.setdefault(key, []).append(op)
    return folded


# The revision words that name the commit before HEAD.
PARENT_OF_HEAD = frozenset(["HEAD~", "HEAD~1", "HEAD^", "HEAD^1", "@~", "@~1", "@^", "@^1"])
MAKES_A_COMMIT = frozenset([COMMIT_INDEX, COMMIT_ALL, COMMIT_PATHS, COMMIT_PRIVATE])
MOVES_HEAD = frozenset([MOVE_HEAD, AMEND, WRITE_REFS, ALIAS, UNFOLLOWED])
# Subcommands that move HEAD in some of their forms, judged safe or not.
MAY_MOVE_HEAD = frozenset(["checkout", "switch", "reset", "update-ref", "symbolic-ref", "bisect", "stash"])


def back_to_the_start(operations, gates):
    """The operations with a reset to HEAD~1 that certainly runs right after the line's one commit
    (`git commit -m x && git push && git reset --hard HEAD~1`) judged as a reset to where the line
    started: when it runs, every command of its `&&` chain back to that commit succeeded, so HEAD~1
    is the commit every session stood on, and the branch ends where it began. `--hard` still
    rewrites the tracked files; `--soft` changes nothing, and a plain commit it takes back leaves
    the index as it found it, so neither is judged. gates: chains.Chain.gates. Pure."""
    undone = {}  # id of an operation -> what it is judged as
    for op in operations:
        commit = _one_commit_before(op, operations, gates) if op.kind == RESET_ALL and op.moves_branch \
            and _names_parent_of_head(op) else None
        if commit is None:
            continue
        if op.touches:
            undone[id(op)] = op._replace(moves_branch=False)
        else:
            undone[id(op)] = op._replace(kind=SAFE, moves_branch=False)
            if commit.kind == COMMIT_INDEX:
                undone[id(commit)] = commit._replace(kind=SAFE)
    return [undone.get(id(op), op) for op in operations]


def _names_parent_of_head(op):
    operands = [w for w in op.words[1:] if not w.value.startswith("-")]
    return len(operands) == 1 and not operands[0].expanded and operands[0].value in PARENT_OF_HEAD


def _one_commit_before(reset, operations, gates):
    """The line's one commit when the reset runs only once it succeeded, nothing else having moved
    HEAD; else None."""
    if reset.step is None or reset.depth or reset.in_loop or reset.via:
        return None
    before = [op for op in operations if op.step is not None and op.step < reset.step]
    commits = [op for op in before if op.kind in MAKES_A_COMMIT]
    if len(commits) != 1 or any(op.kind in MOVES_HEAD or op.kind == RESET_ALL or op.words and op.words[0].value in
                                (HEAD_MOVERS | MAY_MOVE_HEAD) for op in before):
        return None  # (a pull judged safe may still have moved HEAD forward)
    commit = commits[0]
    step = reset.step
    while step > commit.step:  # an unbroken `&&` chain, command by command, back to the commit
        if gates.get(step) != (step - 1, AND):
            return None
        step -= 1
    return None if commit.depth or commit.in_loop or commit.via else commit


def _reads_a_tree(op):
    return bool(op.words) and op.words[0].value == "read-tree"
