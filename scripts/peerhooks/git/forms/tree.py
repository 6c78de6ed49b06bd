"""What the forms that rewrite the index or the working tree from a commit, or clean it, reach: reset,
checkout, switch, restore, clean, apply, read-tree, checkout-index (a family loaded only for a line
that has one).
"""
from ...shell.lexer import Word
from ...shell.words import expand
from ...startup import oscalls
from ..args import (APPLY_LONG, APPLY_VALUES, CHECKOUT_LONG, CHECKOUT_VALUES, CLEAN_LONG, CLEAN_VALUES,
                    CREATING_OPTIONS, PATCH_OPTIONS, RESET_LONG, RESET_VALUES, RESTORE_LONG, RESTORE_VALUES,
                    SWITCH_LONG, SWITCH_VALUES, clean_exclude_specs, config_true, obviously_revision, split_arguments)
from ..kinds import (CLEAN_ALL, CLEAN_PATHS, DISCARD_ALL, DISCARD_PATHS, IGNORED_FOLDER_WORK, IGNORED_WORK,
                     MATCH_INDEX, MATCH_INDEX_OR_HEAD, MOVE_HEAD, NEW_FOLDER_WORK, Operation, Precheck, RESET_ALL,
                     SAFE, STAGE_PATHS, UNSTAGE_ALL, UNSTAGE_PATHS, UNTRACKED_WORK)
from . import classifies
from .run import by_paths

# `git switch -f` (alias of --discard-changes), like `git checkout -f <branch>`, throws away local
# changes to tracked files and the index, even when the branch is the one checked out (git 2.39).
DISCARDING_SWITCH = frozenset(["-f", "--force", "--discard-changes"])


@classifies("reset")
def _classify_reset(rest, run):
    args = split_arguments(rest, RESET_LONG, RESET_VALUES)
    if run.patch_unanswered(args):
        return run.op(SAFE)
    modes = args.flags & {"--hard", "--merge", "--keep", "--soft"}
    if modes:
        return _reset_with_mode(modes, args, run)
    if args.after_dashes is None and args.operands and args.operands[0].expanded and \
            expand(args.operands[0], run.cwd, run.context, run.variables) is None:
        # `git reset $(git rev-parse HEAD~1)`: a revision (the branch moves) or a path, known only at run time
        return run.op(RESET_ALL, touches=frozenset("S"), moves_branch=True)
    return _index_reset(args, run)


def _reset_with_mode(modes, args, run):
    """`git reset --hard/--merge/--keep/--soft [<commit>]`."""
    if run.moves_to_nothing([w.value for w in args.operands[:1]]):
        return run.op(SAFE)
    revision = args.operands[0] if args.operands else None
    moves = revision is not None and not _is_current(revision, run)
    # git 2.39: --hard resets the index and tracked files; --keep and --merge reset the index
    # (staged changes become unstaged, added files untracked); --soft only moves the branch
    touches = frozenset("SW") if "--hard" in modes else frozenset() if modes == {"--soft"} else frozenset("S")
    if not moves and not touches:
        return run.op(SAFE)  # `git reset --soft HEAD` changes nothing
    # "fatal: Cannot do hard reset with paths" (and soft, merge, keep): nothing changes, and what
    # follows `||` runs
    with_paths = bool(args.after_dashes) or len(args.operands) > 1
    return run.op(RESET_ALL, touches=touches, moves_branch=moves,
                  precheck=Precheck(always=True) if with_paths else None)


def _index_reset(args, run):
    """`git reset [<commit>] [--] [<paths>]` without a mode: the index from a commit (HEAD when
    none is named), or, with a commit and no paths, the branch moved there too."""
    moves_branch = False
    source = None  # the commit the index is reset from (None: HEAD)
    if args.after_dashes is not None:
        path_words = args.after_dashes
        source = args.operands[0] if args.operands else None
    elif args.operands and _is_revision(args.operands[0], run):
        path_words = args.operands[1:]
        source = args.operands[0]
        moves_branch = not path_words and args.operands[0].value not in ("HEAD", "@")
    else:
        path_words = args.operands
    if moves_branch and _is_current(args.operands[0], run):
        moves_branch = False
    if moves_branch and not run.moves_to_nothing([args.operands[0].value]):
        # `git reset HEAD~1` moves the branch under every session
        return run.op(RESET_ALL, touches=frozenset("S"), moves_branch=True)
    if run.private_index and "--soft" not in args.flags:
        return run.op(SAFE)
    return _from_source(by_paths(UNSTAGE_PATHS, path_words, run, args, empty_whole=True), source, run)


