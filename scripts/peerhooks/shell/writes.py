"""Which files a simple command writes over, creates or removes: the targets of its redirections,
`tee`, `touch`, `rm`, `sed -i`/`perl -i` (and their backups), `dd of=`, `sort -o`, the destination of
`cp`/`mv`/`install`/`git mv` (and the sources `mv` removes), what `git rm` removes, and the files
code handed to an interpreter (`python3 -c "open('x','w')…"`) may write.

Pure: a command comes as peerhooks.shell.cmdline read it; its words are expanded through
peerhooks.shell.words; the filesystem is asked only through the functions a caller passes
(targets_of's isdir and exists), and code is read only by the context's code_writes
(peerhooks.wrappers hands it in: the shell model knows no wrapper).
"""
from .lexer import Word
from .words import resolve, words_of

# Redirections that write their target.
WRITE_REDIRECTIONS = frozenset([">", ">>", ">|", "&>", "&>>", "<>"])
# Commands whose every operand is a file they write (or remove, which is a change too).
WRITES_ALL_OPERANDS = frozenset(["tee", "touch", "truncate", "rm", "unlink", "shred"])
# Commands whose last operand is the destination (a folder receives the sources' names).
COPIES = frozenset(["cp", "mv", "install", "ln", "rsync"])
IN_PLACE_EDITORS = frozenset(["sed", "perl"])
# Commands that change a file only where it exists (`rm` of a missing file changes nothing, and so
# does `sed -i` of one); those that create one (`touch`, `tee`, `>`, a program) change a missing path too.
REMOVERS = frozenset(["rm", "unlink", "shred"])
# Programs whose code a line may hand them (`python3 -c …`, `node -e …`, `python3 - <<EOF`): the
# context's code_writes reads that code for the files it may write.
INTERPRETER_PREFIXES = ("python", "pypy", "node", "perl", "ruby")

# What a write does where the path is a symlink, as GNU coreutils 9.1, sed 4.9, perl 5.36 and rsync
# 3.2.7 do it (each run on a link in a temporary folder: tests/test_write_through_links.py). Opening
# a path follows the link, so a redirection, tee, truncate, dd, sort -o, touch, shred and cp write
# the link's target and the link stays (THROUGH). These put a new file or link in the link's place,
# or remove it, and the target stays as it was (REPLACED): rm, unlink, mv, install, ln, rsync (a
# temporary file renamed over it), git mv and rm; so do `sed -i` and `perl -i` (sed's
# --follow-symlinks writes the target), and cp told to remove the destination first, to back it up
# (the link is renamed aside) or to make a link. `shred -u` overwrites the target, then removes the
# link; code handed to an interpreter may open the path or remove it: BOTH.
THROUGH, REPLACED, BOTH = "through", "replaced", "both"
REPLACE_LINKS = frozenset(["rm", "unlink", "mv", "install", "ln", "rsync", "git"])
CP_REPLACING_LETTERS, CP_VALUE_LETTERS = "blsS", "St"  # -b, -l, -s, -S SUFFIX (a backup); -t DIR
CP_REPLACING_OPTIONS = ("--remove-destination", "--backup", "--link", "--symbolic-link", "--suffix")


def operands(words):
    """Words after the command name that are not options (everything after `--` is an operand)."""
    found, options_over = [], False
    for word in words:
        if not options_over and word.value == "--":
            options_over = True
        elif options_over or not word.value.startswith("-") or word.value == "-":
            found.append(word)
    return found


def _copy(name, args):
    """(sources it removes, (destination word, source words, whether it is surely a folder))."""
    for position, word in enumerate(args):
        if word.value in ("-t", "--target-directory") and position + 1 < len(args):
            target, rest = args[position + 1], args[:position] + args[position + 2:]
        elif word.value.startswith("--target-directory="):
            target, rest = word._replace(value=word.value.split("=", 1)[1]), args[:position] + args[position + 1:]
        else:
            continue
        sources = operands(rest)
        return (sources if name == "mv" else []), (target, sources, True)
    given = operands(args)
    if len(given) < 2:
        return [], None
    sources = given[:-1]
    return (sources if name == "mv" else []), (given[-1], sources, False)


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


