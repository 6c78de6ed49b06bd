"""What a Bash command line runs: its simple commands, each with the directory it runs in, and the
files each one writes. The one interpreter of command lines: the git guard classifies the git runs
it finds, memory_delta attributes memory files to the session whose Bash wrote them, and a peer's
edits include the files its Bash commands wrote.

Pure: words come from peerhooks.shell.lexer; the only outside knowledge is passed in (the user's home,
a function giving a folder's checkout for `cd "$(git rev-parse --show-toplevel)"`, and the
platform's path flavour: on Windows `cd 'C:\\repo'`, `cd C:/repo` and Git Bash's `cd /c/repo` are
one folder, and `git.exe` is git).

What it opens, as Bash would run it:
- separators, pipes, `( … )` subshells and `$( … )`/backticks/`<( … )` (a pipe stage and a
  subshell keep their `cd` to themselves);
- prefix commands, matched by basename (`/usr/bin/env git` is git): env, sudo, time, nice, timeout,
  command, exec, nohup, xargs, find -exec, ... and `VAR=value` assignments;
- nested shells: `bash -c '…'`, `eval …`, a heredoc or here-string fed to a shell (`bash <<EOF`);
- directories: `cd`, `pushd`/`popd`, `env -C`, and words whose value is knowable here: `~`, `$HOME`,
  `$PWD`, `$(pwd)`, `$(git rev-parse --show-toplevel)` and variables the line itself assigned;
- words as Bash expands them: what an unquoted expansion yields is split at blanks into several
  words (`F="src lib"; git add $F` adds two paths, `"$F"` one), unknown when the line sets IFS;
- with a `follow` in the Context, what a program the line runs runs in turn (a Makefile target, a
  package script, a script file: peerhooks.wrappers), walked as if typed and tagged with the
  wrapper that runs it. A script the line itself wrote (`cat > s.sh <<EOF … EOF; bash s.sh`) is
  handed to it as the line wrote it.
"""
from ..platform.posix import Posix
from ..startup.records import record
from .lexer import MAX_TOKENS, PIPES, REDIRECTIONS, SEPARATORS, TooLarge, Word, tokenize, variable_name_end

# Past this depth of `bash -c` inside `eval` inside `$( … )`, the interpreter stops looking.
MAX_DEPTH = 8
# A line that runs more simple commands than this (nested shells and loop bodies counted) is not read
# command by command: commands() raises shell.TooLarge, and the guard asks the human beside a peer.
MAX_COMMANDS = 2000

