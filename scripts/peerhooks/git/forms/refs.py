"""What the forms that write refs, worktrees and the sparse set do: update-ref, symbolic-ref, branch,
worktree, sparse-checkout, bisect (a family loaded only for a line that has one).
"""
from ...shell.words import resolve
from ..args import pathspec, split_arguments
from ..kinds import ALL_ENTRIES, MOVE_HEAD, Precheck, REMOVE_WORKTREE, SAFE, SPARSE, STASH_STACK, WRITE_REFS
from . import classifies


@classifies("bisect")
def _classify_bisect(rest, run):
    verb = rest[0].value if rest else ""
    if verb in ("log", "view", "visualize", "terms", "help", ""):
        return run.op(SAFE)
    revisions = [w.value for w in rest[1:] if not w.value.startswith("-")]
    if verb == "start" and (not revisions or run.moves_to_nothing(revisions)):
        return run.op(SAFE)  # HEAD moves once a good and a bad revision are known
    return run.op(MOVE_HEAD)


@classifies("update-ref")
def _classify_update_ref(rest, run):
    return _classify_refs(rest, run, 0)


@classifies("symbolic-ref")
def _classify_symbolic_ref(rest, run):
    return _classify_refs(rest, run, 1)


def _classify_refs(rest, run, reading_operands):
    operands = [w for w in rest if not w.value.startswith("-")]
    values = {w.value for w in rest}
    if len(operands) <= reading_operands and not values & {"-d", "--delete", "--stdin"}:
        return run.op(SAFE)
    if "--stdin" in values or not operands or operands[0].expanded:
        return run.op(WRITE_REFS)  # refs only the running shell knows: any branch
    ref = operands[0].value
    if reading_operands == 0 and len(operands) >= 2 and not values & {"-d", "--delete"}:
        if any(w.expanded for w in operands[:2]):
            # `c=$(git commit-tree …) && git update-ref refs/heads/main $c`: a commit known only
            # when it runs, built from who knows which snapshot (anthony-chaudhary/fak #2320)
            return _branch_write(ref, run)
        new = operands[1].value
        if run.lookup.same_commit(ref, new, run.cwd) or run.lookup.names_no_commit([new], run.cwd):
            return run.op(SAFE)  # the ref keeps the commit it has, or git refuses the value
    if reading_operands and ref != "HEAD":
        return run.op(SAFE)  # a symbolic ref other than HEAD: no checkout stands on it
    return _branch_write(ref, run)


def _branch_write(ref, run):
    """Rewriting one ref: the stash (its entries go), a branch (under whoever has it checked out),
    HEAD (this checkout's branch); tags, remote-tracking and other refs hold nobody's checkout."""
    if ref in ("refs/stash", "stash"):
        return run.op(STASH_STACK, target=ALL_ENTRIES)
    if ref != "HEAD" and not ref.startswith("refs/heads/"):
        return run.op(SAFE)
    where = run.lookup.checked_out(ref, run.cwd)
    if where is None:
        return run.op(WRITE_REFS)
    return run.op(WRITE_REFS, target=tuple(where)) if where else run.op(SAFE)


@classifies("branch")
def _classify_branch(rest, run):
    """`git branch -m/-M [old] new` renames a branch under whoever has it checked out (git follows
    in every worktree's HEAD). Deleting or forcing a branch some worktree has checked out is
    refused by git itself; creating, copying and listing move no checkout."""
    args = split_arguments(rest, "--move --copy --delete --force --list --all --remotes --show-current", frozenset())
    if not args.flags & {"-m", "-M", "--move"}:
        return run.op(SAFE)
    names = args.operands
    if not names or len(names) > 2 or any(w.expanded for w in names):
        return run.op(WRITE_REFS) if names else run.op(SAFE)
    return _branch_write("refs/heads/" + names[0].value if len(names) == 2 else "HEAD", run)


@classifies("sparse-checkout")
def _classify_sparse(rest, run):
    """`git sparse-checkout set/init/reapply` takes out of the working tree every file outside its
    folders (cone mode: the toplevel's own files stay) whose tree matches the index: a file only
    staged goes too, its change then staged against a missing file (git 2.39 keeps a file with
    unstaged changes, and untracked ones). `add` and `disable` only bring files back; `list` reads."""
    verb = rest[0].value if rest else "list"
    if verb not in ("set", "init", "reapply"):
        return run.op(SAFE)
    folders = [w for w in rest[1:] if not w.value.startswith("-")]
    if verb == "reapply" or "--no-cone" in (w.value for w in rest) or any(w.expanded for w in folders):
        return run.op(SPARSE, runtime=True)  # patterns the guard does not read: any folder may go
    return run.op(SPARSE, tuple(pathspec(w, run.cwd, run.context.paths) for w in folders))


@classifies("worktree")
def _classify_worktree(rest, run):
    verb = rest[0].value if rest else ""
    if verb not in ("remove", "move"):
        return run.op(SAFE)
    operands = [w for w in rest[1:] if not w.value.startswith("-")]
    target = resolve(operands[0], run.cwd, run.context) if operands else None
    forced = any(w.value in ("-f", "--force") for w in rest[1:])
    return run.op(REMOVE_WORKTREE, target=target, precheck=None if forced or verb == "move" else
                  Precheck(clean_target=True))
