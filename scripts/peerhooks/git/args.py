"""git's words as git reads them: each subcommand's options (the tables), a subcommand's arguments
split into flags, values and operands (split_arguments), config booleans, whether a word looks
like a revision, and pathspecs (magic, exclusions, absolute paths, `clean -e` patterns, what a
`find` lists). Pure.
"""
from ..shell import cmdline
from ..shell.lexer import Word
from ..shell.words import resolve
from ..startup.records import record
from .kinds import EVERYTHING, Pathspec

# Options after which an operand is a new branch's name, not a revision that must exist.
CREATING_OPTIONS = frozenset(["-c", "-C", "--create", "--force-create", "--orphan", "-b", "-B"])
HELP_OPTIONS = frozenset(["-h", "--help"])

# git's global options that take a value as the next word.
GIT_VALUE_OPTIONS = frozenset(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix",
                               "--config-env", "--list-cmds", "--attr-source"])

# Per git subcommand: its long options (git accepts any unambiguous prefix: `--al` is `--all`), and
# those whose value is the next word, so the value is never taken for a path (`git commit -m "fix ."`).
ADD_LONG = ("--all --update --no-ignore-removal --ignore-removal --dry-run --verbose --force --interactive "
            "--patch --edit --intent-to-add --refresh --ignore-errors --ignore-missing --renormalize "
            "--chmod --pathspec-from-file --pathspec-file-nul --no-all --sparse --no-warn-embedded-repo")
ADD_VALUES = frozenset(["--chmod", "--pathspec-from-file"])
COMMIT_LONG = ("--all --include --only --message --file --reuse-message --reedit-message --fixup --squash "
               "--author --date --template --cleanup --pathspec-from-file --pathspec-file-nul --trailer "
               "--amend --no-edit --edit --dry-run --verbose --quiet --signoff --no-verify --verify "
               "--allow-empty --allow-empty-message --patch --interactive --untracked-files --reset-author "
               "--short --branch --porcelain --long --null --status --no-status --gpg-sign --no-gpg-sign "
               "--no-post-rewrite")
COMMIT_VALUES = frozenset("-m --message -F --file -C --reuse-message -c --reedit-message --fixup "
                          "--squash --author --date -t --template --cleanup --pathspec-from-file "
                          "--trailer".split())
STASH_LONG = ("--message --pathspec-from-file --pathspec-file-nul --keep-index --no-keep-index "
              "--include-untracked --no-include-untracked --all --patch --staged --quiet --index")
STASH_VALUES = frozenset(["-m", "--message", "--pathspec-from-file"])
RESET_LONG = ("--hard --soft --mixed --merge --keep --pathspec-from-file --pathspec-file-nul --patch "
              "--quiet --no-refresh --refresh --intent-to-add --recurse-submodules --no-recurse-submodules")
RESET_VALUES = frozenset(["--pathspec-from-file"])
CHECKOUT_LONG = ("--orphan --detach --force --conflict --pathspec-from-file --pathspec-file-nul --patch "
                 "--quiet --merge --ours --theirs --track --no-track --guess --no-guess --overlay "
                 "--no-overlay --ignore-skip-worktree-bits --progress --recurse-submodules "
                 "--ignore-other-worktrees --overwrite-ignore")
CHECKOUT_VALUES = frozenset(["-b", "-B", "--orphan", "--conflict", "--pathspec-from-file"])
SWITCH_LONG = ("--create --force-create --detach --guess --no-guess --force --discard-changes --merge "
               "--conflict --quiet --progress --no-progress --track --no-track --orphan "
               "--ignore-other-worktrees --recurse-submodules --no-recurse-submodules")
SWITCH_VALUES = frozenset(["-c", "-C", "--create", "--force-create", "--orphan", "--conflict"])
RESTORE_LONG = ("--source --staged --worktree --conflict --pathspec-from-file --pathspec-file-nul "
                "--patch --quiet --progress --ours --theirs --merge --overlay --no-overlay "
                "--ignore-unmerged --ignore-skip-worktree-bits --recurse-submodules")
RESTORE_VALUES = frozenset(["-s", "--source", "--conflict", "--pathspec-from-file"])
CLEAN_LONG = "--force --dry-run --quiet --exclude --interactive"
CLEAN_VALUES = frozenset(["-e", "--exclude"])
RM_LONG = ("--cached --force --dry-run --quiet --ignore-unmatch --sparse --pathspec-from-file "
           "--pathspec-file-nul")
