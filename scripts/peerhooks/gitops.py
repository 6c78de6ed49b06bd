"""Git invocations in a Bash command line, what each does to the shared index and tree, and whether
to refuse it while other live sessions share the checkout.

Why: sessions in one checkout share one index, one working tree, one HEAD and one stash stack. A
`git add -A` stages a peer's half-written files; a plain `git commit` commits what a peer staged
(the incident this guard exists for); `reset --hard`, `checkout .`, `clean -f`, a branch switch or a
stash pop rewrites files under every session. The narrow forms (`git add <paths>`,
`git commit -- <paths>`) touch only one's own work.

Three pure steps, no files, no clock, no environment:
  parse(command, cwd)        -> [Operation]   (shell structure from peerhooks.shell; cd, -C, prefixes)
  expand_alias(op, aliases)  -> [Operation]   (the caller reads `git config` once, only when needed)
  verdict(ops, peers, toplevel, staged, own_edits) -> Refusal | None
When the command line does not say enough (a directory in a variable, paths from xargs), the
operation is judged as the narrow one: a guard that breaks git for everyone costs more than a
collision.
"""
import fnmatch
import posixpath
import re
from typing import FrozenSet, NamedTuple, Optional, Tuple

from peerhooks.shell import PIPES, REDIRECTIONS, SEPARATORS, Word, tokenize

# What an operation does. The first group is refused outright while a peer shares the checkout;
# the second is refused when it reaches a peer's recent edits or staged files; the rest pass.
STAGE_ALL = "stage-all"          # add -A / -u / . / :/ / '*'
COMMIT_ALL = "commit-all"        # commit -a
STASH_ALL = "stash-all"          # stash, stash push/save without paths
STASH_STACK = "stash-stack"      # stash drop/clear/pop/apply: the stack is shared
RESET_ALL = "reset-all"          # reset --hard/--merge/--keep, pathless reset
DISCARD_ALL = "discard-all"      # checkout ., restore .
CLEAN_ALL = "clean-all"          # clean -f without paths
MOVE_HEAD = "move-head"          # checkout <branch>, switch, rebase, merge, pull, cherry-pick, ...
STAGE_PATHS = "stage-paths"      # add <paths>: refused when a path holds a peer's recent edit
DISCARD_PATHS = "discard-paths"  # checkout -- <paths>, restore <paths>: same
CLEAN_PATHS = "clean-paths"      # clean -f <paths>: same
COMMIT_INDEX = "commit-index"    # plain commit: refused when the index holds a peer's staged edit
COMMIT_PATHS = "commit-paths"    # commit -- <paths>
STASH_PATHS = "stash-paths"      # stash push -- <paths>
UNSTAGE_PATHS = "unstage-paths"  # reset -- <paths>, restore --staged <paths>
ALIAS = "alias"                  # not a git command: resolve with expand_alias, then judge
SAFE = "safe"                    # reads, or touches only refs and remotes

REFUSED_OUTRIGHT = frozenset([STAGE_ALL, COMMIT_ALL, STASH_ALL, STASH_STACK, RESET_ALL, DISCARD_ALL,
                              CLEAN_ALL, MOVE_HEAD])
REACHING_EDITS = frozenset([STAGE_PATHS, DISCARD_PATHS, CLEAN_PATHS])

# Past this depth of `bash -c` inside `eval` inside an alias..., the guard stops looking (and allows).
MAX_DEPTH = 8
# git refuses alias loops itself; this bounds alias-of-alias chains.
MAX_ALIAS_CHAIN = 10

# Every command git ships (and the common external ones); any other word is looked up as an alias.
KNOWN_COMMANDS = frozenset("""
add am annotate apply archimport archive backfill bisect blame branch bugreport bundle cat-file
check-attr check-ignore check-mailmap check-ref-format checkout checkout-index cherry cherry-pick
citool clean clone column commit commit-graph commit-tree config count-objects credential
credential-cache credential-store cvsexportcommit cvsimport cvsserver daemon describe diagnose diff
diff-files diff-index diff-pairs diff-tree difftool fast-export fast-import fetch fetch-pack
filter-branch fmt-merge-msg for-each-ref for-each-repo format-patch fsck fsck-objects fsmonitor--daemon
gc get-tar-commit-id grep gui hash-object help hook http-backend http-fetch http-push imap-send
index-pack init init-db instaweb interpret-trailers last-modified lfs log ls-files ls-remote ls-tree
mailinfo mailsplit maintenance merge merge-base merge-file merge-index merge-one-file merge-tree
mergetool mktag mktree multi-pack-index mv name-rev notes p4 pack-objects pack-redundant pack-refs
patch-id prune prune-packed pull push quiltimport range-diff read-tree rebase receive-pack reflog
refs remote repack replace replay repo request-pull rerere reset restore rev-list rev-parse revert rm
scalar send-email send-pack sh-i18n sh-setup shell shortlog show show-branch show-index show-ref
sparse-checkout stage stash status stripspace submodule survey svn switch symbolic-ref tag
unpack-file unpack-objects update-index update-ref update-server-info upload-archive upload-pack var
verify-commit verify-pack verify-tag version web--browse whatchanged worktree write-tree
""".split())

