"""What produces a feed (peerhooks.shell.feeds), read from the commands of a line: the pipe stages before
`xargs git …`, or the command in `$(…)`. Pure but for the Lookup the classifier passes (is a
name `ls` is given a folder).

  feed_of(stage, split, context, lookup) -> feeds.Feed or None

A producer is read when the line says what it prints: `echo`/`printf` of words the line holds,
`ls` of files (globs expanded as Bash expands them), `find <folders> -name P`, and the git listers
whose output is git's state: `git diff --name-only` (unstaged, `--cached`, `HEAD`, `--diff-filter`,
`--relative`, `-- <paths>`), `git ls-files -m/-d/-o` (`--exclude-standard`, `--full-name`,
`<paths>`) and `git status --porcelain` / `--short` (`-uno`, `-- <paths>`). Anything else (a file's
contents, `git log`, a script) is not read: the consumer's paths stay known only at run time.
"""
from ..shell import cmdline, feeds
from ..shell.lexer import Word
from ..shell.words import resolve
from .args import config_bool, find_bound, pathspec, split_arguments

MAX_STAGES = 8  # a pipeline this long is not read stage by stage


def feed_of(stage, split, context, lookup, nul=False):
    """The Feed of what `stage` (and the pipe stages before it) prints, cut into words as `split`
    says (feeds.XARGS, LINES or FIELDS), or None when it cannot be read. nul: the consumer reads
    NUL-ended records (`xargs -0`), which a producer then ends its names with (`git … -z`, `find
    -print0`), one word each, with no filter between."""
    chain = []
    while stage is not None and len(chain) < MAX_STAGES:
        chain.append(stage)
        stage = stage.piped_from
    if stage is not None or not chain:
        return None
    chain.reverse()
    producer, filters = chain[0], chain[1:]
    if nul:
        ended = {"git": "-z", "find": "-print0"}.get(producer.name)
        if filters or ended is None or all(w.value != ended for w in producer.args):
            return None
        producer = producer._replace(args=tuple(w for w in producer.args if w.value != ended))
    stages = feeds.stages_of(filters)
    source = _source(producer, context, lookup) if stages is not None else None
    return None if source is None else feeds.Feed(source, stages, split)


def substitution_feed(word, cwd, context, lookup):
    """The Feed of the one `$(…)` (or backticks) a word is, unquoted (FIELDS), run from cwd; None
    for any other word."""
    if len(word.substitutions) != 1 or not word.value.startswith(("$(", "`")) or not word.unquoted:
        return None
    value = word.value
    if not (value.endswith(")") or value.endswith("`")):
        return None  # `$(…)x`: words glued to it
    runs = cmdline.commands_of_tokens(word.substitutions[0], cwd, context)
    last = [r for r in runs if r.depth == 0]
    if not last or any(r.gate is not None for r in last) or len(last) != len(_pipeline(last[-1])):
        return None  # more than one pipeline: their outputs follow each other
    return feed_of(last[-1], feeds.FIELDS, context, lookup)


def patch_feed(producer, context, lookup):
    """The Feed of the paths a patch changes when the command printing it is `git diff [--cached]
    [-- <paths>]` of the tree's own changes, or `git stash show -p [<entry>]` (its files); None for
    any other producer (a patch file, a pipeline)."""
    if producer.piped_from is not None or producer.name != "git" or not producer.args or producer.cwd is None:
        return None
    verb, rest = producer.args[0].value, producer.args[1:]
    if verb == "diff":
        return _diff_patch_feed(rest, producer, context, lookup)
    if verb == "stash" and rest and rest[0].value == "show":
        return _stash_patch_feed(rest[1:], producer, context, lookup)
    return None


def _diff_patch_feed(rest, producer, context, lookup):
    """The files `git diff [--cached] [-- <paths>]` prints a patch of, as its `--name-only` lists them."""
    kept = [w for w in rest if not w.value.startswith(("-U", "--unified", "--binary", "--no-color", "--full-index"))]
    if any(w.value in ("--name-only", "--name-status", "--stat", "--numstat", "-R") for w in kept):
        return None
    listing = _diff((Word("--name-only"),) + tuple(kept), producer, context, lookup)
    if listing is None:
        return None  # a patch changes both names of a rename: no line folds them
    return feeds.Feed(listing._replace(renames=False), (), feeds.LINES)


