"""What the index forms do: add, commit, rm and mv, the commonest lines the guard judges (they load
with the classifier, peerhooks.git.classify).
"""
from ..args import (ADD_LONG, ADD_VALUES, COMMIT_LONG, COMMIT_VALUES, MV_LONG, PATCH_OPTIONS, RM_LONG, RM_VALUES,
                    pathspec, split_arguments)
from ..kinds import (AMEND, COMMIT_ALL, COMMIT_INDEX, COMMIT_PATHS, COMMIT_PRIVATE, DELETION_WORK, DISCARD_ALL,
                     IGNORED_WORK, MATCH_INDEX, MATCH_INDEX_OR_HEAD, MATCH_TREE_OR_INDEX, Precheck, REFUSE_CHANGED,
                     REFUSE_DELETED, REFUSE_DIFFERING_FROM_BOTH, REMOVE_PATHS, SAFE, STAGE_PATHS)
from . import classifies
from .run import by_paths

# A commit takes its message from one of these (`-c` and --amend reuse a commit's); without one git
# asks an editor, and an agent's shell has none to answer it (Claude Code's Bash runs git with
# GIT_EDITOR=true and no terminal), so the message stays empty and git aborts. `--no-edit` is not a
# source: it only skips the editor, and alone it aborts the same way (git 2.39: "Aborting commit due
# to empty commit message"). What else gives git a message is in the checkout (Lookup.message_waiting).
MESSAGE_OPTIONS = frozenset(["-m", "--message", "-F", "--file", "-C", "--reuse-message", "-c",
                             "--reedit-message", "--fixup", "--squash",
                             "-t", "--template"])  # a template is kept as the message by --cleanup=verbatim
MESSAGE_FLAGS = frozenset(["--amend", "--allow-empty-message"])
# git refuses `-a` together with any path ("paths '…' with -a does not make sense"), with -i, -o or
# --pathspec-from-file ("cannot be used together") before it reads the index: nothing is committed.
ALL_CONFLICTS = frozenset(["-i", "--include", "-o", "--only", "--pathspec-from-file"])


@classifies("add", "stage")
def _classify_add(rest, run):
    args = split_arguments(rest, ADD_LONG, ADD_VALUES)
    if args.flags & {"-n", "--dry-run"} or run.patch_unanswered(args):
        return run.op(SAFE)
    everything = args.flags & {"-A", "--all", "-u", "--update", "--no-ignore-removal"} or \
        args.flags & PATCH_OPTIONS
    # -u and -p (answered) stage tracked files only; -f also ignored ones
    touches = frozenset("W") if args.flags & ({"-u", "--update"} | PATCH_OPTIONS) else frozenset("WND")
    if args.flags & {"--ignore-removal", "--no-all"} and not everything:
        touches = frozenset("MND")  # git 1.x's add: new and modified files, not what was deleted
    if args.flags & {"-f", "--force"}:
        touches |= {IGNORED_WORK}
    op = by_paths(STAGE_PATHS, args.path_words, run, args, empty_whole=bool(everything), touches=touches,
                  precheck=Precheck(MATCH_TREE_OR_INDEX))
    if args.flags & {"-p", "--patch"} and not args.flags & {"-i", "--interactive", "-e", "--edit"}:
        op = op._replace(answers=run.answers)  # which hunks it stages: the verdict counts them
    return op


@classifies("commit")
def _classify_commit(rest, run):
    args = split_arguments(rest, COMMIT_LONG, COMMIT_VALUES, attached_values=frozenset(["-u", "-S"]))
    if "--dry-run" in args.flags:
        return run.op(SAFE)
    if run.private_index and (MESSAGE_OPTIONS & set(args.values) or args.flags & MESSAGE_FLAGS):
        # the commit's tree is the private index, whatever the shared one holds: files committed
        # since that index was made are deleted or reverted (anthropics/claude-code #90943)
        return run.op(COMMIT_PRIVATE, target=run.private_index if isinstance(run.private_index, str) else None,
                      message=args.values.get("-m") or args.values.get("--message"))
    message = args.values.get("-m") or args.values.get("--message")
    everything = args.flags & {"-a", "--all"}
    if everything and (args.flags & ALL_CONFLICTS or any(not w.expanded for w in args.path_words)):
        return run.op(SAFE)  # git refuses -a with paths, -i, -o or a pathspec file: nothing happens
    if not MESSAGE_OPTIONS & set(args.values) and not args.flags & MESSAGE_FLAGS and \
            not run.lookup.message_waiting(run.cwd):
        return run.op(SAFE)  # no message: git opens an editor, and with none to answer it aborts
    if "--amend" in args.flags:  # with -a it also commits every tracked change: still the rewritten HEAD
        return run.op(AMEND, message=message, touches=frozenset("SW") if everything else None)
    if everything:
        return run.op(COMMIT_ALL, message=message)
    return _commit_of_the_index(args, message, run)