def link_effect(command):
    """What the files a command is given (its operands, its destination) become where the path is a
    symlink: THROUGH, REPLACED or BOTH (above). A redirection always writes through."""
    name, values = command.name, [word.value for word in command.args]
    if name in REPLACE_LINKS:
        return REPLACED
    if name in IN_PLACE_EDITORS and any(_edits_in_place(name, value) for value in values):
        return THROUGH if name == "sed" and "--follow-symlinks" in values else REPLACED
    if name == "cp" and _has_option(values, CP_REPLACING_LETTERS, CP_VALUE_LETTERS, CP_REPLACING_OPTIONS):
        return REPLACED
    if name == "shred" and _has_option(values, "u", "ns", ("--remove",)):
        return BOTH
    if name.startswith(INTERPRETER_PREFIXES):
        return BOTH
    return THROUGH


def _has_option(values, letters, value_letters, long_options):
    """Whether the option words (those before `--`) hold one of long_options (`--backup`,
    `--backup=numbered`) or a letter of letters in a cluster (`-fb`), which ends at a letter taking
    a value (`-S.x`: the rest is the value)."""
    for value in values:
        if value == "--":
            return False
        if value.startswith("--"):
            if value.partition("=")[0] in long_options:
                return True
        elif value.startswith("-"):
            for letter in value[1:]:
                if letter in letters:
                    return True
                if letter in value_letters:
                    break
    return False


def writes_its_operands(command):
    """Whether a command writes over or removes the files it is given (`rm`, `tee`, `sed -i`, ...),
    so the words a find or xargs adds to it are files it writes."""
    if command.name in WRITES_ALL_OPERANDS:
        return True
    return command.name in IN_PLACE_EDITORS and any(_edits_in_place(command.name, w.value) for w in command.args)


def written_by(command, context):
    """(words naming files the command writes, its copy destination or None), where a destination
    is (target word, source words, whether the target is surely a folder)."""
    name, args = command.name, list(command.args)
    if name in WRITES_ALL_OPERANDS:
        return operands(args), None
    if name in COPIES:
        return _copy(name, args)
    if name in IN_PLACE_EDITORS and any(_edits_in_place(name, w.value) for w in args):
        return _edited_in_place(name, args), None
    if name == "dd":
        return [w._replace(value=w.value[3:]) for w in args if w.value.startswith("of=")], None
    if name == "sort":  # `sort -o FILE`: the output file, which may be one of its inputs
        return _output_option(args, "-o", "--output"), None
    if name.startswith(INTERPRETER_PREFIXES):
        return _code_writes(command, context), None
    if name == "git" and args and args[0].value == "mv":
        return _copy("mv", args[1:])
    if name == "git" and args and args[0].value == "rm":  # a staged deletion is a change too
        return operands(args[1:]), None
    return [], None


def _code_writes(command, context):
    """The words naming the files code handed to an interpreter may write, as the context's reader
    finds them (peerhooks.wrappers.inline_code); none without a reader."""
    if context.code_writes is None:
        return []
    return [Word(value) for value in context.code_writes(command)]


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



def _changes_only_what_exists(command):
    return command.name in REMOVERS or command.name in IN_PLACE_EDITORS and writes_its_operands(command)


def targets_of(found, context, isdir=None, exists=None, landing=None):
    """[(path, is_pattern, command)] of the files the commands write, each with the command that
    writes it. isdir(path): the caller's look at the filesystem, whether a copy's destination is an
    existing folder (None: take it for a file). exists(path, command): whether a path is there when
    the command runs (None: not known). `rm` or `sed -i` of a missing path, a copy or move whose
    every source is missing, and `touch` of a file that is there (it sets times only) write nothing
    (git sees no change). landing(path): the file a write opening the path reaches when it is a
    symlink (None: every path as written); each write is then named where it lands (link_effect)."""
    return [(path, pattern, command) for command in found
            for path, pattern in _targets_of_command(command, context, isdir, exists, landing)]


