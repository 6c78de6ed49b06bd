"""cmdline's follower (peerhooks.shell.cmdline.Context.follow) for one judgement: for one simple command,
what it runs, as command lines cmdline walks as if typed, each tagged with a cmdline.Via naming the
wrapper (`make commit` runs `git add -A && git commit -m save`), or as a marker that names a git
kind: MOVE_HEAD / RESET_ALL / WRITE_REFS for `gh`, UNFOLLOWED where what runs mentions git and cannot
be followed (a `$(eval …)`, a script too big to read, `['git', cmd]`). Nothing it cannot follow is
taken as safe.

Pure apart from `read`, the function it is given: path -> text, None when absent, Unreadable when it
must not be read (peerhooks.wrappers.reader reads the checkout; tests pass a dict). Every path is
looked up at most once per judgement, at most files.MAX_FILES of them; the lines it hands back are bounded
too, and so is the nesting (cmdline's MAX_DEPTH: make running a script running make …).
"""

from ..startup import oscalls
from ..shell.cmdline import MAX_DEPTH, Followed, Via
from ..shell.programs import SHELLS, shell_script_file
from ..shell.words import expand, resolve
from ..shell.writes import INTERPRETER_PREFIXES
from ..shell.lexer import TooLarge, quote
from .files import Files, Outside, Unreadable

MAX_LINES = 512  # command lines handed back in one judgement (a recipe line, a script, a call)
MAX_TEXT = 128 * 1024  # characters of them: a whole script is one line (see MAX_FILE_BYTES)
MAX_SHOWN = 100  # characters of a wrapper or of what it runs, as named in a reason

MAKES = frozenset(["make", "gmake"])
PACKAGE_MANAGERS = frozenset(["npm", "npx", "yarn", "pnpm", "bun", "bunx"])
SOURCING = frozenset(["source", "."])


def shown(text):
    """A wrapper or what it runs as a reason names it: one line, at most MAX_SHOWN characters."""
    text = " ".join(text.split())
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 1] + "…"


def written_as(command):
    """The command as the line wrote it (`./scripts/commit.sh -q`), for a reason."""
    words = [command.path_word.value if command.path_word is not None else command.name]
    words += [_readable(w.value) for w in command.args]
    return shown(" ".join(words))


def _readable(text):
    """A word quoted for a reader: in double quotes when it holds single quotes and nothing a
    double-quoted word would expand (`-c "import os; os.system('git add -A')"`)."""
    if "'" in text and not any(c in text for c in '"$`\\'):
        return '"' + text + '"'
    return quote(text)