RM_VALUES = frozenset(["--pathspec-from-file"])
MV_LONG = "--force --dry-run --verbose --sparse"
APPLY_LONG = ("--stat --numstat --summary --check --index --cached --intent-to-add --3way --reverse "
              "--reject --apply --exclude --include --directory --verbose --quiet --unidiff-zero "
              "--allow-empty --whitespace --recount --build-fake-ancestor --no-add --allow-overlap "
              "--ignore-space-change --ignore-whitespace --inaccurate-eof --unsafe-paths")
APPLY_VALUES = frozenset(["-p", "-C", "--exclude", "--include", "--directory", "--whitespace",
                          "--build-fake-ancestor"])
PATCH_OPTIONS = frozenset(["-p", "--patch", "-i", "--interactive"])


class Arguments(record("Arguments", "flags operands after_dashes from_file values all_values")):
    """A git subcommand's words as git reads them: flags (every option seen, long ones whole, short
    clusters split), operands (non-option words before `--`), after_dashes (words after `--`, None
    without `--`), from_file (--pathspec-from-file), values (option -> its last value), all_values
    (option -> every value it was given, in order: `clean -e a -e b`)."""
    __slots__ = ()

    @property
    def path_words(self):
        return self.operands + (self.after_dashes or ())


def split_arguments(words, long_options, value_options, attached_values=frozenset()):
    """Options and operands as git reads them: `-am msg` is -a plus -m's value, `--message=x`
    carries its value, `--al` is `--all` (git takes unambiguous prefixes), everything after `--`
    is an operand. attached_values: short options whose optional value can only be attached (`-uno`)."""
    longs = long_options.split()
    flags, operands, values = set(), [], {}
    every = {}

    def given(option, value):
        values[option] = value
        every.setdefault(option, []).append(value)

    index = 0
    while index < len(words):
        value = words[index].value
        index += 1
        if value == "--":
            return Arguments(frozenset(flags), tuple(operands), tuple(words[index:]),
                             "--pathspec-from-file" in flags, values, every)
        if value.startswith("--"):
            flag, has_value, attached = value.partition("=")
            flag = unabbreviated(flag, longs)
            flags.add(flag)
            if flag in value_options:
                if has_value:
                    given(flag, attached)
                elif index < len(words):
                    given(flag, words[index].value)
                    index += 1
        elif value.startswith("-") and len(value) > 1:
            for position, letter in enumerate(value[1:], start=1):
                flags.add("-" + letter)
                if "-" + letter in attached_values:
                    break
                if "-" + letter in value_options:
                    if position == len(value) - 1:
                        if index < len(words):
                            given("-" + letter, words[index].value)
                        index += 1  # the value is the next word
                    else:
                        given("-" + letter, value[position + 1:])
                    break  # the rest of the cluster is the value
        else:
            operands.append(words[index - 1])
    return Arguments(frozenset(flags), tuple(operands), None, "--pathspec-from-file" in flags, values, every)


def unabbreviated(flag, longs):
    """git's long option for an unambiguous prefix (`--al` -> `--all`); the flag itself otherwise."""
    if flag in longs or len(flag) < 3:
        return flag
    matches = [o for o in longs if o.startswith(flag)]
    return matches[0] if len(matches) == 1 else flag


def config_true(value):
    """Whether a config value given on the line (`-c key=value`) is true as git reads it; None is not."""
    return value is not None and value.strip().lower() not in ("false", "no", "off", "0", "")


def config_bool(value):
    """A git boolean config value as git reads it (True, False), or None for anything else
    (`diff.renames=copies`, which also finds copies)."""
    word = value.strip().lower()
    if word in ("true", "yes", "on", "1"):
        return True
    if word in ("false", "no", "off", "0", ""):
        return False
    return None


# A single operand that looks like a revision rather than a path (`git reset main`, `git checkout
# v1.2`) when the checkout cannot be asked: HEAD and friends, `~ ^ @{` suffixes, hashes, versions,
# remote branches, or a bare name with no dot and no trailing slash.
SPECIAL_HEADS = ("HEAD", "ORIG_HEAD", "FETCH_HEAD", "MERGE_HEAD")
HEX_DIGITS = frozenset("0123456789abcdef")
REMOTE_PREFIXES = ("origin/", "upstream/", "refs/")


def obviously_revision(word):
    """`-`, `@`, HEAD and friends, `~ ^ @{` suffixes, a 7-40 digit hash: never a path in practice."""
    if word in ("-", "@") or "~" in word or "^" in word or "@{" in word:
        return True
    for head in SPECIAL_HEADS:
        if word == head or word.startswith(head) and word[len(head)] in "~^@":
            return True
    return 7 <= len(word) <= 40 and all(c in HEX_DIGITS for c in word)