def _targets_of_command(command, context, isdir, exists, landing):
    """[(path, is_pattern)] one command writes: its redirections', its operands', its destination's."""
    found = []
    for word in command.writes:
        _add(found, word, command, context, landing, THROUGH)
    effect = link_effect(command) if landing is not None else REPLACED
    written, destination = written_by(command, context)
    if exists is not None:
        if landing is not None and command.name not in REPLACE_LINKS:  # it opens the path: a link's target counts
            exists = _through(exists, landing)
        written = _changing(command, written, context, exists)
        if destination is not None and destination[1] and \
                all(_there(source, command, context, exists) is False for source in destination[1]):
            destination = None  # "cannot stat": nothing is copied or moved
    for word in written:
        _add(found, word, command, context, landing, effect)
    if destination is not None:
        found.extend((landed, pattern) for path, pattern in _destination(destination, command, context, isdir)
                     for landed in _landed(path, pattern, landing, effect))
    return found


def _through(exists, landing):
    """exists() asked of the file a path leads to (a command opening a dangling link finds nothing)."""
    return lambda path, command: exists(landing(path), command)


def _landed(path, pattern, landing, effect):
    """The paths a write of `path` changes: itself, the file a link there leads to, or both."""
    if landing is None or pattern or effect == REPLACED:
        return (path,)
    reached = landing(path)
    if reached == path:
        return (path,)
    return (reached,) if effect == THROUGH else (path, reached)


def _changing(command, written, context, exists):
    """The written words that change something where exists() can tell: not a missing path `rm` or
    `sed -i` would open (nor the backup sed cannot make of it), not a file `touch` finds there."""
    if _changes_only_what_exists(command) or command.name == "mv":
        missing = {w.value for w in written if _there(w, command, context, exists) is False}
        suffix = backup_suffix(command.name, command.args) if command.name in IN_PLACE_EDITORS else ""
        written = [w for w in written if w.value not in missing
                   and not (suffix and w.value.endswith(suffix) and w.value[:-len(suffix)] in missing)]
    if command.name == "touch":  # it sets times: it changes a file only by creating it
        creates = not any(w.value in ("-c", "--no-create") for w in command.args)
        written = [w for w in written if _there(w, command, context, exists) in ((None, False) if creates else (None,))]
    return written


def _destination(destination, command, context, isdir):
    """[(path, is_pattern)] a copy or move writes: the destination, or in a folder each source's name."""
    target, sources, into_folder = destination
    resolved = resolve(target, command.cwd, context, _variables(command))
    if resolved is None:
        return []
    if not (into_folder or target.value.endswith("/") or len(sources) > 1 or isdir is not None and isdir(resolved)):
        return [(resolved, target.glob)]
    found = []
    for source in sources:
        name = context.paths.basename(source.value.rstrip("/"))
        if name:
            found.append((context.paths.join(resolved, name), source.glob or target.glob))
    return found


def _there(word, command, context, exists):
    """Whether the path a literal word names is there when the command runs: True, False, or None
    (not known: a pattern, an expansion, or the caller cannot tell)."""
    if word.glob or word.expanded or word.brace:
        return None
    resolved = resolve(word, command.cwd, context, _variables(command))
    return exists(resolved, command) if resolved is not None else None


def _variables(command):
    """The variables the line assigned before the command (`F=a.py; echo x > "$F"` writes a.py)."""
    return dict(command.variables) if command.variables else None


def _add(targets, word, command, context, landing=None, effect=REPLACED):
    variables = _variables(command)
    for each in words_of(word):
        resolved = resolve(each, command.cwd, context, variables)
        if resolved is not None and resolved != "/dev/null":
            targets.extend((path, each.glob) for path in _landed(resolved, each.glob, landing, effect))