def _stash_patch_feed(rest, producer, context, lookup):
    """The files of the entry `git stash show -p [<entry>]` prints, as the checkout tells them."""
    options = [w.value for w in rest if w.value.startswith("-")]
    entries = [w for w in rest if not w.value.startswith("-")]
    if set(options) - {"-p", "--patch"} or "-p" not in options and "--patch" not in options or len(entries) > 1 \
            or any(w.expanded for w in entries):
        return None
    top = context.toplevel(producer.cwd) if context.toplevel is not None else None
    files = lookup.stash_files(entries[0].value if entries else None, producer.cwd)
    if top is None or files is None:
        return None
    return feeds.Feed(feeds.listed_names([top.rstrip("/") + "/" + f for f in files]), (), feeds.LINES)


def _pipeline(stage):
    chain = []
    while stage is not None:
        chain.append(stage)
        stage = stage.piped_from
    return chain


def _source(producer, context, lookup):
    if producer.name in ("echo", "printf"):
        return feeds.words_source(producer)
    if producer.name == "ls":
        return _ls(producer, context, lookup)
    if producer.name == "find":
        return _find(producer, context)
    if producer.name == "git":
        return _git_listing(producer, context, lookup)
    return None


def _ls(command, context, lookup):
    """`ls [-1] [-d] <files>`: each file as given; a folder (without -d) prints what it holds."""
    names, folders_as_names = [], False
    for word in command.args:
        if word.value in ("-1", "-d"):
            folders_as_names = folders_as_names or word.value == "-d"
            continue
        if word.value.startswith("-") or word.expanded:
            return None
        matches = context.glob(word.value, command.cwd) if word.glob and context.glob and command.cwd else None
        if word.glob and not matches:
            return None  # no match: ls says so; too many: not read
        names.extend(matches if word.glob else [word.value])
    if not names:
        return None
    for name in names:
        path = resolve(Word(name), command.cwd, context)
        is_folder = lookup.is_folder(path) if path else None
        if is_folder is None or is_folder and not folders_as_names:
            return None
    return feeds.listed_names(names)


def _find(command, context):
    bound = find_bound(command, context)
    if bound is None:
        return None
    tests = [w.value for w in command.args if w.value.startswith("-")]
    exact = all(t in ("-name", "-iname", "-type", "-print") for t in tests) and \
        all(command.args[i + 1].value == "f" for i, w in enumerate(command.args) if w.value == "-type")
    return feeds.Found(tuple(bound[0]), exact)


STATUS_FORMATS = ("--porcelain", "--porcelain=v1", "--porcelain=1", "-s", "--short")


def _git_listing(lister, context, lookup):
    """The feeds.Listing of a git lister as it runs in its folder, or None."""
    args = lister.args
    if not args or lister.cwd is None or any(w.expanded for w in args):
        return None
    config = {}
    while len(args) > 2 and args[0].value == "-c":  # `git -c diff.renames=false diff …`
        key, equals, value = args[1].value.partition("=")
        config[key.lower()] = value if equals else "true"
        args = args[2:]
    verb, rest = args[0].value, args[1:]
    if verb == "diff":
        listing = _diff(rest, lister, context, lookup)
        keys = ("diff.renames",)
    elif verb == "ls-files":
        return _ls_files(rest, lister, context) if not config else None
    elif verb == "status":
        listing = _status(rest, lister, context)
        keys = ("status.renames", "diff.renames")  # status.renames wins, diff.renames stands in
    else:
        return None
    if listing is None or listing.renames is not None:
        return listing  # an option on the line beats any config
    if set(config) - set(keys):
        return None  # other config: not read here
    value = next((config[k] for k in keys if k in config), None)
    renames = None if value is None else config_bool(value)
    return None if value is not None and renames is None else listing._replace(renames=renames)


RENAME_OPTIONS = {"--no-renames": False, "-M": True, "--find-renames": True}