SHELLS = frozenset(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash"])
SHELL_VALUE_OPTIONS = frozenset(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"])
# Builtins whose `NAME=value` operands assign variables (export also passes them on).
DECLARATIONS = frozenset(["export", "declare", "typeset", "local", "readonly"])
RESERVED_WORDS = frozenset(["!", "if", "then", "else", "elif", "fi", "do", "done", "while", "until",
                            "{", "}", "esac", "coproc"])


def is_assignment(value):
    """`NAME=value`, `NAME+=value`, `NAME[i]=value`: an assignment, not a command word."""
    end = variable_name_end(value, 0)
    if end == 0:
        return False
    if value.startswith("[", end):
        close = value.find("]", end)
        if close < 0:
            return False
        end = close + 1
    if value.startswith("+", end):
        end += 1
    return value.startswith("=", end)

# The commands that run the rest of their words as a command, each with its options that take a
# value as the next word (so the value is not taken for the command).
PREFIX_VALUE_OPTIONS = {
    "sudo": frozenset("-u -g -h -p -r -t -T -U -C -D -R --user --group --host --prompt --role --type "
                      "--command-timeout --other-user --close-from --chdir --chroot".split()),
    "doas": frozenset(["-u", "-C"]),
    "env": frozenset(["-u", "--unset", "-C", "--chdir", "-S", "--split-string"]),
    "time": frozenset(["-f", "--format", "-o", "--output"]),
    "nice": frozenset(["-n", "--adjustment"]),
    "ionice": frozenset(["-c", "--class", "-n", "--classdata", "-p", "--pid", "-P", "--pgid", "-u"]),
    "timeout": frozenset(["-s", "--signal", "-k", "--kill-after"]),
    "stdbuf": frozenset(["-i", "-o", "-e", "--input", "--output", "--error"]),
    "xargs": frozenset("-a -d -E -e -I -i -L -l -n -P -s --arg-file --delimiter --eof --replace "
                       "--max-lines --max-args --max-procs --max-chars --process-slot-var".split()),
    "exec": frozenset(["-a"]),
    "command": frozenset(), "builtin": frozenset(), "nohup": frozenset(), "setsid": frozenset(),
    "unbuffer": frozenset(), "chronic": frozenset(), "flock": frozenset(["-w", "--timeout", "-E"]),
}
# Prefixes whose first operand is theirs, not the command's (`timeout 5 git …`, `flock /lock git …`).
PREFIX_OPERANDS = {"timeout": 1, "flock": 1}
# Prefixes that add words to the command at run time (xargs' input lines).
ADDS_WORDS = frozenset(["xargs"])
# How xargs cuts its input: at blanks and newlines (honouring its own quotes), one word a line
# (-I, -d '\n'), one a NUL-ended record (-0), or otherwise (another delimiter, a file of arguments).
XARGS_SPLIT, LINES_SPLIT, NUL_SPLIT, UNKNOWN_SPLIT = "xargs", "lines", "nul", "unknown"

XargsReading = record("XargsReading", "split replace once runs_empty", (None, True, True), """How xargs runs
    a command: how it cuts its input (*_SPLIT), the string -I replaces (None), whether it runs the
    command once with every word (not with -n, -L or -I, which run it a word or a line at a time),
    and whether it runs it when the input is empty (GNU's default; not with -r).""")


def xargs_reading(options):
    """The XargsReading of xargs' option words."""
    split, replace, once, runs_empty = XARGS_SPLIT, None, True, True
    index = 0
    while index < len(options):
        flag, has_value, attached = options[index].value.partition("=")
        value = attached if has_value else (options[index + 1].value if index + 1 < len(options) else None)
        glued = flag.startswith(("-I", "-n", "-L")) and len(flag) > 2
        if flag in ("-I", "--replace", "-i") or flag.startswith("-I") and glued:
            split, once = LINES_SPLIT, False
            replace = value if flag in ("-I", "--replace") else flag[2:] if glued else "{}"
        elif flag in ("-d", "--delimiter"):
            split = LINES_SPLIT if value in ("\\n", "\n") else UNKNOWN_SPLIT
        elif flag in ("-0", "--null"):
            split = NUL_SPLIT
        elif flag in ("-a", "--arg-file", "-E", "-e", "--eof"):
            split = UNKNOWN_SPLIT
        elif flag in ("-n", "-L", "-l", "--max-args", "--max-lines") or glued:
            once = False
        elif flag in ("-r", "--no-run-if-empty"):
            runs_empty = False
        index += 2 if flag in PREFIX_VALUE_OPTIONS["xargs"] and not has_value and not glued else 1
    return XargsReading(split, replace, once, runs_empty)

# Redirections that write their target.
WRITE_REDIRECTIONS = frozenset([">", ">>", ">|", "&>", "&>>", "<>"])

# Commands whose every operand is a file they write (or remove, which is a change too).
WRITES_ALL_OPERANDS = frozenset(["tee", "touch", "truncate", "rm", "unlink", "shred"])
# Commands whose last operand is the destination (a folder receives the sources' names).
COPIES = frozenset(["cp", "mv", "install", "ln", "rsync"])
IN_PLACE_EDITORS = frozenset(["sed", "perl"])


Command = record("Command", "name args cwd env adds_words stdin_fed writes depth path_word variables fed_by "
                 "in_loop via marker gate piped_from xargs stdin produced",
                 ((), False, False, (), 0, None, (), None, False, (), None, None, None, None, None, ()),
                 """One simple command as it will run.

    name: the program's basename ("" when the command word is computed at run time).
    args: its words after the name. cwd: the absolute directory it runs in, None when unknowable.
    env: (name, Word) assignments in front of it (and exported before it). adds_words: xargs or
    find -exec add words at run time. stdin_fed: its stdin is a pipe, a heredoc or a here-string
    (answers for `-p` prompts). writes: the targets of its writing redirections. depth: nesting
    (0 for the line itself). path_word: the command word as written (`/usr/bin/git`). variables:
    (name, value) the line assigned before it (`F=a.py; …`). fed_by: for a command that gains words
    at run time, the command those words come from (the pipe stage before `xargs`, the `find` of a
    `find -exec`), so a reader can bound them. in_loop: it runs in the body of a `for` loop. via:
    the Via records of the wrappers that run it (`make commit` running its recipe), outermost
    first; () for what the line runs itself. marker: for a command that stands for what a wrapper
    does when it is not written as command lines (`gh pr checkout 12` switches the branch), the
    follower's word for it; name is then "" and via ends with that wrapper. gate: (index in the
    found list of the command whose exit status decides whether this one runs, "&&" or "||") for a
    command after `a && …` or `a || …` (a pipe stage shares its pipeline's gate); None when it runs
    whatever came before, or when the shell's compound syntax (`if`, `!`, loops) makes that
    unclear. peerhooks.shell.lexer.chains reads them. piped_from: the command of the pipe stage before this
    one (whose output is its input), or None; peerhooks.shell.lexer.feeds reads the stages back. xargs: for
    a command xargs runs, how xargs reads its input (an XargsReading), else None. stdin: the text
    the line feeds it (a heredoc, a here-string, what `echo`/`printf`/`cat <<EOF` before it in a
    pipe prints), or None when only the running line knows it. produced: (name, (Word, cwd, by field))
    of the variables the line assigned one `$(…)` whose value only running it gives (`files=$(git
    diff --name-only)`), or a `for` loop runs over one (`for f in $(…)`: by field, each iteration
    one of its fields), the substitution and the folder it ran in, for peerhooks.git.feed_sources to read.
    """)

Via = record("Via", "wrapper runs", (None,), """One wrapper on the way to a command: the wrapper as
    written (`make commit`, `npm run release`, `bash scripts/commit.sh`) and what it runs, as shown
    to a reader (the recipe line `git add -A && git commit -m save`), or None when that is a whole
    file.""")

Followed = record("Followed", "line cwd via marker same_shell", (None, False), """One thing a wrapper
    runs: a command line to walk as if typed in the folder cwd (in a new shell that inherits only
    the exported variables, or with same_shell in the current one: `source x.sh`), tagged with its
    Via; or, with line None, a marker the follower names (cmdline records it as a Command).""")

POSIX = Posix()

Context = record("Context", "home toplevel glob follow paths", (None, None, None, None, POSIX), """What the
    interpreter may know beyond the line: the user's home, a function from a folder to its checkout's
    toplevel (for `$(git rev-parse --show-toplevel)`), glob(pattern, cwd) -> sorted matches or None,
    the shell's pathname expansion for the words of a `for` loop (None: not known here), a
    follower: a function (command, context, stdin, written) -> [Followed] saying what a program the
    line runs runs in turn, where stdin is the text the line feeds the command (None when unknown)
    and written {absolute path: text, or None when unknown} the files the line wrote before it (the
    walk's own map: read it, never change it; without a follower nothing is read), and how paths
    are spelled (a flavour of peerhooks.platform).""")

# `for f in a b c; do … done` runs its body once per word; past this many words (or with a word
# only the running shell knows) the body is read once with `$f` unknown.
MAX_LOOP_VALUES = 64


class _Dirs:
    """The shell's current directory while walking a line, with `cd -`'s and pushd's memory and the
    variables the line assigned."""

    def __init__(self, cwd, previous=None, stack=(), variables=None, exported=None, produced=None):
        self.cwd = cwd
        self.previous = previous
        self.stack = list(stack)
        self.variables = dict(variables or {})
        self.exported = dict(exported or {})  # name -> Word: `export X=…` reaches later commands
        self.produced = dict(produced or {})  # name -> (Word, cwd, by field): `X=$(…)` (Command.produced)

    def copy(self):
        return _Dirs(self.cwd, self.previous, self.stack, self.variables, self.exported, self.produced)

    def restore(self, other):
        self.cwd, self.previous, self.stack = other.cwd, other.previous, list(other.stack)
        self.variables, self.exported = dict(other.variables), dict(other.exported)
        self.produced = dict(other.produced)


def commands(line, cwd, context=Context()):
    """Every simple command of a Bash command line, in the order Bash meets them (substitutions
    before the command that holds them). Raises shell.TooLarge past MAX_COMMANDS or MAX_TOKENS."""
    found = []
    _Walker(found, context).walk(tokenize(line), _Dirs(_absolute(cwd, context.paths)), 0)
    return found


def commands_of_tokens(tokens, cwd, context=Context()):
    """commands() for tokens already read (a substitution's, from peerhooks.shell.lexer)."""
    found = []
    _Walker(found, context).walk(list(tokens), _Dirs(_absolute(cwd, context.paths)), 0)
    return found


def _absolute(path, paths):
    return paths.normpath(path) if isinstance(path, str) and paths.is_absolute(path) else None


# -- words with knowable expansions ----------------------------------------------------------------

_TOPLEVEL_SUBSTITUTIONS = ("$(git rev-parse --show-toplevel)", "`git rev-parse --show-toplevel`")
_PWD_SUBSTITUTIONS = ("$(pwd)", "`pwd`", "$(pwd -P)", "$(pwd -L)")


# Bash's default IFS: the blanks at which what an unquoted expansion yields is split into words.
IFS_BLANKS = " \t\n"
# A line that sets IFS (`IFS=,`, `export IFS=…`) splits unquoted expansions at characters only the
# running shell knows: their words are then unknown here.
IFS = "IFS"


def expand(word, cwd, context=Context(), variables=None):
    """The value a word will have when it runs, or None when only the running shell can know it
    (a variable the line did not set, a command substitution other than pwd / the toplevel) or
    when it runs as other than one word (an unquoted `$F` holding blanks)."""
    found = fields(word, cwd, context, variables)
    return found[0] if found is not None and len(found) == 1 else None


def fields(word, cwd, context=Context(), variables=None):
    """The words one written word becomes when it runs, as Bash expands it: its expansions replaced
    by their values, and what an unquoted expansion yields split at blanks (`F="src lib"; git add
    $F` adds two paths, `"$F"` one path; an unquoted empty `$F` is no word at all). None when a
    value is known only to the running shell, or when the line set IFS and an expansion is unquoted."""
    if not word.expanded:
        return [word.value]
    pieces = _pieces(word, cwd, context, variables)
    if pieces is None:
        return None
    if not any(split for _text, split in pieces):
        return ["".join(text for text, _split in pieces)]
    if variables and IFS in variables:
        return None
    return _split_fields(pieces)


def assigned_value(word, cwd, context=Context(), variables=None):
    """The value `NAME=word` gives NAME (an assignment is never split into words), or None when it
    cannot be known here, an array `NAME=(…)` included."""
    if word.expanded and word.value.startswith("("):
        return None
    if not word.expanded:
        return word.value
    pieces = _pieces(word, cwd, context, variables)
    return None if pieces is None else "".join(text for text, _split in pieces)


def _pieces(word, cwd, context, variables):
    """The word's value as [(text, split)]: literal text and what each expansion yields, split
    when the expansion is unquoted. None when an expansion is unknowable here."""
    value, unquoted = word.value, word.unquoted
    known = dict(variables or {})
    shell = context.paths.shell_spelling  # what the running shell would print for a folder
    known.setdefault("HOME", shell(context.home))
    known.setdefault("PWD", shell(cwd))
    pieces, pos = [], 0
    if value == "~" or value.startswith("~/"):
        if not context.home:
            return None
        pieces.append((shell(context.home), False))
        pos = 1
    while True:
        dollar, backtick = value.find("$", pos), value.find("`", pos)
        start = min(dollar, backtick) if dollar >= 0 and backtick >= 0 else max(dollar, backtick)
        if start < 0:
            if pos < len(value):
                pieces.append((value[pos:], False))
            return pieces
        if start > pos:
            pieces.append((value[pos:start], False))
        found = _expansion_at(value, start, cwd, context, known)
        if found is None:
            return None
        text, pos = found
        pieces.append((text, start in unquoted))


def _expansion_at(value, start, cwd, context, known):
    """(what the expansion starting at `start` yields, where it ends), or None when unknowable."""
    for text in _TOPLEVEL_SUBSTITUTIONS:
        if value.startswith(text, start):
            top = context.toplevel(cwd) if context.toplevel is not None and cwd else None
            return None if top is None else (context.paths.shell_spelling(top), start + len(text))
    for text in _PWD_SUBSTITUTIONS:
        if value.startswith(text, start):
            return None if cwd is None else (context.paths.shell_spelling(cwd), start + len(text))
    if value[start] != "$":
        return None
    braced = value.startswith("{", start + 1)
    name_start = start + 2 if braced else start + 1
    end = variable_name_end(value, name_start)
    if end == name_start or braced and not value.startswith("}", end):
        return None
    found = known.get(value[name_start:end])
    if found is None:
        return None
    return found, end + 1 if braced else end


def _split_fields(pieces):
    """Bash's field splitting with the default IFS: blanks in what an unquoted expansion yields
    end a word; literal text and quoted expansions never do."""
    found, current, started = [], [], False
    for text, split in pieces:
        if not split:
            current.append(text)
            started = True
            continue
        if not text:
            continue
        blanks_first, blanks_last = text[0] in IFS_BLANKS, text[-1] in IFS_BLANKS
        parts = [p for p in text.replace("\t", " ").replace("\n", " ").split(" ") if p]
        if blanks_first and started:
            found.append("".join(current))
            current, started = [], False
        for position, part in enumerate(parts):
            if position:
                found.append("".join(current))
                current = []
            current.append(part)
            started = True
        if parts and blanks_last:
            found.append("".join(current))
            current, started = [], False
    if started:
        found.append("".join(current))
    return found


def resolve(word, cwd, context=Context(), variables=None):
    """The absolute path a word names, or None when it cannot be known here."""
    value = expand(word, cwd, context, variables)
    if not value:
        return None
    return context.paths.resolve(value, cwd)


def brace_expand(value):
    """Bash's brace expansion of one word (`{src,lib}/` -> `src/`, `lib/`; `f{1..3}`), outermost
    first; a word without a list is itself."""
    close = value.find("}")
    opening = value.rfind("{", 0, close) if close >= 0 else -1
    if opening < 0:
        return [value]
    inner, head, tail = value[opening + 1:close], value[:opening], value[close + 1:]
    if "," in inner:
        choices = inner.split(",")
    else:
        low, _dots, high = inner.partition("..")
        if not _dots or not _is_integer(low) or not _is_integer(high):
            return [head + "{" + inner + "}" + t for t in brace_expand(tail)]
        low, high = int(low), int(high)
        step = 1 if high >= low else -1
        choices = [str(n) for n in range(low, high + step, step)][:256]
    return [head + choice + t for choice in choices for t in brace_expand(tail)]


def _is_integer(text):
    return text.lstrip("-").isdigit()


def words_of(word):
    """The words one written word becomes after brace expansion."""
    if not word.brace:
        return [word]
    return [word._replace(value=v, brace=False) for v in brace_expand(word.value)]


# -- the walk --------------------------------------------------------------------------------------

class _Walker:
    """Walks tokens as Bash runs them: simple commands between separators, `( … )` scoping
    directory changes, substitutions as subshells."""

    def __init__(self, found, context):
        self.found = found
        self.context = context
        self.loops = 0  # how many `for` bodies the walk is inside
        self.iterations = 0  # loop bodies walked so far
        self.last = None  # the command recorded last (the stage a pipe feeds the next one from)
        self.tokens_left = MAX_TOKENS  # for the scripts of nested shells, beside the line's own
        self.via = ()  # the wrappers that run what is being walked
        self.written = {}  # path -> what the line wrote there (None: unknown), for the follower
        self.recorded = None  # the index of the command _command recorded last

    def tokens_of(self, text):
        """A nested shell's script as tokens, within what is left of the line's budget."""
        tokens = tokenize(text, 0, self.tokens_left)
        self.tokens_left -= len(tokens)
        return tokens

    def walk(self, tokens, dirs, depth):
        if depth > MAX_DEPTH:
            return
        saved = []  # directory state at each open `(`
        words, writes, stdin_text = [], [], []
        after_pipe = False
        redirection = None
        output = None  # what the last pipe stage prints, when the line itself holds it
        fed_by = None  # the command the previous pipe stage ran
        gate = None  # (the command whose status decides whether the next pipeline runs, its connector)
        last = None  # the command this walk recorded last: its status is its pipeline's
        plain = True  # no compound syntax met yet, so the separators alone say what runs after what
        index = 0
        while index < len(tokens):
            token = tokens[index]
            index += 1
            if isinstance(token, Word) and not words and redirection is None and token.value == "for" \
                    and token.span is not None:
                loop = _for_loop(tokens, index)
                if loop is not None:
                    name, listed, body, index = loop
                    self._loop(name, listed, body, dirs, depth)
                    plain, gate, last = False, None, None  # a loop's status is its last iteration's
                    continue
            if isinstance(token, Word):
                for inner in token.substitutions:
                    self.walk(inner, dirs.copy(), depth + 1)
                if redirection is None:
                    words.append(token)
                    continue
                if redirection in WRITE_REDIRECTIONS:
                    writes.append(token)
                elif redirection in ("<<", "<<-"):
                    stdin_text.append(token.heredoc or "")
                elif redirection == "<<<":
                    stdin_text.append(token.value)
                redirection = None
                continue
            text = token.text
            if text in REDIRECTIONS:
                redirection = text
                continue
            redirection = None
            if text in SEPARATORS or text in ("(", ")"):
                in_subshell = after_pipe or text in PIPES or text == "&"
                self.last = None
                plain = plain and not (words and words[0].value in RESERVED_WORDS)
                output = self._command(words, writes, stdin_text, after_pipe and output,
                                       dirs.copy() if in_subshell else dirs, depth, after_pipe, fed_by,
                                       gate if plain else None)
                fed_by = self.last if text in PIPES else None
                if words or writes:
                    last = self.recorded
                if text in ("&&", "||"):
                    gate = (last, text) if plain and last is not None else None
                elif text not in PIPES and (words or writes or text not in ("(", ")")):
                    gate = None  # `;`, a newline or `&`: what follows runs whatever came before
                words, writes, stdin_text = [], [], []
                after_pipe = text in PIPES
            if text == "(":
                saved.append(dirs.copy())
            elif text == ")" and saved:
                dirs.restore(saved.pop())
        plain = plain and not (words and words[0].value in RESERVED_WORDS)
        self._command(words, writes, stdin_text, after_pipe and output, dirs.copy() if after_pipe else dirs,
                      depth, after_pipe, fed_by, gate if plain else None)

    def _loop(self, name, words, body, dirs, depth):
        """A `for` loop's body, walked once per value with the variable set (once, unknown, when
        the values are not known here)."""
        values = loop_values(words, dirs.cwd, self.context, dirs.variables)
        self.iterations += len(values) if values is not None else 1
        if self.iterations > MAX_COMMANDS:  # nested loops multiply: bounded like the commands they run
            raise TooLarge("more than %d loop iterations" % MAX_COMMANDS)
        self.loops += 1
        try:
            dirs.produced.pop(name, None)
            if values is None and len(words) == 1 and words[0].unquoted and _one_substitution(words[0]):
                # `for f in $(git ls-files -o -- docs); do git add "$f"; done`: each field of its
                # output in turn, all of them in all, as the substitution itself would give them
                dirs.produced[name] = (words[0], dirs.cwd, True)
            for value in values if values is not None else [None]:
                dirs.variables[name] = value
                self.walk(body, dirs, depth)
        finally:
            self.loops -= 1
        if values is None:
            dirs.variables[name] = None

    def _command(self, words, writes, stdin_text, piped_text, dirs, depth, piped=False, fed_by=None, gate=None):
        """One simple command: strip assignments, reserved words and prefix commands, then record
        it and open what it runs. Returns what it prints when the line itself holds that text
        (`cat <<EOF`, `echo …`), so `… | bash` can be read as the script it runs; leaves in
        self.recorded the index of the command it recorded (None: none, as for `F=x`)."""
        self.recorded = None
        env = list(dirs.exported.items())
        adds_words, xargs = False, None
        words = self._split_words(words, dirs)
        index = 0
        while index < len(words):
            value = words[index].value
            if is_assignment(value):
                name, _eq, assigned = value.partition("=")
                env.append((name.rstrip("+"), words[index]._replace(value=assigned, unquoted=())))
                index += 1
            elif value in RESERVED_WORDS:
                index += 1
            elif self.context.paths.program(value) in PREFIX_VALUE_OPTIONS and not words[index].expanded:
                prefix = self.context.paths.program(value)
                if prefix == "command" and any(w.value in ("-v", "-V") for w in words[index + 1:index + 3]):
                    return  # a lookup, not a run
                start = index
                index, dirs = self._prefix(words, index, prefix, dirs)
                if prefix in ADDS_WORDS:
                    adds_words, xargs = True, xargs_reading(words[start + 1:index])
            else:
                break
        if index >= len(words):
            if env and not writes:
                for name, word in env:  # `F=x; git add "$F"`: the line's own variables
                    self._assign(dirs, name, word)
            if writes:
                self.found.append(Command("", (), dirs.cwd, tuple(env), False, False, tuple(writes), depth,
                                          via=self.via))
                if self.context.follow is not None:
                    self._remember_written(Command("", (), dirs.cwd), writes, "", None, dirs)
            return
        name_word = words[index]
        name = self.context.paths.program(name_word.value)
        if name_word.expanded:  # `G=git; $G add -A`
            known = expand(name_word, dirs.cwd, self.context, dirs.variables)
            name = self.context.paths.program(known) if known and " " not in known else ""
        arguments = tuple(words[index + 1:])
        if xargs is not None and xargs.replace is not None:  # `xargs -I{} git add {}`: the line goes there
            arguments = tuple(w for w in arguments if w.value != xargs.replace)
            if any(xargs.replace in w.value for w in arguments):
                xargs = xargs._replace(split=UNKNOWN_SPLIT)  # `dir/{}`: a word made at run time
        if name in DECLARATIONS:
            for word in arguments:
                if is_assignment(word.value):
                    variable, _eq, assigned = word.value.partition("=")
                    value = word._replace(value=assigned, unquoted=())
                    self._assign(dirs, variable.rstrip("+"), value)
                    if name == "export":
                        dirs.exported[variable] = value
        variables = tuple((k, v) for k, v in dirs.variables.items() if v is not None)
        stdin = "".join(stdin_text) if stdin_text else (piped_text or None)
        command = Command(name, arguments, dirs.cwd, tuple(env), adds_words, piped or bool(stdin_text),
                          tuple(writes), depth, name_word, variables, fed_by if adds_words else None, self.loops > 0,
                          self.via, gate=gate, piped_from=fed_by, xargs=xargs, stdin=stdin,
                          produced=tuple(dirs.produced.items()))
        if len(self.found) >= MAX_COMMANDS:
            raise TooLarge("more than %d commands" % MAX_COMMANDS)
        if name == "find":
            self._find_exec(command, dirs, depth)
        self.found.append(command)
        recorded = len(self.found) - 1
        self.last = command
        if self.context.follow is not None:
            self._follow(command, stdin, env, dirs, depth)
            self._remember_written(command, writes, _printed(name, arguments, stdin_text), stdin, dirs)
        if name in ("cd", "pushd", "popd"):
            self._change_directory(name, arguments, dirs)
        elif name in SHELLS:
            script = _shell_script(arguments)
            if script is not None:
                self.walk(self.tokens_of(script.value), dirs.copy(), depth + 1)
            elif (stdin_text or piped_text) and not _runs_a_file(arguments):
                for text in stdin_text or [piped_text]:
                    self.walk(self.tokens_of(text), dirs.copy(), depth + 1)
        elif name == "eval":
            self.walk(self.tokens_of(" ".join(w.value for w in arguments)), dirs, depth + 1)
        self.recorded = recorded  # what it ran in turn recorded its own
        return _printed(name, arguments, stdin_text)

    def _follow(self, command, stdin, env, dirs, depth):
        """Walk what the follower says the command runs, each part tagged with its wrapper."""
        for followed in self.context.follow(command, self.context, stdin, self.written):
            via = self.via + (followed.via,)
            if followed.line is None:
                self.found.append(Command("", (), followed.cwd, tuple(env), depth=depth + 1,
                                          in_loop=self.loops > 0, via=via, marker=followed.marker))
                continue
            if followed.same_shell:
                inner = dirs
            else:  # a new process: it inherits the exported variables only
                inner = _Dirs(_absolute(followed.cwd, self.context.paths), exported=dict(env))
                for name, word in env:
                    self._assign(inner, name, word)
            outer, self.via = self.via, via
            try:
                self.walk(self.tokens_of(followed.line), inner, depth + 1)
            finally:
                self.via = outer

    def _remember_written(self, command, writes, printed, stdin, dirs):
        """Record what the command leaves in the files it writes, for a script run later in the
        line: its printed text when the line holds it (`cat > s.sh <<EOF`, `tee s.sh <<EOF`),
        else unknown. A second write adds to the first (`>>`, or `>` twice: both texts are kept,
        so nothing either held is missed)."""
        targets = [(word, printed) for word in writes]
        if command.name == "tee":
            targets += [(word, stdin) for word in _operands(command.args)]
        elif command.name:
            targets += [(word, None) for word in _written_by(command)[0]]
        for word, text in targets:
            path = resolve(word, dirs.cwd, self.context, dirs.variables)
            if path is None:
                continue
            before = self.written.get(path, "")
            self.written[path] = None if text is None or before is None else before + text

    def _split_words(self, words, dirs):
        """The words as they run: a word with an unquoted expansion whose value is known and makes
        other than one word (`F="src lib"; git add $F`) is replaced by the words it makes. The
        assignments in front of the command are never split; a word whose value is unknown, or one
        word, stays as written (to be expanded where it is read)."""
        if not any(word.unquoted for word in words):
            return words
        result, leading = [], True
        for word in words:
            leading = leading and is_assignment(word.value)
            made = None if leading or not word.unquoted or word.brace else fields(
                word, dirs.cwd, self.context, dirs.variables)
            if made is None or len(made) == 1:
                result.append(word)
            else:
                result.extend(Word(value, any(c in value for c in "*?[") or word.glob) for value in made)
        return result

    def _assign(self, dirs, name, word):
        """Record a variable the line assigns. IFS is kept even when its value is unknown: its
        presence is what tells fields() that blanks may no longer be where words split."""
        value = assigned_value(word, dirs.cwd, self.context, dirs.variables)
        dirs.variables[name] = "" if value is None and name == IFS else value
        dirs.produced.pop(name, None)
        if value is None and _one_substitution(word):
            dirs.produced[name] = (word, dirs.cwd, False)

    def _prefix(self, words, index, name, dirs):
        """Skip one prefix command (`sudo -u x`, `env -C dir`, `timeout 5`, `xargs -0`) and its
        options; returns where the real command starts and its directory."""
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
            if (name == "env" and flag in ("-C", "--chdir") or name in ("sudo", "doas") and
                    flag in ("-D", "--chdir", "-C")):
                target = Word(attached) if has_value else (words[index + 1] if index + 1 < len(words) else None)
                dirs = dirs.copy()
                dirs.cwd = resolve(target, dirs.cwd, self.context, dirs.variables) if target else None
            index += 2 if flag in values and not has_value else 1
        if name == "env":
            while index < len(words) and is_assignment(words[index].value):
                index += 1  # env's own NAME=value operands
        return index + PREFIX_OPERANDS.get(name, 0), dirs

    def _find_exec(self, find, dirs, depth):
        """`find … -exec cmd {} +` runs cmd with found paths: recorded as a command that gains words,
        fed by the find (whose start folders and -name bound them)."""
        arguments = find.args
        values = [w.value for w in arguments]
        for position, value in enumerate(values):
            if value in ("-exec", "-execdir", "-ok", "-okdir"):
                end = position + 1
                while end < len(values) and values[end] not in (";", "+"):
                    end += 1
                inner = [w for w in arguments[position + 1:end] if w.value != "{}"]
                if inner:  # `+` runs it once with every path, `;` once a path; with none found, not at all
                    reading = XargsReading(LINES_SPLIT, None, end < len(values) and values[end] == "+", False)
                    self.found.append(Command(self.context.paths.program(inner[0].value), tuple(inner[1:]),
                                              dirs.cwd, (), True, False, (), depth + 1, inner[0],
                                              find.variables, find, self.loops > 0, self.via, xargs=reading))

    def _change_directory(self, name, arguments, dirs):
        operands = [w for w in arguments if not (w.value.startswith("-") and len(w.value) > 1
                                                 and not w.expanded)]
        if name == "popd":
            dirs.previous, dirs.cwd = dirs.cwd, (dirs.stack.pop() if dirs.stack else None)
            return
        if name == "pushd":
            dirs.stack.append(dirs.cwd)
        if not operands:
            dirs.previous, dirs.cwd = dirs.cwd, _absolute(self.context.home, self.context.paths)  # `cd` alone goes home
        elif operands[0].value == "-" and not operands[0].expanded:
            dirs.previous, dirs.cwd = dirs.cwd, dirs.previous
        else:
            dirs.previous, dirs.cwd = dirs.cwd, resolve(operands[0], dirs.cwd, self.context, dirs.variables)


def _one_substitution(word):
    """Whether a word is one `$(…)` and nothing else, whose value only running it gives."""
    return len(word.substitutions) == 1 and word.value.startswith("$(") and word.value.endswith(")")


def _for_loop(tokens, index):
    """(variable, values or None, body tokens, index after `done`) of the `for NAME in WORDS; do
    BODY; done` whose `for` is tokens[index - 1]; None for any other shape (C-style loops, a
    missing `do` or `done`), which is then read as an ordinary command. values are words as
    written; _Walker._loop expands them."""
    if index >= len(tokens) or not isinstance(tokens[index], Word) or \
            variable_name_end(tokens[index].value, 0) != len(tokens[index].value):
        return None
    name = tokens[index].value
    position = index + 1
    listed = None
    if position < len(tokens) and isinstance(tokens[position], Word) and tokens[position].value == "in":
        listed = []
        position += 1
        while position < len(tokens) and isinstance(tokens[position], Word):
            listed.append(tokens[position])
            position += 1
    while position < len(tokens) and not isinstance(tokens[position], Word) and \
            tokens[position].text in (";", "\n"):
        position += 1
    if position >= len(tokens) or not isinstance(tokens[position], Word) or tokens[position].value != "do":
        return None
    body_start, nesting, position = position + 1, 1, position + 1
    at_start = True  # a reserved word counts only where a command starts
    while position < len(tokens):
        token = tokens[position]
        if isinstance(token, Word):
            if at_start and token.value == "do":
                nesting += 1
            elif at_start and token.value == "done":
                nesting -= 1
                if nesting == 0:
                    return name, listed, tokens[body_start:position], position + 1
            at_start = token.value in RESERVED_WORDS or token.value in ("then", "do")
        else:
            at_start = token.text in SEPARATORS or token.text in ("(", ")")
        position += 1
    return None


def loop_values(words, cwd, context, variables):
    """The values a `for` loop's words give, as Bash expands them (fields split, braces, globs
    against the file system through context.glob), or None when one is known only at run time or
    there are more than MAX_LOOP_VALUES."""
    if words is None:
        return None  # `for f; do`: the positional parameters
    values = []
    for written in words:
        for word in words_of(written):
            if word.glob and not word.expanded:
                matches = context.glob(word.value, cwd) if context.glob is not None and cwd else None
                if matches is None:
                    return None
                values.extend(matches or [word.value])  # no match: Bash keeps the pattern
            else:
                found = fields(word, cwd, context, variables)
                if found is None:
                    return None
                values.extend(found)
            if len(values) > MAX_LOOP_VALUES:
                return None
    return values


def _printed(name, arguments, stdin_text):
    """The text a command prints when the line holds it: `cat` of a heredoc, `echo`'s words and
    its newline, a `printf` format without conversions (its `\\n` and `\\t` as they print)."""
    if name == "cat" and stdin_text and not arguments:
        return "".join(stdin_text)
    if not arguments or any(w.expanded for w in arguments):
        return None
    if name == "echo":
        words = [w.value for w in arguments]
        newline = "" if words[0] in ("-n", "-en", "-ne") else "\n"
        text = " ".join(w for w in words if w not in ("-e", "-n", "-en", "-ne")) + newline
        escapes = any(w in ("-e", "-en", "-ne") for w in words[:2])
        return text.replace("\\n", "\n").replace("\\t", "\t") if escapes else text
    if name == "printf" and "%" not in arguments[0].value and not arguments[0].value.startswith("-"):
        return arguments[0].value.replace("\\n", "\n").replace("\\t", "\t")
    return None


def _shell_options(arguments):
    """(whether `-c` is among a shell's options, whether `-s`, the index of its first operand)."""
    has_c = has_s = False
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
            if not value.startswith("--"):
                has_c = has_c or "c" in value[1:]
                has_s = has_s or "s" in value[1:]
            index += 1
            continue
        break
    return has_c, has_s, index


def _shell_script(arguments):
    """The command string of `bash -c '…'` (also `-lc`, `-ec`, `-o pipefail -c`); None for a
    script file or stdin."""
    has_c, _has_s, index = _shell_options(arguments)
    if has_c and index < len(arguments):
        return arguments[index]
    return None


def shell_script_file(arguments):
    """The script file a shell's words name (`bash -e x.sh`), or None when it runs `-c` text or
    stdin (`-s`)."""
    has_c, has_s, index = _shell_options(arguments)
    return None if has_c or has_s or index >= len(arguments) else arguments[index]


def _runs_a_file(arguments):
    """True when a shell's operands name a script file (then stdin is data, not the script);
    `-s` makes it read the script from stdin whatever follows."""
    for word in arguments:
        if word.value == "-s" or word.value.startswith("-") and "s" in word.value[1:] and not word.value.startswith("--"):
            return False
        if not word.value.startswith(("-", "+")):
            return True
    return False


# -- the files a command line writes ---------------------------------------------------------------

def _operands(words):
    """Words after the command name that are not options (everything after `--` is an operand)."""
    operands, options_over = [], False
    for word in words:
        if not options_over and word.value == "--":
            options_over = True
        elif options_over or not word.value.startswith("-") or word.value == "-":
            operands.append(word)
    return operands


def _copy(name, args):
    """(sources it removes, (destination word, source words, whether it is surely a folder))."""
    for position, word in enumerate(args):
        if word.value in ("-t", "--target-directory") and position + 1 < len(args):
            target, rest = args[position + 1], args[:position] + args[position + 2:]
        elif word.value.startswith("--target-directory="):
            target, rest = word._replace(value=word.value.split("=", 1)[1]), args[:position] + args[position + 1:]
        else:
            continue
        sources = _operands(rest)
        return (sources if name == "mv" else []), (target, sources, True)
    operands = _operands(args)
    if len(operands) < 2:
        return [], None
    sources = operands[:-1]
    return (sources if name == "mv" else []), (operands[-1], sources, False)


def _edits_in_place(name, option):
    """`-i`, `-i.bak`, `--in-place`, `-Ei`; perl also takes it among bundled flags (`-pi`, `-pie`)."""
    return _in_place_cluster(name, option) is not None


def _in_place_cluster(name, option):
    """The backup suffix ("" for none) when an option word makes sed or perl edit in place, else
    None. In a cluster of single letters, `i` takes the rest of it as the suffix (`-i.bak`; `-ie`
    is -i with the suffix "e"), and a letter that takes a value (`-e`, `-f`) ends the cluster."""
    if option == "--in-place" or option.startswith("--in-place="):
        return option.partition("=")[2]
    if not option.startswith("-") or option.startswith("--") or len(option) < 2:
        return None
    takes_value = "efl0CIMmx" if name == "perl" else "efl"
    for position, letter in enumerate(option[1:], start=1):
        if letter == "i":
            return option[position + 1:]
        if letter in takes_value:
            return None
    return None


def backup_suffix(name, args):
    """The backup suffix of `sed -i.bak` / `--in-place=.bak` / perl's `-pi.bak`, or "" for none."""
    for word in args:
        suffix = _in_place_cluster(name, word.value)
        if suffix is not None:
            return suffix
    return ""


def _edited_in_place(name, args):
    """The file operands of `sed -i`/`perl -i` (the first operand is the script unless -e/-f gave
    it), and their backups where a suffix names them (`sed -i.bak f` writes f.bak too)."""
    if not any(_edits_in_place(name, word.value) for word in args):
        return []
    files = _in_place_operands(args)
    suffix = backup_suffix(name, args)
    if suffix and "*" not in suffix:
        files += [word._replace(value=word.value + suffix) for word in files]
    return files


def _in_place_operands(args):
    files, script_given, skip_next = [], False, False
    for word in args:
        if skip_next:
            skip_next = False
        elif word.value in ("-e", "-f", "-E", "--expression", "--file"):
            script_given, skip_next = True, True
        elif word.value.startswith("-"):
            continue
        elif not script_given:
            script_given = True
        else:
            files.append(word)
    return files


def writes_its_operands(command):
    """Whether a command writes over or removes the files it is given (`rm`, `tee`, `sed -i`, ...),
    so the words a find or xargs adds to it are files it writes."""
    if command.name in WRITES_ALL_OPERANDS:
        return True
    return command.name in IN_PLACE_EDITORS and any(_edits_in_place(command.name, w.value) for w in command.args)


def _written_by(command):
    """(words naming files the command writes, its copy destination or None), where a destination
    is (target word, source words, whether the target is surely a folder)."""
    name, args = command.name, list(command.args)
    if name in WRITES_ALL_OPERANDS:
        return _operands(args), None
    if name in COPIES:
        return _copy(name, args)
    if name in IN_PLACE_EDITORS and any(_edits_in_place(name, w.value) for w in args):
        return _edited_in_place(name, args), None
    if name == "dd":
        return [w._replace(value=w.value[3:]) for w in args if w.value.startswith("of=")], None
    if name == "sort":  # `sort -o FILE`: the output file, which may be one of its inputs
        return _output_option(args, "-o", "--output"), None
    if name.startswith(INTERPRETER_PREFIXES):
        return _inline_program_writes(command), None
    if name == "git" and args and args[0].value == "mv":
        return _copy("mv", args[1:])
    if name == "git" and args and args[0].value == "rm":  # a staged deletion is a change too
        return _operands(args[1:]), None
    return [], None


# Programs whose code a line may hand them (`python3 -c …`, `node -e …`, `python3 - <<EOF`): the
# code is read for the files it may write (peerhooks.wrappers.inline_code), loaded only for them.
INTERPRETER_PREFIXES = ("python", "pypy", "node", "perl", "ruby")
MAX_PROGRAM_CHARS = 64 * 1024  # code longer than this is read up to here


def _inline_program_writes(command):
    """The words naming the files an inline program may write: the string literals of code that may
    write (inline_code.paths_it_may_write); none for a program in a file, which is not read."""
    from ..wrappers import inline_code

    language = inline_code.language_of(command.name)
    if language is None:
        return []
    code = inline_code.code_given(language, [w.value for w in command.args], command.stdin)
    if code is None:
        return []
    return [Word(value) for value in inline_code.paths_it_may_write(code[:MAX_PROGRAM_CHARS], language)]


def _output_option(args, short, long):
    """The words an output option names: `-o F`, `-oF`, `--output F`, `--output=F`."""
    found = []
    for position, word in enumerate(args):
        value = word.value
        if value in (short, long) and position + 1 < len(args):
            found.append(args[position + 1])
        elif value.startswith(long + "="):
            found.append(word._replace(value=value[len(long) + 1:]))
        elif value.startswith(short) and len(value) > len(short) and not value.startswith("--"):
            found.append(word._replace(value=value[len(short):]))
    return found


# Commands that change a file only where it exists (`rm` of a missing file changes nothing, and so
# does `sed -i` of one); those that create one (`touch`, `tee`, `>`, a program) change a missing path too.
REMOVERS = frozenset(["rm", "unlink", "shred"])


def _changes_only_what_exists(command):
    return command.name in REMOVERS or command.name in IN_PLACE_EDITORS and writes_its_operands(command)


def write_targets(line, cwd, home=None, isdir=None, paths=POSIX):
    """[(path, is_pattern)] that a Bash command line writes: redirection targets, `tee`, `touch`,
    `rm`, `sed -i`/`perl -i`, `dd of=`, the destination of `cp`/`mv`/`install`/`git mv` (and the
    sources `mv` removes), what `git rm` removes. Words the shell alone knows are skipped. isdir: the
    caller's look at the filesystem, whether a copy's destination is an existing folder (None: take
    it for a file); paths: the platform's path flavour."""
    context = Context(home=home, paths=paths)
    try:
        found = commands(line, cwd, context)
    except TooLarge:
        return []  # a line this large is not read for the files it writes
    return [(path, pattern) for path, pattern, _command in targets_of(found, context, isdir)]


def targets_of(found, context=Context(), isdir=None, exists=None):
    """[(path, is_pattern, command)] of the files the commands write, each with the command that
    writes it (write_targets, for commands already read). exists(path, command): the caller's look
    at the filesystem, whether a path is there when the command runs (None: not known). `rm` or
    `sed -i` of a missing path, a copy or move whose every source is missing, and `touch` of a file
    that is there (it sets times only) write nothing (git sees no change)."""
    targets = []
    for command in found:
        mine = []
        for word in command.writes:
            _add(mine, word, command.cwd, context)
        written, destination = _written_by(command)
        if exists is not None and (_changes_only_what_exists(command) or command.name == "mv"):
            missing = {w.value for w in written if _there(w, command, context, exists) is False}
            suffix = backup_suffix(command.name, command.args) if command.name in IN_PLACE_EDITORS else ""
            written = [w for w in written if w.value not in missing  # and no backup of a file sed cannot open
                       and not (suffix and w.value.endswith(suffix) and w.value[:-len(suffix)] in missing)]
        if exists is not None and command.name == "touch":  # it sets times: it changes a file only by creating it
            creates = not any(w.value in ("-c", "--no-create") for w in command.args)
            written = [w for w in written if _there(w, command, context, exists) in ((None, False) if creates else (None,))]
        for word in written:
            _add(mine, word, command.cwd, context)
        if destination is not None and exists is not None and destination[1] and \
                all(_there(source, command, context, exists) is False for source in destination[1]):
            destination = None  # "cannot stat": nothing is copied or moved
        if destination is not None:
            target, sources, into_folder = destination
            resolved = resolve(target, command.cwd, context)
            if resolved is not None and (into_folder or target.value.endswith("/") or len(sources) > 1
                                         or isdir is not None and isdir(resolved)):
                for source in sources:
                    name = context.paths.basename(source.value.rstrip("/"))
                    if name:
                        mine.append((context.paths.join(resolved, name), source.glob or target.glob))
            elif resolved is not None:
                mine.append((resolved, target.glob))
        targets.extend((path, pattern, command) for path, pattern in mine)
    return targets


def _there(word, command, context, exists):
    """Whether the path a literal word names is there when the command runs: True, False, or None
    (not known: a pattern, an expansion, or the caller cannot tell)."""
    if word.glob or word.expanded or word.brace:
        return None
    resolved = resolve(word, command.cwd, context)
    return exists(resolved, command) if resolved is not None else None


def _add(targets, word, cwd, context):
    for each in words_of(word):
        resolved = resolve(each, cwd, context)
        if resolved is not None and resolved != "/dev/null":
            targets.append((resolved, each.glob))