# Words that move HEAD and rewrite the tree under every session.
HEAD_MOVERS = frozenset(["switch", "rebase", "merge", "pull", "cherry-pick", "revert", "am"])
# Options that carry on (or look at) an operation already under way rather than start one; refusing
# them would strand the checkout mid-rebase. `--abort` and `--skip` discard, so they stay refused.
CARRY_ON_OPTIONS = frozenset(["--continue", "--quit", "--edit-todo", "--show-current-patch"])
HELP_OPTIONS = frozenset(["-h", "--help"])

# git's global options that take a value as the next word.
GIT_VALUE_OPTIONS = frozenset(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix",
                               "--config-env", "--exec-path", "--list-cmds", "--attr-source"])

SHELLS = frozenset(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "busybox"])
SHELL_VALUE_OPTIONS = frozenset(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"])
RESERVED_WORDS = frozenset(["!", "if", "then", "else", "elif", "fi", "do", "done", "while", "until",
                            "{", "}", "esac", "coproc"])
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=")

# Options that take a value as the next word, per prefix command.
SUDO_VALUE_OPTIONS = frozenset("-u -g -h -p -r -t -T -U -C -D -R --user --group --host --prompt "
                               "--role --type --command-timeout --other-user --close-from --chdir "
                               "--chroot".split())
ENV_VALUE_OPTIONS = frozenset(["-u", "--unset", "-C", "--chdir", "-S", "--split-string"])
TIME_VALUE_OPTIONS = frozenset(["-f", "--format", "-o", "--output"])
NICE_VALUE_OPTIONS = frozenset(["-n", "--adjustment"])
TIMEOUT_VALUE_OPTIONS = frozenset(["-s", "--signal", "-k", "--kill-after"])
XARGS_VALUE_OPTIONS = frozenset("-a -d -E -e -I -i -L -l -n -P -s --arg-file --delimiter --eof "
                                "--replace --max-lines --max-args --max-procs --max-chars "
                                "--process-slot-var".split())
EXEC_VALUE_OPTIONS = frozenset(["-a"])
# The commands that run the rest of their words as a command, with their options that take a value.
PREFIX_VALUE_OPTIONS = {"sudo": SUDO_VALUE_OPTIONS, "env": ENV_VALUE_OPTIONS, "time": TIME_VALUE_OPTIONS,
                        "nice": NICE_VALUE_OPTIONS, "timeout": TIMEOUT_VALUE_OPTIONS,
                        "xargs": XARGS_VALUE_OPTIONS, "exec": EXEC_VALUE_OPTIONS, "nohup": frozenset()}

# Per git subcommand: options whose value is the next word (or the rest of a short cluster), so the
# value is never taken for a path (`git commit -m "fix ."`).
ADD_VALUES = frozenset(["--chmod", "--pathspec-from-file"])
COMMIT_VALUES = frozenset("-m --message -F --file -C --reuse-message -c --reedit-message --fixup "
                          "--squash --author --date -t --template --cleanup --pathspec-from-file "
                          "--trailer".split())
STASH_VALUES = frozenset(["-m", "--message", "--pathspec-from-file"])
RESET_VALUES = frozenset(["--pathspec-from-file"])
CHECKOUT_VALUES = frozenset(["-b", "-B", "--orphan", "--conflict", "--pathspec-from-file"])
RESTORE_VALUES = frozenset(["-s", "--source", "--conflict", "--pathspec-from-file"])
CLEAN_VALUES = frozenset(["-e", "--exclude"])

# A single operand that looks like a revision rather than a path (`git reset main`, `git checkout
# v1.2`): HEAD and friends, `~ ^ @{` suffixes, hashes, versions, remote branches, or a bare name with
# no dot and no trailing slash. A wrong guess on a name like `Makefile` costs one refusal whose
# message shows the `--` form.
_REVISION = re.compile(r"^(-|@|(HEAD|ORIG_HEAD|FETCH_HEAD|MERGE_HEAD)([~^@].*)?|.*[~^].*|.*@\{.*"
                       r"|[0-9a-f]{7,40}|v?\d+(\.\d+)+.*|(origin|upstream|refs)/.*|[^.]*[^./])$")


class Pathspec(NamedTuple):
    """One pathspec as git reads it. `root` is the directory it is relative to (None: the
    checkout's toplevel, as in `:/src`); `relative` the path under it."""
    text: str
    root: Optional[str]
    relative: str
    pattern: bool = False      # git matches it as a wildcard (`'*.py'`); `*` crosses `/`
    shell_glob: bool = False   # the shell expands it first, one directory level per `/`
    known: bool = True         # False when it holds an expansion ($VAR, ~) the guard cannot see


class Operation(NamedTuple):
    """One git run and what it does. `cwd` is the directory git works in (after `cd`, `-C`,
    `--work-tree`); None when the command line does not say, in which case it is not judged."""
    kind: str
    cwd: Optional[str]
    command: str
    paths: Tuple[Pathspec, ...] = ()
    unknown_paths: bool = False      # more paths may come from xargs or --pathspec-from-file
    alias: Optional[str] = None      # for ALIAS: the subcommand word to look up
    alias_args: Tuple[Word, ...] = ()


class Peer(NamedTuple):
    """What the verdict needs of one live peer: its SendMessage name and its recent edits
    (absolute paths; empty when they were not read)."""
    name: str
    edits: Tuple[str, ...] = ()


# Every refusal opens with this phrase; `peers.py --stats` counts refusals in transcripts by it.
REFUSAL_MARK = "peerhooks git guard"


class Refusal(NamedTuple):
    operation: Operation
    peers: Tuple[str, ...]
    effect: str
    narrow: str
    files: Tuple[str, ...] = ()

    def message(self):
        return "\n".join([
            "%s refused `%s`: %s." % (REFUSAL_MARK, self.operation.command, self.effect),
            "Live peers in this checkout (SendMessage names): %s." % ", ".join(self.peers),
            "Instead: %s" % self.narrow,
        ])


# -- parse -----------------------------------------------------------------------------------------

def parse(command, cwd):
    """Every git invocation in a Bash command line, in order, as operations. `cwd` is the directory
    the command starts in (None if unknown)."""
    operations = []
    _Walker(operations).walk(tokenize(command), _Dirs(_clean_dir(cwd)), 0)
    return operations


def is_unknown(operation):
    """True when the subcommand is not git's: the caller reads the aliases (one `git config` call)
    and passes them to expand_alias."""
    return operation.kind == ALIAS


def relocated(operation, cwd):
    """The operation with its directory replaced (the caller's realpath of it), paths following."""
    paths = tuple(p._replace(root=cwd) if p.root == operation.cwd else p for p in operation.paths)
    return operation._replace(cwd=cwd, paths=paths)


def parse_alias_config(output):
    """`git config --get-regexp '^alias\\.'` output -> {name: expansion}; git's names are
    case-insensitive and it prints them lowercased."""
    aliases = {}
    for line in output.splitlines():
        key, _sep, value = line.partition(" ")
        if key.lower().startswith("alias.") and len(key) > len("alias."):
            aliases.setdefault(key[len("alias."):].lower(), value)
    return aliases


def expand_alias(operation, aliases, toplevel=None):
    """The operations an ALIAS operation runs, given {name: expansion}. A `!` alias is shell, which
    git runs from the toplevel (the command's directory when toplevel is not given). No alias of
    that name: an external command, nothing to judge."""
    seen = set()
    while operation.kind == ALIAS and len(seen) < MAX_ALIAS_CHAIN:
        name = operation.alias.lower()
        expansion = aliases.get(name)
        if expansion is None or name in seen:
            return []
        seen.add(name)
        if expansion.startswith("!"):
            script = expansion[1:] + "".join(" " + _quote(w.value) for w in operation.alias_args)
            operations = []
            _Walker(operations).walk(tokenize(script), _Dirs(toplevel or operation.cwd), 1)
            return [op for op in operations if not (op.kind == ALIAS and op.alias.lower() in seen)]
        words = tuple(w for w in tokenize(expansion) if isinstance(w, Word)) + operation.alias_args
        if not words:
            return []
        operation = git_operation(words, operation.cwd, operation.unknown_paths)
    return [] if operation.kind == ALIAS else [operation]


class _Dirs:
    """The shell's idea of the current directory while walking a command line."""

    def __init__(self, cwd, previous=None, stack=()):
        self.cwd = cwd
        self.previous = previous
        self.stack = list(stack)

    def copy(self):
        return _Dirs(self.cwd, self.previous, self.stack)

    def change(self, word):
        self.previous, self.cwd = self.cwd, _join(self.cwd, word)


def _clean_dir(path):
    return posixpath.normpath(path) if isinstance(path, str) and path.startswith("/") else None


def _join(base, word):
    """Absolute directory for a word relative to base; None when either cannot be known."""
    if word is None or word.expanded or not word.value:
        return None
    if word.value.startswith("/"):
        return posixpath.normpath(word.value)
    if base is None:
        return None
    return posixpath.normpath(posixpath.join(base, word.value))


class _Walker:
    """Walks the tokens of a command line as Bash runs them: simple commands between separators,
    `( … )` scoping directory changes, substitutions as subshells."""

    def __init__(self, operations):
        self.operations = operations

    def walk(self, tokens, dirs, depth):
        if depth > MAX_DEPTH:
            return
        saved = []  # directory state at each open `(`
        words = []
        after_pipe = False
        expect_target = False
        for token in tokens:
            if isinstance(token, Word):
                for inner in token.substitutions:
                    self.walk(inner, dirs.copy(), depth + 1)
                if expect_target:
                    expect_target = False
                else:
                    words.append(token)
                continue
            text = token.text
            if text in REDIRECTIONS:
                expect_target = True
                continue
            expect_target = False
            if text in SEPARATORS or text in ("(", ")"):
                in_subshell = after_pipe or text in PIPES or text == "&"
                self._command(words, dirs.copy() if in_subshell else dirs, depth)
                words = []
                after_pipe = text in PIPES
            if text == "(":
                saved.append(dirs.copy())
            elif text == ")" and saved:
                restored = saved.pop()
                dirs.cwd, dirs.previous, dirs.stack = restored.cwd, restored.previous, restored.stack
        self._command(words, dirs.copy() if after_pipe else dirs, depth)

    def _command(self, words, dirs, depth):
        """One simple command: strip assignments, reserved words and prefix commands, then act."""
        environment = {}
        from_xargs = False
        index = 0
        while index < len(words):
            word = words[index]
            value = word.value
            if _ASSIGNMENT.match(value):
                name, _eq, assigned = value.partition("=")
                environment[name] = Word(assigned, word.glob, word.expanded)
                index += 1
            elif value in RESERVED_WORDS:
                index += 1
            elif value in ("command", "builtin"):
                index += 1
                while index < len(words) and words[index].value.startswith("-"):
                    if words[index].value in ("-v", "-V"):
                        return  # a lookup, not a run
                    index += 1
            elif value in PREFIX_VALUE_OPTIONS:
                index, dirs, from_xargs = self._prefix(words, index, dirs, from_xargs)
            else:
                break
        if index >= len(words):
            return
        name_word = words[index]
        if name_word.expanded:
            return
        name = posixpath.basename(name_word.value)
        arguments = words[index + 1:]
        if name == "git":
            self._git(arguments, dirs.cwd, environment, from_xargs)
        elif name in ("cd", "pushd", "popd"):
            _change_directory(name, arguments, dirs)
        elif name in SHELLS:
            script = _shell_script(arguments)
            if script is not None:
                self.walk(tokenize(script.value), dirs.copy(), depth + 1)
        elif name == "eval":
            self.walk(tokenize(" ".join(w.value for w in arguments)), dirs, depth + 1)

    def _prefix(self, words, index, dirs, from_xargs):
        """Skip one prefix command (`sudo -u x`, `env -C dir`, `timeout 5`, `xargs -0`) and its
        options; returns where the real command starts."""
        name = words[index].value
        values = PREFIX_VALUE_OPTIONS[name]
        index += 1
        while index < len(words):
            option = words[index].value
            if option == "--":
                index += 1
                break
            if not option.startswith("-") or option == "-":
                break
            flag, has_value, attached = option.partition("=")
            if name == "env" and flag in ("-C", "--chdir") or name == "sudo" and flag in ("-D", "--chdir"):
                target = Word(attached) if has_value else (words[index + 1] if index + 1 < len(words) else None)
                dirs = dirs.copy()
                dirs.change(target)
            index += 2 if flag in values and not has_value else 1
        if name == "timeout" and index < len(words):
            index += 1  # the duration
        return index, dirs, from_xargs or name == "xargs"

    def _git(self, arguments, cwd, environment, from_xargs):
        location = cwd
        git_dir = environment.get("GIT_DIR")
        work_tree = environment.get("GIT_WORK_TREE")
        index = 0
        while index < len(arguments):
            option = arguments[index].value
            if not option.startswith("-"):
                break
            flag, has_value, attached = option.partition("=")
            value = Word(attached, arguments[index].glob, arguments[index].expanded) if has_value else (
                arguments[index + 1] if index + 1 < len(arguments) else None)
            if flag in HELP_OPTIONS or flag in ("--version", "-v", "--html-path", "--man-path",
                                                "--info-path") and not has_value:
                return
            if flag == "-C" and not has_value:
                location = _join(location, value)
            elif flag == "--git-dir":
                git_dir = value
            elif flag == "--work-tree":
                work_tree = value
            index += 2 if flag in GIT_VALUE_OPTIONS and not has_value and flag != "--exec-path" else 1
        if index >= len(arguments):
            return
        if work_tree is not None:
            location = _join(location, work_tree)
        elif git_dir is not None:
            directory = _join(location, git_dir)
            location = posixpath.dirname(directory) if directory and posixpath.basename(directory) == ".git" else None
        self.operations.append(git_operation(tuple(arguments[index:]), location, from_xargs))


def _change_directory(name, arguments, dirs):
    operands = [w for w in arguments if not (w.value.startswith("-") and len(w.value) > 1
                                             and not w.expanded)]
    if name == "popd":
        dirs.previous, dirs.cwd = dirs.cwd, (dirs.stack.pop() if dirs.stack else None)
        return
    if name == "pushd":
        dirs.stack.append(dirs.cwd)
    if not operands:
        dirs.previous, dirs.cwd = dirs.cwd, None  # `cd` alone goes home, which the guard does not know
    elif operands[0].value == "-" and not operands[0].expanded:
        dirs.previous, dirs.cwd = dirs.cwd, dirs.previous
    else:
        dirs.change(operands[0])


def _shell_script(arguments):
    """The command string of `bash -c '…'` (also `-lc`, `-ec`, `-o pipefail -c`); None for a
    script file or stdin."""
    has_c = False
    index = 0
    while index < len(arguments):
        value = arguments[index].value
        if value in SHELL_VALUE_OPTIONS:
            index += 2
            continue
        if value == "--":
            index += 1
            break
        if value[:1] in ("-", "+") and len(value) > 1:
            if not value.startswith("--") and "c" in value[1:]:
                has_c = True
            index += 1
            continue
        break
    if has_c and index < len(arguments):
        return arguments[index]
    return None


# -- classify one git run --------------------------------------------------------------------------

class _Arguments(NamedTuple):
    flags: FrozenSet[str]           # every option seen, long ones whole, short clusters split
    operands: Tuple[Word, ...]      # non-option words before `--`
    after_dashes: Optional[Tuple[Word, ...]]  # words after `--`, None without `--`
    from_file: bool                 # --pathspec-from-file


def _split(words, value_options, attached_values=frozenset()):
    """Options and operands as git reads them: `-am msg` is -a plus -m's value, `--message=x`
    carries its value, everything after `--` is an operand. attached_values: short options whose
    optional value can only be attached (`-uno`)."""
    flags, operands = set(), []
    index = 0
    while index < len(words):
        value = words[index].value
        index += 1
        if value == "--":
            return _Arguments(frozenset(flags), tuple(operands), tuple(words[index:]),
                              "--pathspec-from-file" in flags)
        if value.startswith("--"):
            flag, has_value, _attached = value.partition("=")
            flags.add(flag)
            if flag in value_options and not has_value:
                index += 1
        elif value.startswith("-") and len(value) > 1:
            for position, letter in enumerate(value[1:], start=1):
                flags.add("-" + letter)
                if "-" + letter in attached_values:
                    break
                if "-" + letter in value_options:
                    if position == len(value) - 1:
                        index += 1  # the value is the next word
                    break  # the rest of the cluster is the value
        else:
            operands.append(words[index - 1])
    return _Arguments(frozenset(flags), tuple(operands), None, "--pathspec-from-file" in flags)


def _pathspec(word, cwd):
    """A Pathspec from one word: `:/x` and `:(top)x` are relative to the toplevel."""
    value = word.value
    top = False
    if value.startswith(":/"):
        top, value = True, value[2:]
    elif value.startswith(":(") and ")" in value:
        magic, _close, value = value[2:].partition(")")
        top = "top" in magic.split(",")
    relative = value[:-1] if value.endswith("/") and len(value) > 1 else value
    root = None if top else cwd
    known = not word.expanded and (top or cwd is not None or value.startswith("/"))
    pattern = not word.glob and any(c in value for c in "*?[")
    return Pathspec(word.value, root, relative, pattern, word.glob, known)


def _is_exclusion(word):
    return word.value.startswith((":!", ":^", ":(exclude)")) or word.value.startswith(":(") and \
        "exclude" in word.value[2:].partition(")")[0].split(",")


# Pathspecs that mean the whole tree whatever the directory: the table's `.`, `./`, `:/`, `'*'`.
WHOLE_TREE_WORDS = frozenset([".", "./", ":/", ":/.", ":/*", ":(top)", ":(top).", "*", "./*"])


def _paths(words, cwd):
    """(pathspecs, whole) for operand words: whole when one names the whole tree or all of them are
    exclusions (`git add ':!secret'` stages everything else)."""
    positive = [w for w in words if not _is_exclusion(w)]
    whole = bool(words) and (not positive or any(w.value in WHOLE_TREE_WORDS and not w.expanded
                                                  for w in positive))
    return tuple(_pathspec(w, cwd) for w in positive), whole


def _render(words):
    return "git " + " ".join(_quote(w.value) for w in words)


def _quote(text):
    if text and re.match(r"^[A-Za-z0-9_./:=@%+,-]+$", text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"


class _Run(NamedTuple):
    """One git run being classified: where, as what text, and whether xargs adds unseen words."""
    cwd: Optional[str]
    command: str
    from_xargs: bool

    def op(self, kind, paths=(), unknown=False):
        return Operation(kind, self.cwd, self.command, paths, unknown or self.from_xargs)


def git_operation(words, cwd, from_xargs=False):
    """Classify one git run: words are the subcommand and its arguments (global options removed)."""
    subcommand = words[0].value
    rest = words[1:]
    run = _Run(cwd, _render(words), from_xargs)
    if words[0].expanded:
        return run.op(SAFE)
    classify = _CLASSIFIERS.get(subcommand)
    if classify is not None:
        return classify(rest, run)
    if subcommand in HEAD_MOVERS:
        values = {w.value.partition("=")[0] for w in rest}
        if not rest and subcommand == "switch" or values & (CARRY_ON_OPTIONS | HELP_OPTIONS):
            return run.op(SAFE)
        return run.op(MOVE_HEAD)
    if subcommand in KNOWN_COMMANDS or subcommand.startswith("-"):
        return run.op(SAFE)
    return Operation(ALIAS, cwd, run.command, (), from_xargs, subcommand, tuple(rest))


def _classify_add(rest, run):
    args = _split(rest, ADD_VALUES)
    if args.flags & HELP_OPTIONS or args.flags & {"-n", "--dry-run"}:
        return run.op(SAFE)
    operands = args.operands + (args.after_dashes or ())
    paths, whole = _paths(operands, run.cwd)
    everything = args.flags & {"-A", "--all", "-u", "--update", "--no-ignore-removal"}
    if whole or everything and not operands and not args.from_file and not run.from_xargs:
        return run.op(STAGE_ALL, paths)
    if not operands:
        return run.op(SAFE, unknown=args.from_file)
    return run.op(STAGE_PATHS, paths, args.from_file)


def _classify_commit(rest, run):
    args = _split(rest, COMMIT_VALUES, attached_values=frozenset(["-u", "-S"]))
    if args.flags & HELP_OPTIONS or "--dry-run" in args.flags:
        return run.op(SAFE)
    if args.flags & {"-a", "--all"}:
        return run.op(COMMIT_ALL)
    operands = args.operands + (args.after_dashes or ())
    paths, _whole = _paths(operands, run.cwd)
    include = args.flags & {"-i", "--include"}
    only = args.flags & {"-o", "--only"}
    if operands and not include or only or args.from_file or run.from_xargs:
        return run.op(COMMIT_PATHS, paths, args.from_file)
    return run.op(COMMIT_INDEX, paths)


STASH_READS = frozenset(["list", "show", "create", "store"])
STASH_STACK_WORDS = frozenset(["drop", "clear", "pop", "apply"])


def _classify_stash(rest, run):
    verb = rest[0].value if rest and not rest[0].value.startswith("-") else "push"
    if rest and verb == rest[0].value:
        rest = rest[1:]
    if {w.value for w in rest} & HELP_OPTIONS or verb in STASH_READS:
        return run.op(SAFE)
    if verb in STASH_STACK_WORDS:
        return run.op(STASH_STACK)
    if verb == "branch":
        return run.op(MOVE_HEAD)
    if verb == "save":
        return run.op(STASH_ALL)  # save's words are a message, never paths
    if verb != "push":
        return run.op(SAFE)  # an unknown verb: git refuses it
    args = _split(rest, STASH_VALUES)
    operands = args.operands + (args.after_dashes or ())
    paths, whole = _paths(operands, run.cwd)
    if whole or not operands and not args.from_file and not run.from_xargs:
        return run.op(STASH_ALL, paths)
    return run.op(STASH_PATHS, paths, args.from_file or not operands)


def _classify_reset(rest, run):
    args = _split(rest, RESET_VALUES)
    if args.flags & HELP_OPTIONS:
        return run.op(SAFE)
    if args.flags & {"--hard", "--merge", "--keep"}:
        return run.op(RESET_ALL)
    if args.after_dashes is not None:
        path_words = args.after_dashes
    elif args.operands and _looks_like_revision(args.operands[0]):
        path_words = args.operands[1:]
    else:
        path_words = args.operands
    if not path_words and not args.from_file and not run.from_xargs:
        return run.op(RESET_ALL)
    paths, whole = _paths(path_words, run.cwd)
    return run.op(RESET_ALL if whole else UNSTAGE_PATHS, paths, args.from_file or not path_words)


def _looks_like_revision(word):
    return not word.expanded and not word.glob and bool(_REVISION.match(word.value))


def _classify_checkout(rest, run):
    args = _split(rest, CHECKOUT_VALUES)
    if args.flags & HELP_OPTIONS:
        return run.op(SAFE)
    if args.flags & {"-b", "-B", "--orphan", "--detach"}:
        return run.op(MOVE_HEAD)
    if args.after_dashes is not None:
        path_words = args.after_dashes
    elif not args.operands:
        if args.flags & {"-f", "--force"}:
            return run.op(DISCARD_ALL)  # re-checks out HEAD over every uncommitted edit
        return run.op(SAFE, unknown=args.from_file)  # `git checkout` alone changes nothing
    elif _looks_like_revision(args.operands[0]):
        if len(args.operands) == 1:
            return run.op(MOVE_HEAD)
        path_words = args.operands[1:]
    else:
        path_words = args.operands
    return _discard(path_words, run, args.from_file)


def _discard(path_words, run, from_file):
    paths, whole = _paths(path_words, run.cwd)
    if whole:
        return run.op(DISCARD_ALL, paths)
    if not path_words:
        return run.op(SAFE, unknown=from_file)
    return run.op(DISCARD_PATHS, paths, from_file)


def _classify_restore(rest, run):
    args = _split(rest, RESTORE_VALUES)
    if args.flags & HELP_OPTIONS:
        return run.op(SAFE)
    path_words = args.operands + (args.after_dashes or ())
    only_index = args.flags & {"-S", "--staged"} and not args.flags & {"-W", "--worktree"}
    if only_index:
        paths, whole = _paths(path_words, run.cwd)
        if whole:
            return run.op(DISCARD_ALL, paths)
        return run.op(UNSTAGE_PATHS if path_words else SAFE, paths, args.from_file)
    return _discard(path_words, run, args.from_file)


def _classify_clean(rest, run):
    args = _split(rest, CLEAN_VALUES)
    if args.flags & HELP_OPTIONS or args.flags & {"-n", "--dry-run"}:
        return run.op(SAFE)
    if not args.flags & {"-f", "--force"}:
        return run.op(SAFE)  # git cleans nothing without --force (clean.requireForce)
    path_words = args.operands + (args.after_dashes or ())
    paths, whole = _paths(path_words, run.cwd)
    if whole or not path_words and not run.from_xargs:
        return run.op(CLEAN_ALL, paths)
    return run.op(CLEAN_PATHS, paths, not path_words)


_CLASSIFIERS = {"add": _classify_add, "stage": _classify_add, "commit": _classify_commit,
                "stash": _classify_stash, "reset": _classify_reset, "checkout": _classify_checkout,
                "restore": _classify_restore, "clean": _classify_clean}


# -- verdict ---------------------------------------------------------------------------------------

EFFECTS = {
    STAGE_ALL: ("it stages every change in the checkout, the peers' unfinished work with yours",
                "git add -- <your paths>"),
    COMMIT_ALL: ("it commits every modified file in the checkout, the peers' changes with yours",
                 "git commit -m <message> -- <your paths>"),
    STASH_ALL: ("it stashes every change in the checkout, taking the peers' work out from under them",
                "git stash push -- <your paths>"),
    STASH_STACK: ("the stash stack is shared: this drops or re-applies entries that may be the peers'",
                  "leave the stash alone while peers are live, or use git stash push -- <your paths> "
                  "and git stash show to check whose entry it is"),
    RESET_ALL: ("it discards or unstages everyone's changes, or moves the branch under every session",
                "git restore -- <your paths> to discard, git reset -- <your paths> to unstage"),
    DISCARD_ALL: ("it discards every session's uncommitted edits", "name your paths: "
                  "git restore -- <your paths>"),
    CLEAN_ALL: ("it deletes every untracked file, including the peers' new files",
                "name the paths: git clean -f -- <your paths>"),
    MOVE_HEAD: ("it moves HEAD and rewrites the working tree under every session",
                "do it in a linked worktree: git worktree add ../<name> <branch>  (for a file, use "
                "git checkout -- <path>)"),
}


def needs_edits(operations):
    """True when judging needs the peers' recent edits (path-limited kinds, plain commit)."""
    return any(op.kind in REACHING_EDITS or op.kind == COMMIT_INDEX for op in operations)


def needs_staged(operations):
    """True when judging needs the staged paths of the index (a plain commit)."""
    return any(op.kind == COMMIT_INDEX for op in operations)


def verdict(operations, peers, toplevel, staged=(), own_edits=frozenset()):
    """The first operation to refuse while `peers` share the checkout at `toplevel`, or None.

    operations: those judged against this checkout. peers: Peer records (edits may be empty when
    not needed). staged: absolute paths in the index. own_edits: absolute paths this session
    edited. Paths are compared as given: the caller resolves symlinks on both sides."""
    if not peers:
        return None
    names = tuple(p.name for p in peers)
    for op in operations:
        if op.cwd is None:
            continue
        if op.kind in REFUSED_OUTRIGHT or op.kind in REACHING_EDITS and _reaches_toplevel(op, toplevel):
            kind = op.kind if op.kind in REFUSED_OUTRIGHT else _WHOLE_OF[op.kind]
            effect, narrow = EFFECTS[kind]
            return Refusal(op, names, effect, narrow)
        if op.kind in REACHING_EDITS:
            refusal = _reaching_edits(op, peers, toplevel)
            if refusal is not None:
                return refusal
        if op.kind == COMMIT_INDEX:
            refusal = _committing_peer_staged(op, peers, toplevel, staged, own_edits)
            if refusal is not None:
                return refusal
    return None


_WHOLE_OF = {STAGE_PATHS: STAGE_ALL, DISCARD_PATHS: DISCARD_ALL, CLEAN_PATHS: CLEAN_ALL}
_VERB_OF = {STAGE_PATHS: "stage", DISCARD_PATHS: "discard", CLEAN_PATHS: "delete"}


def _resolve(spec, toplevel):
    root = toplevel if spec.root is None else spec.root
    return posixpath.normpath(posixpath.join(root, spec.relative)) if spec.relative else root


def _reaches_toplevel(op, toplevel):
    """A path-limited operation whose path is the toplevel or above it (`git add ../..`)."""
    for spec in op.paths:
        if spec.known and not spec.pattern and not spec.shell_glob:
            path = _resolve(spec, toplevel)
            if path == toplevel or toplevel.startswith(path.rstrip("/") + "/"):
                return True
    return False


def covers(spec, path, toplevel):
    """True when the pathspec sweeps up the absolute path: the path lies under a folder it names,
    or its pattern matches. A pathspec naming the file itself is the narrow form, and passes."""
    if not spec.known:
        return False
    root = toplevel if spec.root is None else spec.root
    if spec.pattern or spec.shell_glob:
        if not path.startswith(root.rstrip("/") + "/"):
            return False
        relative = path[len(root.rstrip("/")) + 1:]
        pattern = spec.relative
        if spec.pattern:
            return fnmatch.fnmatchcase(relative, pattern) or any(
                fnmatch.fnmatchcase(relative[:i], pattern) for i, c in enumerate(relative) if c == "/")
        pattern_parts = pattern.split("/")
        parts = relative.split("/")
        return len(parts) >= len(pattern_parts) and all(
            fnmatch.fnmatchcase(part, wanted) for part, wanted in zip(parts, pattern_parts))
    return path.startswith(_resolve(spec, toplevel).rstrip("/") + "/")


def _relative(path, toplevel):
    return path[len(toplevel.rstrip("/")) + 1:] if path.startswith(toplevel.rstrip("/") + "/") else path


def _reaching_edits(op, peers, toplevel):
    touched, files = [], []
    for peer in peers:
        hits = [e for e in peer.edits if any(covers(s, e, toplevel) for s in op.paths)]
        if hits:
            touched.append(peer.name)
            files.extend(_relative(e, toplevel) for e in hits if _relative(e, toplevel) not in files)
    if not touched:
        return None
    effect = "it would %s files a live peer edited recently: %s" % (_VERB_OF[op.kind], ", ".join(files[:5]))
    if len(files) > 5:
        effect += " (+%d more)" % (len(files) - 5)
    narrow = {STAGE_PATHS: "git add -- <your files>", DISCARD_PATHS: "git restore -- <your files>",
              CLEAN_PATHS: "git clean -f -- <your files>"}[op.kind]
    return Refusal(op, tuple(touched), effect, "name only your own files: " + narrow, tuple(files))


def _committing_peer_staged(op, peers, toplevel, staged, own_edits):
    """A plain commit takes the whole index: refuse when it holds a path a peer edited and this
    session did not."""
    own = set(own_edits)
    touched, files = [], []
    for peer in peers:
        hits = [p for p in staged if p in peer.edits and p not in own]
        if hits:
            touched.append(peer.name)
            files.extend(_relative(p, toplevel) for p in hits if _relative(p, toplevel) not in files)
    if not touched:
        return None
    mine = [_relative(p, toplevel) for p in staged if p in own]
    effect = ("the index holds %s, staged from a live peer's edits; a plain commit would commit it "
              "as yours" % ", ".join(files[:5]))
    narrow = "git commit -m <message> -- %s" % (" ".join(_quote(m) for m in mine[:10]) if mine else "<your paths>")
    return Refusal(op, tuple(touched), effect, narrow, tuple(files))
