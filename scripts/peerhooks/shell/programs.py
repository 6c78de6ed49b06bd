"""What the interpreter knows of particular programs: the prefix commands that run the rest of their
words as a command (`sudo`, `env`, `timeout`, `xargs`, …) with the options that take a value, how
xargs cuts its input into the words it adds, a shell's options (`bash -c '…'`, `bash x.sh`, `bash
-s`), and the text `echo`, `printf` and `cat <<EOF` print when the line itself holds it.

Pure tables and functions over words; peerhooks.shell.cmdline walks a line with them.
"""
from ..startup.records import record
from .lexer import Word
from .words import is_assignment

SHELLS = frozenset(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash"])
SHELL_VALUE_OPTIONS = frozenset(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"])

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
    "corepack": frozenset(),  # `corepack pnpm install`: Node's shim runs the package manager named next
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


# The options of a prefix command that change the folder the command runs in.
CHDIR_OPTIONS = {"env": ("-C", "--chdir"), "sudo": ("-D", "--chdir", "-C"), "doas": ("-D", "--chdir", "-C")}


def prefix_end(words, index, name):
    """Past one prefix command at words[index] (`sudo -u x`, `env -C dir`, `timeout 5`, `xargs -0`)
    and its options: (where the command it runs starts, the words naming the folders it changes to,
    in order; None for one whose option lacks its value)."""
    values, folders = PREFIX_VALUE_OPTIONS[name], []
    index += 1
    while index < len(words):
        option = words[index].value
        if option == "--":
            index += 1
            break
        if not option.startswith("-") or option == "-":
            break
        flag, has_value, attached = option.partition("=")
        if flag in CHDIR_OPTIONS.get(name, ()):
            folders.append(Word(attached) if has_value else (words[index + 1] if index + 1 < len(words) else None))
        index += 2 if flag in values and not has_value else 1
    if name == "env":
        while index < len(words) and is_assignment(words[index].value):
            index += 1  # env's own NAME=value operands
    return index + PREFIX_OPERANDS.get(name, 0), folders


def printed(name, arguments, stdin_text):
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


def shell_script(arguments):
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


def runs_a_file(arguments):
    """True when a shell's operands name a script file (then stdin is data, not the script);
    `-s` makes it read the script from stdin whatever follows."""
    for word in arguments:
        if word.value == "-s" or word.value.startswith("-") and "s" in word.value[1:] and not word.value.startswith("--"):
            return False
        if not word.value.startswith(("-", "+")):
            return True
    return False