def _commit_of_the_index(args, message, run):
    """A commit with a message, without -a or --amend: of the index, or of the paths it names."""
    include = args.flags & {"-i", "--include"}
    only = args.flags & {"-o", "--only"}
    if args.path_words and not include or only or args.from_file or run.adds_words:
        return by_paths(COMMIT_PATHS, args.path_words, run, args, empty_kind=COMMIT_INDEX,
                        precheck=Precheck(MATCH_INDEX_OR_HEAD))._replace(message=message)
    if include and args.path_words:
        # `git commit -i -m x <paths>` stages those paths' tracked changes, then commits the whole
        # index: judged as both, a commit of the paths and of what is staged elsewhere
        paths = by_paths(COMMIT_PATHS, args.path_words, run, args, empty_kind=COMMIT_INDEX,
                         precheck=Precheck(MATCH_INDEX_OR_HEAD))._replace(message=message)
        return run.op(COMMIT_INDEX, message=message, included=paths)
    return run.op(COMMIT_INDEX, message=message)


@classifies("rm")
def _classify_rm(rest, run):
    args = split_arguments(rest, RM_LONG, RM_VALUES)
    if args.flags & {"-n", "--dry-run"} or run.private_index and "--cached" in args.flags:
        return run.op(SAFE)
    # without -f or --cached git refuses a file that differs from HEAD or the index, but stages the
    # deletion of one already deleted from the tree (`git ls-files --deleted | xargs git rm`)
    touches = None if args.flags & {"-f", "--force", "--cached"} else frozenset([DELETION_WORK])
    changed = None if args.flags & {"-f", "--force"} else \
        REFUSE_DIFFERING_FROM_BOTH if "--cached" in args.flags else REFUSE_CHANGED
    precheck = Precheck(None if "--ignore-unmatch" in args.flags else MATCH_INDEX, changed, "-r" in args.flags)
    op = by_paths(REMOVE_PATHS, args.path_words, run, args, touches=touches, precheck=precheck)
    if op.kind == DISCARD_ALL:  # `git rm -r --cached .` takes every entry out of the index; it discards nothing
        op = op._replace(kind=REMOVE_PATHS, relative=False)
    if op.kind != REMOVE_PATHS or op.runtime or run.private_index or not all(p.known for p in op.paths):
        return op
    # git rm matches its pathspecs against the index and removes only those entries (with -f, their
    # files too): an untracked file under `git rm -r --cached config` stays as it is (git 2.39).
    entries = run.lookup.index_entries([p.text for p in op.paths], run.cwd)
    if entries is None:
        return op
    if not entries:
        return run.op(SAFE)  # "pathspec did not match any files": git removes nothing
    return op._replace(entries=frozenset(entries))


@classifies("mv")
def _classify_mv(rest, run):
    """`git mv` renames on disk: a folder goes with everything in it, untracked and ignored files
    too. Without -f git refuses an existing destination, a source the index does not hold, and a
    folder with a tracked file deleted from the tree ("bad source"), and then moves nothing."""
    args = split_arguments(rest, MV_LONG, frozenset())
    if args.flags & {"-n", "--dry-run"}:
        return run.op(SAFE)
    words = args.path_words
    force = bool(args.flags & {"-f", "--force"})
    moved = words if force or len(words) < 2 else words[:-1]
    op = by_paths(REMOVE_PATHS, moved, run, args, touches=frozenset("SWNDI"),
                  precheck=None if force else Precheck(MATCH_INDEX, REFUSE_DELETED))
    if op.kind == REMOVE_PATHS and len(words) >= 2 and not words[-1].expanded:
        # the destination gets an index entry again: a peer's staged deletion there is undone
        op = op._replace(target=pathspec(words[-1], run.cwd, run.context.paths))
    return op
