"""What `git stash` and `git reflog` forms do to the stash stack and the work it takes (a family loaded
only for a line that has one).
"""
from ...shell.lexer import Word
from ..args import STASH_LONG, STASH_VALUES, split_arguments
from ..kinds import (ALL_ENTRIES, IGNORED_WORK, MATCH_INDEX, MATCH_TREE_OR_INDEX, OLDER_ENTRIES, Precheck, SAFE,
                     STASH_ALL, STASH_APPLY, STASH_PATHS, STASH_STACK, UNTRACKED_ANYWHERE)
from . import classifies
from .run import by_paths


STASH_READS = frozenset(["list", "show", "create", "store"])


@classifies("stash")
def _classify_stash(rest, run):
    verb = rest[0].value if rest and not rest[0].value.startswith("-") else "push"
    if rest and verb == rest[0].value:
        rest = rest[1:]
    if verb in STASH_READS:
        return run.op(SAFE)
    if verb in ("drop", "clear", "pop"):
        return run.op(STASH_STACK, target=ALL_ENTRIES if verb == "clear" else stash_ref(rest))
    if verb == "apply":
        return _stash_apply(rest, run)._replace(target=stash_ref(rest))
    if verb == "branch":  # checks out a new branch at the entry's base, applies it, and drops it
        return run.op(STASH_STACK, target=stash_ref(rest[1:]), moves_branch=True)
    if verb not in ("push", "save"):
        return run.op(SAFE)  # an unknown verb: git refuses it
    args = split_arguments(rest, STASH_LONG, STASH_VALUES)
    if run.patch_unanswered(args):
        return run.op(SAFE)
    touches = _stash_touches(args.flags)
    if verb == "save":
        return run.op(STASH_ALL, touches=touches)  # save's words are a message, never paths
    if args.flags & {"-S", "--staged"} and args.path_words:
        # git 2.39 (and later ones, sourcegit-scm/sourcegit #550) stashes every staged change,
        # whatever the paths (peerhooks.guard.narrow has no narrow form for it)
        return run.op(STASH_ALL, touches=touches)
    match = MATCH_TREE_OR_INDEX if touches & UNTRACKED_ANYWHERE else MATCH_INDEX
    return by_paths(STASH_PATHS, args.path_words, run, args, empty_whole=True, touches=touches,
                    precheck=Precheck(match))


def _stash_touches(flags):
    """What a stash push takes (git 2.39): staged and unstaged changes of tracked files; --staged
    only what is staged; --keep-index leaves staged changes in place; -u adds untracked files, -a
    ignored ones too."""
    if flags & {"-S", "--staged"}:
        return frozenset("S")
    touches = frozenset("W") if flags & {"-k", "--keep-index"} else frozenset("SW")
    if flags & {"-u", "--include-untracked"}:
        touches |= UNTRACKED_ANYWHERE
    if flags & {"-a", "--all"}:
        touches |= UNTRACKED_ANYWHERE | {IGNORED_WORK}
    return touches


def _stash_apply(rest, run):
    """`git stash apply` merges the entry into the files it holds and keeps the entry. git 2.39 stops
    before writing when one of them has unstaged changes or is an untracked file in the way, so the
    only uncommitted work it can reach is work staged in a file the entry holds: it merges into it,
    conflicts in it, or (with --index) unstages it. The entry's files come from the checkout; with
    --index (which also replays the entry's index) they are not asked and it is judged as before:
    git 2.39 then unstages a staged file the entry does not hold when it stops ("Index was not
    unstashed"), so every staged file is at stake."""
    args = split_arguments(rest, STASH_LONG, STASH_VALUES)
    operands = args.path_words
    if "--index" in args.flags or len(operands) > 1 or any(w.expanded for w in operands):
        return run.op(STASH_APPLY)
    files = run.lookup.stash_files(operands[0].value if operands else None, run.cwd)
    return run.op(STASH_APPLY, entries=None if files is None else frozenset(files))


@classifies("reflog")
def _classify_reflog(rest, run):
    """`git reflog expire --expire=now --all` (or of refs/stash) drops every stash entry, which
    lives in the stash's reflog; `reflog delete stash@{n}` drops one."""
    verb = rest[0].value if rest else ""
    if verb not in ("expire", "delete"):
        return run.op(SAFE)
    values = [w.value for w in rest[1:]]
    stash = "--all" in values or any(v.startswith(("stash", "refs/stash")) for v in values)
    # expire: entries older than --expire (90 days by default: a live peer's stash is younger);
    # --expire-unreachable: entries no ref reaches, which is every entry but the newest (refs/stash
    # points at stash@{0} alone: the older ones live only in its reflog)
    if not stash:
        return run.op(SAFE)
    if verb == "delete":
        named = [v for v in values if v.startswith(("stash@{", "refs/stash@{"))]
        return run.op(STASH_STACK, target=stash_ref([Word(named[0])]) if len(named) == 1 else None)
    if any(v.startswith("--expire=") or v == "--expire" for v in values):
        return run.op(STASH_STACK, target=ALL_ENTRIES)
    if any(v.startswith("--expire-unreachable") for v in values):
        return run.op(STASH_STACK, target=OLDER_ENTRIES)
    return run.op(SAFE)



def stash_ref(rest):
    """The entry a pop, drop or apply names: `stash@{n}`, or n alone, as `stash@{n}` (the newest,
    stash@{0}, when none is named); None when only the running shell knows it."""
    operands = [w for w in rest if not w.value.startswith("-")]
    if not operands:
        return "stash@{0}"
    word = operands[0]
    if word.expanded:
        return None
    value = word.value[len("refs/"):] if word.value.startswith("refs/stash") else word.value
    if value.isdigit():
        return "stash@{%s}" % value
    return value if value.startswith("stash@{") else None
