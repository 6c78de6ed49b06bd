"""What `git stash` and `git reflog` forms do to the stash stack and the work it takes (peerhooks.git.gitops
classifies the line; these forms load only for a line that has one).
"""
from ..shell import cmdline
from .gitops import ALL_ENTRIES, GIT_VALUE_OPTIONS, IGNORED_WORK, MATCH_INDEX, MATCH_TREE_OR_INDEX, OLDER_ENTRIES, Precheck, SAFE, STASH_ALL, STASH_APPLY, STASH_LONG, STASH_PATHS, STASH_STACK, STASH_VALUES, UNTRACKED_ANYWHERE, _by_paths, _patch_mode, _stash_ref, split_arguments
from ..shell.lexer import Word


STASH_READS = frozenset(["list", "show", "create", "store"])


def _classify_stash(rest, run):
    verb = rest[0].value if rest and not rest[0].value.startswith("-") else "push"
    if rest and verb == rest[0].value:
        rest = rest[1:]
    if verb in STASH_READS:
        return run.op(SAFE)
    if verb in ("drop", "clear", "pop"):
        return run.op(STASH_STACK, target=ALL_ENTRIES if verb == "clear" else _stash_ref(rest))
    if verb == "apply":
        return _stash_apply(rest, run)._replace(target=_stash_ref(rest))
    if verb == "branch":  # checks out a new branch at the entry's base, applies it, and drops it
        return run.op(STASH_STACK, target=_stash_ref(rest[1:]), moves_branch=True)
    if verb not in ("push", "save"):
        return run.op(SAFE)  # an unknown verb: git refuses it
    args = split_arguments(rest, STASH_LONG, STASH_VALUES)
    if _patch_mode(args, run):
        return run.op(SAFE)
    touches = _stash_touches(args.flags)
    if verb == "save":
        return run.op(STASH_ALL, touches=touches)  # save's words are a message, never paths
    if args.flags & {"-S", "--staged"} and args.path_words:
        # git 2.39 (and later ones, sourcegit-scm/sourcegit #550) stashes every staged change,
        # whatever the paths (peerhooks.guard.narrow has no narrow form for it)
        return run.op(STASH_ALL, touches=touches)
    match = MATCH_TREE_OR_INDEX if touches & UNTRACKED_ANYWHERE else MATCH_INDEX
    return _by_paths(STASH_PATHS, args.path_words, run, args, empty_whole=True, touches=touches,
                     precheck=Precheck(match))


def stash_pushes(command, cwd):
    """[message or None] of each `git stash` push in a Bash command line (a transcript's), in order:
    the line's -m/--message, or save's words. Pure but for nothing: the line is only read."""
    found = []
    try:
        runs = cmdline.commands(command, cwd)
    except cmdline.TooLarge:
        return found
    for run in runs:
        words = [w.value for w in run.args]
        while words and words[0].startswith("-"):
            words = words[2:] if words[0] in GIT_VALUE_OPTIONS else words[1:]
        if run.name != "git" or not words or words[0] != "stash":
            continue
        verb = words[1] if len(words) > 1 and not words[1].startswith("-") else "push"
        if verb not in ("push", "save"):
            continue
        rest = words[2:] if len(words) > 1 and words[1] == verb else words[1:]
        message = None
        for index, word in enumerate(rest):
            if word in ("-m", "--message") and index + 1 < len(rest):
                message = rest[index + 1]
            elif word.startswith("--message="):
                message = word.partition("=")[2]
        if verb == "save" and message is None:
            message = " ".join(w for w in rest if not w.startswith("-")) or None
        found.append(message)
    return found


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
        return run.op(STASH_STACK, target=_stash_ref([Word(named[0])]) if len(named) == 1 else None)
    if any(v.startswith("--expire=") or v == "--expire" for v in values):
        return run.op(STASH_STACK, target=ALL_ENTRIES)
    if any(v.startswith("--expire-unreachable") for v in values):
        return run.op(STASH_STACK, target=OLDER_ENTRIES)
    return run.op(SAFE)


CLASSIFIERS = {"stash": _classify_stash, "reflog": _classify_reflog}