class Follower:
    """cmdline's follower for one judgement: (command, context, stdin, written) -> [Followed]."""

    def __init__(self, read):
        self.files = Files(read)
        self.lines = 0
        self.text = 0

    def __call__(self, command, context, stdin, written):
        kind = _kind(command)
        if kind is None:
            return []
        wrapper = written_as(command)
        if command.depth >= MAX_DEPTH:
            return [unfollowed(command, wrapper, "wrappers nested more than %d deep" % MAX_DEPTH)]
        try:
            found = kind(self, command, context, stdin, written, wrapper)
        except TooLarge as error:  # past a bound of a parser (code too long to read): said as such
            found = [unfollowed(command, wrapper, str(error))]
        except (ValueError, LookupError, TypeError, RecursionError) as error:
            # A hostile file the parsers trip on must not silence the judgement of the whole line.
            found = [unfollowed(command, wrapper, "the guard could not read what it runs (%s)" % type(error).__name__)]
        kept = []
        for followed in found:
            size = len(followed.line or "")
            if self.lines >= MAX_LINES or self.text + size > MAX_TEXT:
                kept.append(unfollowed(command, wrapper, "more than the guard follows in one judgement (%d "
                                       "command lines, %d KB)" % (MAX_LINES, MAX_TEXT // 1024)))
                break
            self.lines += 1
            self.text += size
            kept.append(followed)
        return kept


def unfollowed(command, wrapper, why):
    """The marker for what cannot be followed: the guard asks beside a live peer."""
    from ..git.kinds import UNFOLLOWED  # seam: only code the guard cannot read needs the git model's word

    return Followed(None, command.cwd, Via(wrapper, why), UNFOLLOWED)


def marker(command, wrapper, kind):
    return Followed(None, command.cwd, Via(wrapper), kind)


def word_values(command, context):
    """The command's words as they will run, None for each one only the running shell knows."""
    return [expand(w, command.cwd, context, dict(command.variables)) for w in command.args]


def environment(command, context):
    """{name: value} the command's environment is known to hold (its exported and prefixed
    assignments): make reads them as variables."""
    found = {}
    for name, word in command.env:
        value = expand(word, command.cwd, context, dict(command.variables))
        if value is not None:
            found[name] = value
    return found


# -- the kinds of wrapper ---------------------------------------------------------------------------

def _kind(command):
    name = command.name
    if name in MAKES:
        return _make
    if name in PACKAGE_MANAGERS:
        return _package_script
    if name == "gh":
        return _github_cli
    if name in SHELLS or name in SOURCING:
        return _shell_script_operand
    if name.startswith(INTERPRETER_PREFIXES):
        return _inline_code
    if command.path_word is not None and "/" in command.path_word.value and not command.path_word.expanded:
        return _script_file
    return None


def _make(follower, command, context, stdin, written, wrapper):
    from . import make_functions, make_invocation, makefile  # seam: a wrapper family, loaded for a line that runs make

    values = word_values(command, context)
    if None in values:
        why = "a make argument known only when it runs"
        return [unfollowed(command, wrapper, why)]
    invocation = make_invocation.Invocation(values, command.cwd)

    def read(path):
        return follower.files.text(path, written)

    lines, unknown = makefile.follow(invocation, read, environment(command, context))
    found = [Followed(line, invocation.directory, Via(wrapper, shown(line.replace(make_functions.UNKNOWN_WORD, "…"))))
             for line, _parsing in lines]
    if unknown:
        found.append(unfollowed(command, wrapper, shown("; ".join(unknown))))
    return found


def _package_script(follower, command, context, stdin, written, wrapper):
    """`npm run S`, `npm install`, `npx x`, `yarn workspace a S`, …: the package's scripts and
    binaries the line runs (package_scripts reads the line, package_runs the checkout)."""
    from . import package_runs, package_scripts  # seam: a wrapper family, loaded for a line that runs npm, yarn, pnpm or bun

    run = package_scripts.invocation(command.name, word_values(command, context), command.cwd)
    if run is None:
        return []
    if run.unknown:
        return [unfollowed(command, wrapper, run.unknown)]
    found, why = package_runs.follow(run, follower.files, written, context.toplevel, command.cwd)
    followed = [Followed(f.line, f.folder, Via(wrapper, shown(f.shown or f.line))) for f in found]
    if why is not None:
        followed.append(unfollowed(command, wrapper, why))
    return followed


def _github_cli(follower, command, context, stdin, written, wrapper):
    from . import github_cli  # seam: a wrapper family, loaded for a line that runs gh

    kind = github_cli.effect([w.value for w in command.args])
    return [marker(command, wrapper, kind)] if kind is not None else []


def _shell_script_operand(follower, command, context, stdin, written, wrapper):
    """`bash x.sh`, `sh -e x.sh`, `source x.sh`, `. x.sh`: the script file the shell runs."""
    operand = command.args[0] if command.name in SOURCING and command.args else shell_script_file(command.args)
    if operand is None:
        return []
    return _script(follower, command, context, written, wrapper, operand, shell_known=True,
                   same_shell=command.name in SOURCING)


def _script_file(follower, command, context, stdin, written, wrapper):
    """`./scripts/commit.sh`, `scripts/release`: a file run by its path, a shell script when its
    first line names a shell (or names nothing: the shell then runs it itself)."""
    return _script(follower, command, context, written, wrapper, command.path_word, shell_known=False,
                   same_shell=False)


def _script(follower, command, context, written, wrapper, word, shell_known, same_shell):
    path = resolve(word, command.cwd, context, dict(command.variables))
    if path is None:
        return []
    try:
        text = follower.files.text(path, written)
    except Outside:
        return []  # outside every checkout: not followed
    except Unreadable as error:
        return [unfollowed(command, wrapper, "%s: %s" % (word.value, error))]
    if text is None:
        return []
    if not shell_known:
        language = _interpreter_of(text)
        if language is not None and path in written:
            return _code_lines(command, wrapper, text, language)  # a program the line itself wrote
        if language is not None or not _is_shell_script(text):
            return []  # a program, or a script of another language, from the disk: not followed
    return [Followed(text, command.cwd, Via(wrapper), same_shell=same_shell)]


def _is_shell_script(text):
    """A first line naming a shell (`#!/bin/bash`, `#!/usr/bin/env bash`), or naming nothing in a
    text file (the shell runs a file without `#!` itself); a binary program is no script."""
    if not text.startswith("#!"):
        return "\0" not in text[:1024]
    program = _shebang_program(text)
    return program in SHELLS


def _interpreter_of(text):
    """The language of a script whose first line names python, node, perl or ruby, else None."""
    from . import inline_code  # seam: a wrapper family (~0.3 ms), loaded where a command may run code

    program = _shebang_program(text)
    return inline_code.language_of(program) if program else None


def _shebang_program(text):
    """The program a `#!` line names (`bash` for `#!/usr/bin/env -S bash -e`), or None."""
    if not text.startswith("#!"):
        return None
    words = text[2:text.find("\n") if "\n" in text else len(text)].split()
    if words and oscalls.posixpath.basename(words[0]) == "env":
        words = [w for w in words[1:] if not w.startswith("-")]
    return oscalls.posixpath.basename(words[0]) if words else None


def _inline_code(follower, command, context, stdin, written, wrapper):
    from . import inline_code  # seam: a wrapper family (~0.3 ms), loaded where a command may run code

    language = inline_code.language_of(command.name)
    if language is None:
        return []
    code = inline_code.code_given(language, [w.value for w in command.args], stdin)
    if code is None:
        script = inline_code.script_operand(language, [w.value for w in command.args])
        if script is None:
            return []
        path = oscalls.posixpath.normpath(oscalls.posixpath.join(command.cwd, script)) if command.cwd else None
        if path is None or path not in written:
            return []  # a program file is not followed; one the line wrote is read from the line
        try:
            code = follower.files.text(path, written)
        except Unreadable as error:
            return [unfollowed(command, wrapper, "%s: %s" % (script, error))]
    return _code_lines(command, wrapper, code, language)


def _code_lines(command, wrapper, code, language):
    from . import inline_code  # seam: a wrapper family (~0.3 ms), loaded where a command may run code

    lines, leftover = inline_code.git_lines(code, language)
    found = [Followed(line, command.cwd, Via(wrapper, shown(line))) for line in lines]
    if leftover:
        found.append(unfollowed(command, wrapper, "its code mentions git in a way the guard cannot read"))
    return found