def looks_like_revision(word):
    """The guess without the checkout: obvious revisions, versions (`v1.2`), remote branches, and a
    bare name with no dot and no trailing slash (`main`, not `setup.py` or `src/`)."""
    if not word or obviously_revision(word):
        return bool(word)
    version = word[1:] if word.startswith("v") else word
    digits = len(version) - len(version.lstrip("0123456789"))
    if digits and version[digits:digits + 1] == "." and version[digits + 1:digits + 2].isdigit():
        return True
    return word.startswith(REMOTE_PREFIXES) or "." not in word and not word.endswith("/")


# Long pathspec magic the guard matches as git does; with any other (`attr:`) a pathspec is unknown.
READ_MAGIC = frozenset(["top", "glob", "icase", "literal", "exclude"])


def pathspec(word, cwd, paths=cmdline.POSIX):
    """A Pathspec from one word: `:/x` and `:(top)x` are relative to the toplevel; an absolute
    path (as the platform spells it: `C:\\repo\\src` on Windows) is the folder or file it names."""
    value = word.value
    top, magic = False, frozenset()
    if value.startswith(":/"):
        top, value = True, value[2:]
    elif value.startswith(":(") and ")" in value:
        words, _close, value = value[2:].partition(")")
        magic = frozenset(m.strip() for m in words.split(",") if m.strip())
        top = "top" in magic
        if magic - READ_MAGIC:
            return Pathspec(word.value, cwd, value, False, False, False)
    pattern = not word.glob and "literal" not in magic and any(c in value for c in "*?[")
    if not top and not pattern and not word.glob and paths.names_absolute(value):
        named = paths.resolve(value, None)
        return Pathspec(word.value, named, "", False, False, named is not None)
    value = paths.relative_spelling(value)
    relative = value[:-1] if value.endswith("/") and len(value) > 1 else value
    if relative in (".", "./*", "*") and not top:
        relative = "" if relative == "." else relative
    root = None if top else cwd
    known = top or cwd is not None or paths.names_absolute(value)
    return Pathspec(word.value, root, relative, pattern, word.glob, known, magic & {"glob", "icase"})


def exclusion_spec(word, cwd):
    """The pathspec an exclusion leaves out: `:!src/x` and `:(exclude)src/x` as `src/x`, with its
    other magic (`top`) kept."""
    value = word.value
    if value.startswith((":!", ":^")):
        rest = value[2:]
        if rest.startswith(":"):  # `:!:x`: the magic ends at the second colon, the rest is the path as written
            return pathspec(word._replace(value=rest[1:]), cwd)
        if rest.startswith("/"):  # `:!/x` is `:(exclude,top)x`
            return pathspec(word._replace(value=":/" + rest[1:]), cwd)
        return pathspec(word._replace(value=rest), cwd)
    magic, _close, rest = value[2:].partition(")")
    kept = [m for m in magic.split(",") if m not in ("exclude", "")]
    return pathspec(word._replace(value=(":(%s)" % ",".join(kept) if kept else "") + rest), cwd)


def clean_exclude_specs(patterns):
    """Pathspecs for `git clean -e <pattern>`: .gitignore patterns, matched from the toplevel; one
    without a `/` matches a name at any depth."""
    specs = []
    for pattern in patterns:
        stripped = pattern.lstrip("/")
        if "/" in pattern.rstrip("/"):
            specs.append(Pathspec(pattern, None, stripped.rstrip("/"), True))
        else:
            specs.extend(Pathspec(pattern, None, p, True) for p in (stripped.rstrip("/"), "*/" + stripped.rstrip("/")))
    return specs


def is_exclusion(value):
    """Whether a pathspec word leaves its path out (`:!x`, `:^x`, `:(exclude)x`)."""
    return value.startswith((":!", ":^", ":(exclude)")) or value.startswith(":(") and \
        "exclude" in value[2:].partition(")")[0].split(",")


def find_bound(find, context=cmdline.Context()):
    """(pathspecs, work) of what `find <folders> [-name P] …` lists: files under its start folders
    whose names match its -name patterns, in any state. None when a folder is known only at run time."""
    args = find.args
    starts, names, position = [], [], 0
    while position < len(args) and not args[position].value.startswith(("-", "(", "!")):
        starts.append(args[position])
        position += 1
    for index in range(position, len(args) - 1):
        if args[index].value in ("-name", "-iname"):
            names.append(args[index + 1])
    if any(w.expanded for w in starts + names) or find.cwd is None:
        return None
    specs = []
    for start in starts or [Word(".")]:
        folder = resolve(start, find.cwd, context)
        if folder is None:
            return None
        if not names:
            specs.append(Pathspec(start.value, folder, ""))
            continue
        for name in names:  # git's `*` crosses `/`: P at the top of the folder or any level below
            for pattern in (name.value, "*/" + name.value):
                specs.append(Pathspec(pattern, folder, pattern, True))
    return specs, EVERYTHING