def _from_source(op, source, run):
    """An index reset (`reset <commit> -- <paths>`, `restore --staged --source=<commit>`) with the
    commit it copies from as its target, where that is not HEAD: its paths do not come back as HEAD
    holds them."""
    if source is None or op.kind not in (UNSTAGE_ALL, UNSTAGE_PATHS) or _is_current(source, run):
        return op
    return op._replace(target=source.value, alone=op.alone._replace(target=source.value) if op.alone else None)


def _is_current(word, run):
    """Whether a revision word names what is checked out already (`HEAD`, `@`, the current branch)."""
    return not word.expanded and run.lookup.is_current(word.value, run.cwd)


def _is_revision(word, run):
    if word.expanded or word.glob:
        return False
    if obviously_revision(word.value):
        return True
    return run.lookup.is_revision(word.value, run.cwd)


@classifies("checkout")
def _classify_checkout(rest, run):
    args = split_arguments(rest, CHECKOUT_LONG, CHECKOUT_VALUES)
    if run.patch_unanswered(args):
        return run.op(SAFE)
    merge = bool(args.flags & {"-m", "--merge"})
    if args.flags & {"-b", "-B"}:
        start = args.operands[0].value if len(args.operands) == 1 and not args.operands[0].expanded else None
        created = args.values.get("-b") or args.values.get("-B")
        return _switch(run, start, created, "-B" in args.flags, merge, bool(args.operands) and start is None)
    if args.flags & {"--orphan", "--detach"}:
        return run.op(MOVE_HEAD)
    if args.after_dashes is not None:
        return _checkout_paths(args.after_dashes, bool(args.operands), args, run)
    if not args.operands:
        return _checkout_nothing_named(args, run)
    if _is_revision(args.operands[0], run):
        if len(args.operands) == 1:
            return _checkout_revision(args, merge, run)
        return _checkout_paths(args.operands[1:], True, args, run)
    return _checkout_paths(args.operands, False, args, run)


def _checkout_nothing_named(args, run):
    """`git checkout` with no operand: `-p` (answered) or `-f` over the tree, else nothing."""
    if args.flags & PATCH_OPTIONS:
        return run.op(DISCARD_ALL, relative=True)  # `yes | git checkout -p` discards every hunk
    if args.flags & {"-f", "--force"}:
        return run.op(DISCARD_ALL, touches=frozenset("SW"))  # re-checks out HEAD over every uncommitted edit
    return run.op(SAFE, runtime=args.from_file)  # `git checkout` alone changes nothing


def _checkout_revision(args, merge, run):
    """`git checkout <revision>`: a switch, or with -f a reset of the index and tree to it."""
    revision = args.operands[0].value
    current = run.lookup.is_current(revision, run.cwd)
    if not current and run.moves_to_nothing([revision]):
        return run.op(SAFE)  # no such commit: git stops before touching anything
    if args.flags & {"-f", "--force"}:
        # -f throws away local changes and the index, even on the current branch
        return run.op(RESET_ALL, touches=frozenset("SW"), moves_branch=not current)
    if current:
        return run.op(SAFE)
    return _switch(run, revision, merge=merge, elsewhere_allowed="--ignore-other-worktrees" in args.flags)


def _checkout_paths(path_words, source, args, run):
    """`git checkout [<commit>] [--] <paths>`: the paths from the index, or from the commit (the
    first operand) when source, which rewrites the index too, not only the tree."""
    # from HEAD itself, in checkout's overlay mode, a file HEAD lacks is left as it is (`git restore`
    # removes it: no overlay by default)
    current = source and _is_current(args.operands[0], run)
    if source and not current and not args.operands[0].expanded and run.moves_to_nothing([args.operands[0].value]):
        return run.op(SAFE)  # `git checkout stash@{0} -- x` with no such entry: "invalid reference", nothing written
    touches = None if not source else frozenset("SWH") if current else frozenset("SW")
    return by_paths(DISCARD_PATHS, path_words, run, args, touches=touches,
                    precheck=None if source else Precheck(MATCH_INDEX))


@classifies("switch")
def _classify_switch(rest, run):
    args = split_arguments(rest, SWITCH_LONG, SWITCH_VALUES)
    merge = bool(args.flags & {"-m", "--merge"})
    if args.flags & CREATING_OPTIONS - {"--orphan"}:
        start = args.operands[0].value if len(args.operands) == 1 and not args.operands[0].expanded else None
        created = next((args.values[o] for o in ("-c", "-C", "--create", "--force-create") if o in args.values), None)
        return _switch(run, start, created, bool(args.flags & {"-C", "--force-create"}), merge,
                       bool(args.operands) and start is None)
    if args.flags & CREATING_OPTIONS:
        return run.op(MOVE_HEAD)
    operands = [w.value for w in args.operands]
    detach = "--detach" in args.flags
    if not operands and not detach:
        return run.op(SAFE)  # "fatal: missing branch or commit argument"
    discards = bool(args.flags & DISCARDING_SWITCH)
    current = len(operands) == 1 and not detach and run.lookup.is_current(operands[0], run.cwd)
    if current and not discards:
        return run.op(SAFE)
    if not current and run.moves_to_nothing(operands):
        return run.op(SAFE)
    if discards:
        return run.op(RESET_ALL, touches=frozenset("SW"), moves_branch=not current)
    if detach or len(operands) != 1 or args.operands[0].expanded:
        return run.op(MOVE_HEAD)
    return _switch(run, operands[0], merge=merge, elsewhere_allowed="--ignore-other-worktrees" in args.flags)


