"""Whether git itself refuses an operation as a whole, from the checkout as it is now. Pure.

Some of git's checks come before it changes anything, and when one fails nothing changes: every
pathspec must lie inside the repository, every literal one must match something (`git add src/a.py gone.py` stages neither), `git rm` keeps
a file with staged or unstaged changes and then removes nothing, `git mv` of a folder holding a
deleted file moves nothing, `git reset --hard` (or --soft, --merge, --keep) takes no paths at
all, a pop, drop, apply or `stash branch` needs the entry it names, a
rebase (or a rebasing pull) without autostash starts only over a tree with no tracked change, a
branch switch stops when a file it would rewrite has local changes, and `git worktree remove`
keeps a worktree that has any. A line the guard refused for such a command would be refused for
something git never does (issue 18: "no reason states something false about what git would do"),
and with peerhooks.shell.chains the commands after it in an `&&` chain are known not to run either.

What the classifier knows of each form's checks is its Operation.precheck (operation.Precheck); the
guard passes what it read of the checkout (a Snapshot: git's state of it, whether each literal path
exists, the stash entries, whether local changes are in a switch's way). Only a certain refusal
counts: anything unknown means git may go ahead.
"""
from . import kinds
from .gitstate import UNCHANGED, is_staged, state_of
from .kinds import MATCH_INDEX_OR_HEAD, MATCH_TREE_OR_INDEX, REFUSE_DELETED, REFUSE_DIFFERING_FROM_BOTH
from .reach import covers, relative, resolve
from ..startup.records import record

FILE, FOLDER = "file", "folder"  # what is at a literal path (peerhooks.guard.stakes looks)


Snapshot = record("Snapshot", "states_of present stash_of in_the_way", ({}, {}, {}, {}), """What the guard
    read of the checkouts: states_of {toplevel: {path: PathState} or None}; present {absolute path:
    FILE, FOLDER or None when nothing is there} for the operations' literal paths (a path not in it
    counts as a file); stash_of {toplevel: [StashEntry] or None}; in_the_way {(toplevel, revision):
    True when a file with local changes differs between HEAD and the revision, False when none
    does; missing: unknown}.""")


def fails(op, top, snapshot):
    """True when git certainly refuses the operation and changes nothing."""
    if op.kind in (kinds.STASH_STACK, kinds.STASH_APPLY):
        return _names_no_entry(op, snapshot.stash_of.get(top))
    if _names_a_path_outside(op, top):
        return True  # "'..' is outside repository": every path form parses its pathspecs first
    check, states = op.precheck, snapshot.states_of.get(top)
    if check is None:
        return False
    if check.always:
        return True
    if check.clean_target:  # "contains modified or untracked files, use --force"
        return _target_has_work(op, snapshot)
    if states is None or op.cwd is None:
        return False
    if check.clean_tree:  # "cannot rebase: You have unstaged changes"
        return any(not (s.untracked or s.ignored) for s in states.values())
    if check.switch_to is not None:
        return snapshot.in_the_way.get((top, check.switch_to)) is True
    return _paths_refused(op, check, top, states, snapshot.present)


def _names_a_path_outside(op, top):
    """A path form with a known pathspec outside the repository."""
    return (op.kind in kinds.PATH_KINDS or op.kind in kinds.WHOLE_KINDS) and op.cwd is not None and any(
        spec.known and not _inside(resolve(spec, top), top) for spec in op.paths + op.excludes)


def _target_has_work(op, snapshot):
    """Whether the worktree `git worktree remove` names has changes or untracked files."""
    there = snapshot.states_of.get(op.target) if op.target else None
    return there is not None and any(not s.ignored for s in there.values())


def _paths_refused(op, check, top, states, present):
    """git's checks of the literal paths a form names: each must match (check.match), a folder
    needs -r (check.recursive), and `rm`/`mv` keep a changed file (check.changed)."""
    if op.runtime or op.bound is not None:
        return False
    literal = [spec for spec in op.paths if _literal(spec)]
    if check.match is not None and any(not _matches(check.match, spec, top, states, present) for spec in literal):
        return True  # "pathspec 'x' did not match any file(s) known to git"
    if not check.recursive and any(present.get(resolve(spec, top)) == FOLDER for spec in literal):
        return True  # "not removing 'src' recursively without -r"
    return check.changed is not None and _keeps_a_changed_file(op, check.changed, top, states)


def _inside(path, top):
    return path == top or path.startswith(top.rstrip("/") + "/")


def _names_no_entry(op, stash):
    """A pop, drop, apply or `stash branch` of an entry the stack does not hold (the newest when it
    names none); `clear`, an expire and an entry only the shell knows never fail here."""
    if stash is None or op.target in (kinds.ALL_ENTRIES, kinds.OLDER_ENTRIES):
        return False  # clearing or expiring an empty stack succeeds, doing nothing
    if not stash:
        return True  # "No stash entries found", whichever entry the line names
    return op.target is not None and all(entry.ref != op.target for entry in stash)


def _literal(spec):
    """A pathspec naming one path as written: no wildcard, no shell glob, no magic but `:/`."""
    text = spec.text
    magic = text.startswith(":") and not (text.startswith(":/") and not text.startswith(":/("))
    return spec.known and not spec.pattern and not spec.shell_glob and not magic


def _matches(rule, spec, top, states, present):
    path = resolve(spec, top)
    if path == top:
        return True  # the whole tree
    state = state_of(states, relative(path, top))
    exists = present.get(path, FILE) is not None
    outside_index = state is not None and (state.untracked or state.ignored or state.index == "D")
    deleted_from_tree = state is not None and not outside_index and state.worktree == "D"
    in_index = exists and not outside_index or deleted_from_tree
    if rule == MATCH_TREE_OR_INDEX:
        return exists or deleted_from_tree
    if rule == MATCH_INDEX_OR_HEAD:
        return in_index or state is not None and state.index == "D"
    return in_index


def _keeps_a_changed_file(op, rule, top, states):
    """`git rm`'s own check: a file it matches with staged changes or local modifications (rule
    REFUSE_CHANGED), or whose index entry differs from both HEAD and the tree (--cached); `git
    mv`'s: a tracked file under it deleted from the tree (REFUSE_DELETED)."""
    prefix = top.rstrip("/") + "/"
    for rel, state in states.items():
        if state.untracked or state.ignored or state.index == "D":
            continue
        if op.entries is not None and rel not in op.entries:
            continue
        if not any(covers(spec, prefix + rel, top) for spec in op.paths):
            continue
        if rule == REFUSE_DELETED:
            if state.worktree == "D":
                return True
            continue
        staged, modified = is_staged(state), state.worktree not in (UNCHANGED, "D")
        if staged and modified if rule == REFUSE_DIFFERING_FROM_BOTH else staged or modified:
            return True
    return False
