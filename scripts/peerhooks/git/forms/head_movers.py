"""What the forms that move HEAD with the tree under every session do: rebase, merge, pull,
cherry-pick, revert and am (they load with the classifier, peerhooks.git.classify). Those that only
add commits on top of the branch leave a peer's work and commits as they are; a rebase over a clean
tree that only fast-forwards rewrites nothing.
"""
from ..args import CREATING_OPTIONS, config_true
from ..kinds import MOVE_HEAD, Precheck, SAFE
from . import classifies

# Words that move HEAD and rewrite the tree under every session (switch has its own classifier).
HEAD_MOVERS = frozenset(["rebase", "merge", "pull", "cherry-pick", "revert", "am"])
# Of those, the ones that only add commits on top of the branch: git refuses to start them when a
# file they change has local changes (merge and pull also when anything is staged), so a peer's
# work and commits stay as they are. A rebasing pull rewrites the branch and is not among them.
ADDING_COMMITS = frozenset(["merge", "pull", "cherry-pick", "revert", "am"])
REBASE_OPTIONS = frozenset(["-r", "--rebase", "--rebase=true", "--rebase=merges", "--rebase=interactive",
                            "--rebase=i", "--rebase=m"])
# Options that carry on (or look at) an operation already under way rather than start one; refusing
# them would strand the checkout mid-rebase. `--abort` and `--skip` discard, so they stay refused.
CARRY_ON_OPTIONS = frozenset(["--continue", "--quit", "--edit-todo", "--show-current-patch"])
STOPPING_OPTIONS = frozenset(["--abort", "--skip"])
REWRITING_REBASE_OPTIONS = frozenset(["-i", "--interactive", "--onto", "--root", "-x", "--exec", "--keep-base",
                                      "--no-ff", "-f", "--force-rebase"])
# What `revert` / `cherry-pick` may say beside the commits they apply for those to be read plainly.
APPLY_COMMIT_FLAGS = frozenset(["-n", "--no-commit", "-x", "-s", "--signoff", "--no-edit", "-e", "--edit",
                                "--allow-empty", "--keep-redundant-commits", "--rerere-autoupdate",
                                "--no-rerere-autoupdate"])
APPLY_COMMIT_VALUES = frozenset(["-m", "--mainline", "--strategy", "-X", "--strategy-option"])


@classifies(*HEAD_MOVERS)
def _classify_head_mover(rest, run):
    subcommand = run.words[0].value
    values = {w.value.partition("=")[0] for w in rest}
    if values & CARRY_ON_OPTIONS:
        return run.op(SAFE)
    if values & STOPPING_OPTIONS and not run.lookup.in_progress(run.cwd):
        return run.op(SAFE)  # nothing under way: git says so and changes nothing
    if subcommand in ("revert", "cherry-pick") and values & {"-n", "--no-commit"}:
        # it writes a commit's changes (or their reverse) into the shared index and tree and
        # commits nothing: a peer's last commit undone under it, or swept into its next commit
        return run.op(MOVE_HEAD)
    if subcommand in ADDING_COMMITS and not values & STOPPING_OPTIONS and not _rebases(subcommand, rest, run):
        return run.op(SAFE)
    return _moving_head(subcommand, rest, values, run)


def _rebases(subcommand, rest, run):
    """Whether a merge, pull, cherry-pick, revert or am rebases (`--rebase`, or pull.rebase for a pull)."""
    words = {w.value for w in rest}
    line_rebase = run.configured("pull.rebase")
    return bool(words & REBASE_OPTIONS or subcommand == "pull" and "--no-rebase" not in words and (
        config_true(line_rebase) if line_rebase is not None else run.lookup.pull_rebases(run.cwd)))


def _moving_head(subcommand, rest, values, run):
    """A rebase, rebasing pull or abort: what it reaches, and whether git starts it at all."""
    rebasing = subcommand == "rebase" or subcommand == "pull"
    line_autostash = run.configured("rebase.autostash")
    autostash = values & {"--autostash"} or (config_true(line_autostash) if line_autostash is not None
                                             else run.lookup.autostashes(run.cwd))
    if subcommand == "rebase" and not values & CREATING_OPTIONS and run.moves_to_nothing(
            [w.value for w in rest if not w.value.startswith("-") or w.value == "-"]):
        return run.op(SAFE)
    if rebasing and not autostash and _only_fast_forwards(subcommand, rest, values, run):
        return run.op(SAFE)  # over a clean tree it moves the branch forward; over tracked changes, nothing
    # "cannot rebase: You have unstaged changes": over tracked changes nothing moves
    return run.op(MOVE_HEAD, precheck=Precheck(clean_tree=True) if rebasing and not autostash else None)


def _only_fast_forwards(subcommand, rest, values, run):
    """A rebase (or rebasing pull) onto an upstream HEAD is an ancestor of replays no commit of
    this branch: git fast-forwards it, as a merge would. The upstream is the one operand of a
    rebase, remote/branch of a pull naming both, else the branch's configured upstream."""
    if values & REWRITING_REBASE_OPTIONS:
        return False
    operands = [w for w in rest if not w.value.startswith("-")]
    if any(w.expanded for w in operands):
        return False
    if subcommand == "rebase":
        if len(operands) > 1:
            return False  # `git rebase <upstream> <branch>` checks out <branch> first
        upstream = operands[0].value if operands else "@{upstream}"
    else:
        upstream = "%s/%s" % (operands[0].value, operands[1].value) if len(operands) == 2 else \
            "@{upstream}" if len(operands) < 2 else None
    return upstream is not None and run.lookup.fast_forwards(upstream, run.cwd)


def applied_commits(op):
    """The revisions (ranges included, as written) a `revert -n` or `cherry-pick -n` writes into the
    index and tree, or None when it is not one or its words do not say them plainly."""
    if op.kind != MOVE_HEAD or not op.words or op.words[0].value not in ("revert", "cherry-pick"):
        return None
    revisions, words = [], op.words[1:]
    index = 0
    while index < len(words):
        word = words[index]
        if word.expanded:
            return None
        if word.value in APPLY_COMMIT_VALUES:
            index += 2
            continue
        if word.value.startswith("-") and word.value not in APPLY_COMMIT_FLAGS and \
                word.value.partition("=")[0] not in APPLY_COMMIT_VALUES:
            return None
        if not word.value.startswith("-"):
            revisions.append(word.value)
        index += 1
    return tuple(revisions) or None