def _switch(run, to, created=None, force_create=False, merge=False, unknown_start=False, elsewhere_allowed=False):
    """A switch of this checkout to the revision `to` (None: staying at HEAD), creating the branch
    `created` (or resetting it, force_create). git refuses a branch another worktree has checked
    out; `-C <the current branch> <start>` only moves the branch forward when HEAD is an ancestor
    of start, carrying the local changes along (or refusing, when they are in the way). Otherwise
    the switch is judged at the verdict: git refuses it when local changes are in the way
    (Precheck.switch_to), unless -m merges them."""
    if unknown_start:
        return run.op(MOVE_HEAD)
    if created is None and not elsewhere_allowed and to not in (None, "-") and _checked_out_elsewhere(to, run):
        return run.op(SAFE)  # "'feature' is already checked out at …"
    if force_create and created and run.lookup.is_current(created, run.cwd) and \
            run.lookup.fast_forwards(to or "HEAD", run.cwd):
        return run.op(SAFE)
    check = Precheck(switch_to=to) if to is not None and not merge else None
    return run.op(MOVE_HEAD, target=to, precheck=check)


def _checked_out_elsewhere(branch, run):
    """Whether another worktree of the repository has the local branch checked out."""
    where = run.lookup.checked_out("refs/heads/" + branch, run.cwd) or ()
    top = run.context.toplevel(run.cwd) if run.context.toplevel is not None and run.cwd else None
    return any(t != top for t in where) if top is not None else False


@classifies("restore")
def _classify_restore(rest, run):
    args = split_arguments(rest, RESTORE_LONG, RESTORE_VALUES)
    if run.patch_unanswered(args):
        return run.op(SAFE)
    source = args.values.get("--source", args.values.get("-s"))
    if source is not None and not set("$`") & set(source) and not run.lookup.is_current(source, run.cwd) \
            and run.moves_to_nothing([source]):
        return run.op(SAFE)  # `git restore -s v9 -- x` with no such commit: git stops before writing
    only_index = args.flags & {"-S", "--staged"} and not args.flags & {"-W", "--worktree"}
    if only_index:
        if run.private_index:
            return run.op(SAFE)
        return _from_source(by_paths(UNSTAGE_PATHS, args.path_words, run, args, precheck=_restore_precheck(args)),
                            None if source is None else Word(source), run)
    # from a source (-s), or the index and the tree together (-SW), both are rewritten
    both = source is not None or args.flags & {"-S", "--staged"}
    touches = frozenset("SW") if both else frozenset("W")
    if args.flags & PATCH_OPTIONS and not args.path_words:
        return run.op(DISCARD_ALL, relative=True, touches=touches)
    return by_paths(DISCARD_PATHS, args.path_words, run, args, touches=touches, precheck=_restore_precheck(args))


def _restore_precheck(args):
    """From the index (the default for the tree) a path must be in the index; --staged restores
    from HEAD, where a staged deletion still is; from another --source, the guard cannot tell."""
    if "-s" in args.values or "--source" in args.values:
        return None
    return Precheck(MATCH_INDEX_OR_HEAD if args.flags & {"-S", "--staged"} else MATCH_INDEX)


def _classify_clean(rest, run):
    args = split_arguments(rest, CLEAN_LONG, CLEAN_VALUES)
    if args.flags & {"-n", "--dry-run"} or not args.flags & {"-f", "--force"}:
        return run.op(SAFE)  # git cleans nothing without --force (clean.requireForce)
    patterns = args.all_values.get("-e", []) + args.all_values.get("--exclude", [])
    excludes = tuple(clean_exclude_specs(patterns))
    # git 2.39: untracked (and ignored) folders only with -d or a pathspec; -x ignored files too;
    # -X only them
    folders = bool(args.flags & {"-d"} or args.path_words)
    if args.flags & {"-X"}:
        touches = frozenset([IGNORED_WORK] + ([IGNORED_FOLDER_WORK] if folders else []))
        ignores, excludes = excludes, ()  # with -X, an -e pattern is one more ignore rule: what it matches goes too
    else:
        ignores = ()
        touches = frozenset([UNTRACKED_WORK] + ([NEW_FOLDER_WORK] if folders else []))
        if args.flags & {"-x"}:
            touches |= {IGNORED_WORK}
    if not args.path_words and not run.adds_words:
        # a pathless clean cleans the working directory
        return run.op(CLEAN_ALL, relative=True, touches=touches, excludes=excludes, ignores=ignores)
    return by_paths(CLEAN_PATHS, args.path_words, run, args, touches=touches, excludes=excludes)._replace(
        ignores=ignores)