def _renames_option(values):
    """True or False when the options say whether a staged rename is one line (the last one wins,
    as git reads them), None when they do not say."""
    said = [RENAME_OPTIONS[v] for v in values if v in RENAME_OPTIONS]
    return said[-1] if said else None


def _specs(words, lister, context):
    return tuple(pathspec(w, lister.cwd, context.paths) for w in words)


def _diff(rest, lister, context, lookup):
    parsed = split_arguments(rest, "--name-only --cached --staged --relative --diff-filter --no-renames "
                             "--find-renames", frozenset(["--diff-filter"]))
    if "--name-only" not in parsed.flags or parsed.flags - {"--name-only", "--cached", "--staged", "--relative",
                                                             "--no-renames", "--find-renames", "-M", "--diff-filter"}:
        return None  # a patch, --name-status, --stat, -M50% ...: not file names alone
    operands = [w.value for w in parsed.operands]
    shows = {"staged"} if parsed.flags & {"--cached", "--staged"} else {"unstaged"}
    paths = parsed.after_dashes or ()
    if operands == ["HEAD"]:
        shows = {"staged", "unstaged"}
    elif operands and parsed.after_dashes is None and not any(lookup.is_revision(v, lister.cwd) for v in operands):
        paths = parsed.operands  # `git diff --name-only src`: git takes words that name no revision as paths
    elif operands:
        return None  # between commits: not the state of the tree
    letters = _diff_filter(parsed.values.get("--diff-filter"))
    if letters is False:
        return None
    relative = "--relative" in parsed.flags
    options = [w.value for w in rest[:len(rest) - len(parsed.after_dashes or ())]]
    return feeds.Listing(frozenset(shows), _specs(paths, lister, context), letters,
                         False, lister.cwd if relative else None, lister.cwd if relative else None,
                         renames=_renames_option(options))


def _diff_filter(value):
    """(kept, dropped) letters of --diff-filter, None without it, False when it is not read."""
    if value is None:
        return None
    if not value.isalpha():
        return False
    return (frozenset(c for c in value if c.isupper()), frozenset(c.upper() for c in value if c.islower()))


def _ls_files(rest, lister, context):
    parsed = split_arguments(rest, "--modified --deleted --others --exclude-standard --full-name", frozenset())
    known = {"-m", "--modified", "-d", "--deleted", "-o", "--others", "--exclude-standard", "--full-name"}
    if parsed.flags - known or not parsed.flags & (known - {"--exclude-standard", "--full-name"}):
        return None  # -c (every index entry), -s, -z, --format ...: not the changed files alone
    shows = set()
    if parsed.flags & {"-m", "--modified"}:
        shows.add("unstaged")
    if parsed.flags & {"-d", "--deleted"}:
        shows.add("deleted")
    if parsed.flags & {"-o", "--others"}:
        shows.add("untracked")
    full = "--full-name" in parsed.flags
    return feeds.Listing(frozenset(shows), _specs(parsed.path_words, lister, context), None, False,
                         None if full else lister.cwd, lister.cwd,
                         bool(shows & {"untracked"}) and "--exclude-standard" not in parsed.flags)


def _status(rest, lister, context):
    values = [w.value for w in rest]
    formats = [v for v in values if v in STATUS_FORMATS]
    untracked = [v for v in values if v.startswith(("-u", "--untracked-files"))]
    others = [v for v in values if v.startswith("-") and v not in STATUS_FORMATS and v not in untracked
              and v != "--" and v not in RENAME_OPTIONS]
    if not formats or others or any(u not in ("-uno", "--untracked-files=no", "-unormal",
                                              "--untracked-files=normal") for u in untracked):
        return None  # the long format, -b, -z, --ignored, -uall ...: not read line by line here
    shows = {"staged", "unstaged"} | (set() if any("no" in u for u in untracked) else {"untracked"})
    paths = [w for w in rest if not w.value.startswith("-")]
    short = not any(v.startswith("--porcelain") for v in formats)  # --porcelain wins, toplevel-relative
    return feeds.Listing(frozenset(shows), _specs(paths, lister, context), None, True,
                         lister.cwd if short else None, None, renames=_renames_option(values))
