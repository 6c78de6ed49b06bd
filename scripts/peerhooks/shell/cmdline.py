"""What a Bash command line runs: its simple commands, each with the directory it runs in. The one
interpreter of command lines: the git guard classifies the git runs it finds, memory_delta
attributes memory files to the session whose Bash wrote them, and a peer's edits include the files
its Bash commands wrote (write_targets; peerhooks.shell.writes says which files a command writes).

Pure: words come from peerhooks.shell.lexer and are expanded by peerhooks.shell.words; what is known
of particular programs (prefixes, xargs, shells' options) is peerhooks.shell.programs; the only
outside knowledge is passed in a Context (the user's home, a function giving a folder's checkout for
`cd "$(git rev-parse --show-toplevel)"`, the platform's path flavour: on Windows `cd 'C:\\repo'`,
`cd C:/repo` and Git Bash's `cd /c/repo` are one folder, and `git.exe` is git).

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
from .programs import (ADDS_WORDS, LINES_SPLIT, PREFIX_VALUE_OPTIONS, SHELLS, UNKNOWN_SPLIT, XargsReading, prefix_end,
                       printed, runs_a_file, shell_script, xargs_reading)
from .words import IFS, assigned_value, expand, fields, is_assignment, loop_values, one_substitution, resolve
from .writes import WRITE_REDIRECTIONS, operands, targets_of, written_by

# Past this depth of `bash -c` inside `eval` inside `$( … )` (or make running a script running make),
# the interpreter stops: commands() raises shell.TooLarge, and the guard asks the human beside a peer
# (issue 35: a walk that returned quietly here let `echo $(echo … $(git add -A))` run unjudged).
MAX_DEPTH = 8
# A line that runs more simple commands than this (nested shells and loop bodies counted) is not read
# command by command: commands() raises shell.TooLarge, and the guard asks the human beside a peer.
MAX_COMMANDS = 2000

# Builtins whose `NAME=value` operands assign variables (export also passes them on).
DECLARATIONS = frozenset(["export", "declare", "typeset", "local", "readonly"])
RESERVED_WORDS = frozenset(["!", "if", "then", "else", "elif", "fi", "do", "done", "while", "until",
                            "{", "}", "esac", "coproc"])
# The words that change the shell's folder.
DIRECTORY_CHANGES = ("cd", "pushd", "popd")

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
    unclear. peerhooks.shell.chains reads them. piped_from: the command of the pipe stage before this
    one (whose output is its input), or None; peerhooks.shell.feeds reads the stages back. xargs: for
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

Context = record("Context", "home toplevel glob follow paths code_writes spent",
                 (None, None, None, None, POSIX, None, None), """What the
    interpreter may know beyond the line: the user's home, a function from a folder to its checkout's
    toplevel (for `$(git rev-parse --show-toplevel)`), glob(pattern, cwd) -> sorted matches or None,
    the shell's pathname expansion for the words of a `for` loop (None: not known here), a
    follower: a function (command, context, stdin, written) -> [Followed] saying what a program the
    line runs runs in turn, where stdin is the text the line feeds the command (None when unknown)
    and written {absolute path: text, or None when unknown} the files the line wrote before it (the
    walk's own map: read it, never change it; without a follower nothing is read), how paths are
    spelled (a flavour of peerhooks.platform), and code_writes: a function (command) -> the paths
    code handed to an interpreter may write (`python3 -c "open('x','w')…"`, read by
    peerhooks.wrappers.inline_code; None: that code is not read), and spent: a function () -> True
    once the time the reader gives the walk is over (None: no clock), past which commands() raises
    shell.TooLarge.""")



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


def write_targets(line, cwd, home=None, isdir=None, paths=POSIX, code_writes=None):
    """[(path, is_pattern)] that a Bash command line writes: redirection targets, `tee`, `touch`,
    `rm`, `sed -i`/`perl -i`, `dd of=`, the destination of `cp`/`mv`/`install`/`git mv` (and the
    sources `mv` removes), what `git rm` removes. Words the shell alone knows are skipped. isdir: the
    caller's look at the filesystem, whether a copy's destination is an existing folder (None: take
    it for a file); paths: the platform's path flavour; code_writes: as Context's."""
    context = Context(home=home, paths=paths, code_writes=code_writes)
    try:
        return [(path, pattern) for path, pattern, _command in targets_of(commands(line, cwd, context), context, isdir)]
    except TooLarge:
        return []  # a line this large is not read for the files it writes


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
        self.tokens_left = [MAX_TOKENS]  # for the scripts of nested shells, beside the line's own
        self.via = ()  # the wrappers that run what is being walked
        self.written = {}  # path -> what the line wrote there (None: unknown), for the follower
        self.recorded = None  # the index of the command _command recorded last

    def tokens_of(self, text):
        """A nested shell's script as tokens, within what is left of the line's budget."""
        return tokenize(text, self.tokens_left)

    def walk(self, tokens, dirs, depth):
        if depth > MAX_DEPTH:
            raise TooLarge("shells and substitutions nested more than %d deep" % MAX_DEPTH)
        reading, index = _Reading(), 0
        while index < len(tokens):
            token = tokens[index]
            index += 1
            if isinstance(token, Word) and reading.may_start_loop(token):
                loop = _for_loop(tokens, index)
                if loop is not None:
                    name, listed, body, index = loop
                    self._loop(name, listed, body, dirs, depth)
                    reading.plain, reading.gate, reading.last = False, None, None  # its status is its last iteration's
                    continue
            if isinstance(token, Word):
                self._word(reading, token, dirs, depth)
            else:
                self._operator(reading, token.text, dirs, depth)
        reading.plain = reading.plain and not reading.starts_compound()
        self._command(reading, dirs.copy() if reading.after_pipe else dirs, depth)

    def _word(self, reading, token, dirs, depth):
        """A word: its substitutions run first (in subshells); it is the command's, or the target
        of the redirection before it."""
        for inner in token.substitutions:
            self.walk(inner, dirs.copy(), depth + 1)
        redirection, reading.redirection = reading.redirection, None
        if redirection is None:
            reading.words.append(token)
        elif redirection in WRITE_REDIRECTIONS:
            reading.writes.append(token)
        elif redirection in ("<<", "<<-"):
            reading.stdin_text.append(token.heredoc or "")
        elif redirection == "<<<":
            reading.stdin_text.append(token.value)

    def _operator(self, reading, text, dirs, depth):
        """A redirection waits for its word; a separator or a parenthesis ends the command read so
        far; `(` and `)` open and close a subshell's folder."""
        if text in REDIRECTIONS:
            reading.redirection = text
            return
        reading.redirection = None
        if text in SEPARATORS or text in ("(", ")"):
            self._separator(reading, text, dirs, depth)
        if text == "(":
            reading.saved.append(dirs.copy())
        elif text == ")" and reading.saved:
            dirs.restore(reading.saved.pop())

    def _separator(self, reading, text, dirs, depth):
        """Run the command read so far, and carry to the next what the separator says: its input
        (a pipe), the command whose status decides whether it runs (`&&`, `||`)."""
        in_subshell = reading.after_pipe or text in PIPES or text == "&"
        self.last = None
        reading.plain = reading.plain and not reading.starts_compound()
        reading.output = self._command(reading, dirs.copy() if in_subshell else dirs, depth)
        reading.fed_by = self.last if text in PIPES else None
        if reading.words or reading.writes:
            reading.last = self.recorded
        if text in ("&&", "||"):
            reading.gate = (reading.last, text) if reading.plain and reading.last is not None else None
        elif text not in PIPES and (reading.words or reading.writes or text not in ("(", ")")):
            reading.gate = None  # `;`, a newline or `&`: what follows runs whatever came before
        reading.words, reading.writes, reading.stdin_text = [], [], []
        reading.after_pipe = text in PIPES

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
            if values is None and len(words) == 1 and words[0].unquoted and one_substitution(words[0]):
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

    def _command(self, reading, dirs, depth):
        """One simple command: past its assignments, reserved words and prefix commands, record it
        and open what it runs. Returns what it prints when the line itself holds that text (`cat
        <<EOF`, `echo …`), so `… | bash` can be read as the script it runs; leaves in
        self.recorded the index of the command it recorded (None: none, as for `F=x`)."""
        self.recorded = None
        words = self._split_words(reading.words, dirs)
        front = self._front(words, dirs)
        if front is None:
            return None  # `command -v git`: a lookup, not a run
        index, env, dirs, xargs = front
        if index >= len(words):
            self._without_command(env, reading.writes, dirs, depth)
            return None
        name = self._program(words[index], dirs)
        arguments, xargs = _xargs_arguments(tuple(words[index + 1:]), xargs)
        if name in DECLARATIONS:
            self._declare(name, arguments, dirs)
        stdin = "".join(reading.stdin_text) if reading.stdin_text else (reading.piped_text() or None)
        fed_by = reading.fed_by
        command = Command(name, arguments, dirs.cwd, tuple(env), xargs is not None,
                          reading.after_pipe or bool(reading.stdin_text), tuple(reading.writes), depth, words[index],
                          tuple((k, v) for k, v in dirs.variables.items() if v is not None),
                          fed_by if xargs is not None else None, self.loops > 0, self.via,
                          gate=reading.gate if reading.plain else None, piped_from=fed_by, xargs=xargs, stdin=stdin,
                          produced=tuple(dirs.produced.items()))
        recorded = self._record(command, dirs, depth)
        if self.context.follow is not None:
            self._follow(command, stdin, env, dirs, depth)
            self._remember_written(command, reading.writes, printed(name, arguments, reading.stdin_text), stdin, dirs)
        self._runs_in_turn(command, reading, dirs, depth)
        self.recorded = recorded  # what it ran in turn recorded its own
        return printed(name, arguments, reading.stdin_text)

    def _front(self, words, dirs):
        """Past the words in front of the command word: (where the command word is, the command's
        environment (its assignments after the exported variables), its folder (`env -C`), how
        xargs feeds it or None); None for `command -v`, which looks a program up."""
        env, xargs, index = list(dirs.exported.items()), None, 0
        while index < len(words):
            word = words[index]
            prefix = self.context.paths.program(word.value)
            if is_assignment(word.value):
                name, _eq, assigned = word.value.partition("=")
                env.append((name.rstrip("+"), word._replace(value=assigned, unquoted=())))
                index += 1
            elif word.value in RESERVED_WORDS:
                index += 1
            elif prefix in PREFIX_VALUE_OPTIONS and not word.expanded:
                if prefix == "command" and any(w.value in ("-v", "-V") for w in words[index + 1:index + 3]):
                    return None
                end, folders = prefix_end(words, index, prefix)
                for folder in folders:
                    dirs = dirs.copy()
                    dirs.cwd = resolve(folder, dirs.cwd, self.context, dirs.variables) if folder else None
                if prefix in ADDS_WORDS:
                    xargs = xargs_reading(words[index + 1:end])
                index = end
            else:
                break
        return index, env, dirs, xargs

    def _without_command(self, env, writes, dirs, depth):
        """Assignments alone set the line's variables (`F=x; git add "$F"`); redirections alone
        (`> f`) still write their targets."""
        if env and not writes:
            for name, word in env:
                self._assign(dirs, name, word)
        if writes:
            self.found.append(Command("", (), dirs.cwd, tuple(env), False, False, tuple(writes), depth,
                                      via=self.via))
            if self.context.follow is not None:
                self._remember_written(Command("", (), dirs.cwd), writes, "", None, dirs)

    def _program(self, name_word, dirs):
        """The program a command word runs: its basename, or for a computed word (`G=git; $G add
        -A`) its value's, "" when only the running shell knows it."""
        if not name_word.expanded:
            return self.context.paths.program(name_word.value)
        known = expand(name_word, dirs.cwd, self.context, dirs.variables)
        return self.context.paths.program(known) if known and " " not in known else ""

    def _declare(self, name, arguments, dirs):
        """`export F=x`, `local F=x`, …: the line's variables (export's reach later commands too)."""
        for word in arguments:
            if is_assignment(word.value):
                variable, _eq, assigned = word.value.partition("=")
                value = word._replace(value=assigned, unquoted=())
                self._assign(dirs, variable.rstrip("+"), value)
                if name == "export":
                    dirs.exported[variable] = value

    def _record(self, command, dirs, depth):
        """Add the command to those found (a find's -exec command first); its index."""
        if len(self.found) >= MAX_COMMANDS:
            raise TooLarge("more than %d commands" % MAX_COMMANDS)
        if self.context.spent is not None and self.context.spent():
            raise TooLarge("more than the guard can read in its time")
        if command.name == "find":
            self._find_exec(command, dirs, depth)
        self.found.append(command)
        self.last = command
        return len(self.found) - 1

    def _runs_in_turn(self, command, reading, dirs, depth):
        """What the command makes the shell do next: change its folder, or run a script (`bash -c`,
        a shell fed a heredoc or a pipe, `eval`)."""
        name, arguments = command.name, command.args
        if name in DIRECTORY_CHANGES:
            self._change_directory(name, arguments, dirs)
        elif name in SHELLS:
            script = shell_script(arguments)
            piped_text = reading.piped_text()
            if script is not None:
                self.walk(self.tokens_of(script.value), dirs.copy(), depth + 1)
            elif (reading.stdin_text or piped_text) and not runs_a_file(arguments):
                for text in reading.stdin_text or [piped_text]:
                    self.walk(self.tokens_of(text), dirs.copy(), depth + 1)
        elif name == "eval":
            self.walk(self.tokens_of(" ".join(w.value for w in arguments)), dirs, depth + 1)

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
            except TooLarge as error:
                error.of("what `%s` runs" % followed.via.wrapper)
                raise
            finally:
                self.via = outer

    def _remember_written(self, command, writes, text_printed, stdin, dirs):
        """Record what the command leaves in the files it writes, for a script run later in the
        line: its printed text when the line holds it (`cat > s.sh <<EOF`, `tee s.sh <<EOF`),
        else unknown. A second write adds to the first (`>>`, or `>` twice: both texts are kept,
        so nothing either held is missed)."""
        targets = [(word, text_printed) for word in writes]
        if command.name == "tee":
            targets += [(word, stdin) for word in operands(command.args)]
        elif command.name:
            targets += [(word, None) for word in written_by(command, self.context)[0]]
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
        if value is None and one_substitution(word):
            dirs.produced[name] = (word, dirs.cwd, False)

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
        given = [w for w in arguments if not (w.value.startswith("-") and len(w.value) > 1
                                                  and not w.expanded)]
        if name == "popd":
            dirs.previous, dirs.cwd = dirs.cwd, (dirs.stack.pop() if dirs.stack else None)
            return
        if name == "pushd":
            dirs.stack.append(dirs.cwd)
        if not given:
            dirs.previous, dirs.cwd = dirs.cwd, _absolute(self.context.home, self.context.paths)  # `cd` alone goes home
        elif given[0].value == "-" and not given[0].expanded:
            dirs.previous, dirs.cwd = dirs.cwd, dirs.previous
        else:
            dirs.previous, dirs.cwd = dirs.cwd, resolve(given[0], dirs.cwd, self.context, dirs.variables)


class _Reading:
    """What one walk has read of the simple command in progress (its words, the targets of its
    writing redirections, the text fed to its stdin, a redirection awaiting its word), and what the
    separators before it carry to it."""

    def __init__(self):
        self.words, self.writes, self.stdin_text = [], [], []
        self.redirection = None
        self.after_pipe = False  # a pipe feeds it
        self.output = None  # what the pipe stage before prints, when the line itself holds it
        self.fed_by = None  # the command the pipe stage before ran
        self.gate = None  # (the command whose status decides whether the next pipeline runs, its connector)
        self.last = None  # the command this walk recorded last: its status is its pipeline's
        self.plain = True  # no compound syntax met yet, so the separators alone say what runs after what
        self.saved = []  # the folder state at each open `(`

    def may_start_loop(self, word):
        """A `for` where a command starts, as written in the line (not made by an expansion)."""
        return not self.words and self.redirection is None and word.value == "for" and word.span is not None

    def starts_compound(self):
        return bool(self.words) and self.words[0].value in RESERVED_WORDS

    def piped_text(self):
        """What a pipe feeds the command, when the line itself holds it (False or None otherwise)."""
        return self.after_pipe and self.output


def _xargs_arguments(arguments, xargs):
    """`xargs -I{} git add {}`: the line goes where `{}` stands, so `{}` is no argument of its own;
    a word that only holds it (`dir/{}`) is made at run time."""
    if xargs is None or xargs.replace is None:
        return arguments, xargs
    arguments = tuple(w for w in arguments if w.value != xargs.replace)
    if any(xargs.replace in w.value for w in arguments):
        xargs = xargs._replace(split=UNKNOWN_SPLIT)
    return arguments, xargs


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