@classifies("apply")
def _classify_apply(rest, run):
    args = split_arguments(rest, APPLY_LONG, APPLY_VALUES)
    reports = args.flags & {"--stat", "--numstat", "--summary", "--check"}
    if reports and "--apply" not in args.flags:
        return run.op(SAFE)
    if "--cached" in args.flags and run.private_index:
        return run.op(SAFE)
    if args.path_words and not any(w.expanded for w in args.path_words):
        return run.op(SAFE)  # a patch file the session wrote names its own paths
    cached, reverse = "--cached" in args.flags, bool(args.flags & {"-R", "--reverse"})
    # what applying a diff of the tree's own changes does: --cached stages them (or, reversed,
    # unstages them), reversed in the tree it throws them away (with --index, the index's too)
    kind = (UNSTAGE_PATHS if reverse else STAGE_PATHS) if cached else DISCARD_PATHS
    touches = frozenset("S" if reverse else "W") if cached else frozenset("SW" if "--index" in args.flags else "W")
    feed = run.feed if run.feed is not None and not args.flags & {"-p", "--directory", "--include", "--exclude"} \
        else None
    if feed is None:
        return run.op(DISCARD_PATHS, (), True, touches=touches)  # a patch only the running line knows: any path
    bound = run.bound  # what the patch piped in changes (fed_paths.bound_of)
    return Operation(kind, run.cwd, run.command, tuple(bound[0]), False, touches=touches, words=run.words,
                     depth=run.depth, in_loop=run.in_loop, span=run.span, config=run.config,
                     private=run.private_index or None, via=run.via, bound=bound, feeds=((feed, tuple(bound[0])),),
                     alone=run.op(SAFE))  # an empty patch: "No valid patches in input"


@classifies("read-tree")
def _classify_read_tree(rest, run):
    values = {w.value for w in rest}
    if values & {"-n", "--dry-run"} or run.private_index and not values & {"-u"}:
        return run.op(SAFE)
    # it replaces the index with a tree (and with -u the tracked files): asked about like a reset to
    # another commit, whatever tree it reads
    return run.op(RESET_ALL, touches=frozenset("SW"), moves_branch=True)


@classifies("checkout-index")
def _classify_checkout_index(rest, run):
    args = split_arguments(rest, "--all --force --index --quiet --no-create --stdin --temp --prefix --stage",
                  frozenset(["--prefix", "--stage"]))
    if args.flags & {"--temp"} or "--prefix" in args.values and not _prefix_is_the_tree(args.values["--prefix"], run):
        return run.op(SAFE)
    if args.flags & {"-a", "--all"}:
        return run.op(DISCARD_ALL, relative=True)  # from a subfolder, -a checks out the entries under it
    if "--stdin" in args.flags:
        return run.op(DISCARD_PATHS, (), True)
    return by_paths(DISCARD_PATHS, args.path_words, run, args)


def _prefix_is_the_tree(prefix, run):
    """True when `checkout-index --prefix=<prefix>` writes over the working tree itself. git 2.39
    writes each entry at <prefix><its path>, read from the toplevel: an empty prefix (`--prefix=`,
    `--prefix ''`) writes where no prefix does, and so does one that names the toplevel with a
    trailing `/` (`./`, `../app/`, its absolute path); `export/` writes under export/, `foo` makes
    `fooREADME.md`. A prefix only the running shell knows is taken as somewhere else, as before."""
    if "$" in prefix or "`" in prefix or prefix.startswith("~"):
        prefix = expand(Word(prefix, expanded=True), run.cwd, run.context, run.variables)
        if prefix is None:
            return False
    if not prefix:
        return True
    if not prefix.endswith("/"):
        return False
    paths = run.context.paths
    if not paths.names_absolute(prefix) and ".." not in prefix.split("/"):
        return oscalls.posixpath.normpath(prefix) == "."
    top = run.context.toplevel(run.cwd) if run.context.toplevel is not None and run.cwd else None
    return top is not None and paths.resolve(prefix, top) == top


@classifies("clean")
def _classify_clean_configured(rest, run):
    """clean, where `-c clean.requireForce=false` on the line lets it run without -f."""
    if config_true(run.configured("clean.requireforce") or "true") or any(
            w.value in ("-f", "--force") or w.value.startswith("-") and not w.value.startswith("--") and "f" in w.value
            for w in rest):
        return _classify_clean(rest, run)
    return _classify_clean([Word("-f")] + list(rest), run)

