"""What a written word becomes when Bash runs it: its expansions replaced by their values where they
are knowable here (`~`, `$HOME`, `$PWD`, `$(pwd)`, `$(git rev-parse --show-toplevel)` and the
variables the line itself assigned), what an unquoted expansion yields split into fields (`F="src
lib"; git add $F` adds two paths, `"$F"` one), brace lists (`{src,lib}/`), and the path a word names.

Pure: what may be known beyond the line comes in a context (peerhooks.shell.cmdline.Context: the
user's home, a folder's checkout toplevel, the platform's path flavour).
"""
from .lexer import TooLarge, variable_name_end

# The substitutions whose output is knowable here: the checkout's toplevel, the current folder.
_TOPLEVEL_SUBSTITUTIONS = ("$(git rev-parse --show-toplevel)", "`git rev-parse --show-toplevel`")
_PWD_SUBSTITUTIONS = ("$(pwd)", "`pwd`", "$(pwd -P)", "$(pwd -L)")
# Bash's default IFS: the blanks at which what an unquoted expansion yields is split into words.
IFS_BLANKS = " \t\n"
# A line that sets IFS (`IFS=,`, `export IFS=…`) splits unquoted expansions at characters only the
# running shell knows: their words are then unknown here.
IFS = "IFS"
# `for f in a b c; do … done` runs its body once per word; past this many words (or with a word
# only the running shell knows) the body is read once with `$f` unknown.
MAX_LOOP_VALUES = 64
# The words one written word's braces make (`f{1..3}`, `{src,lib}/`), and their characters: past
# these the line is not read (TooLarge), or a loop over it is read with its variable unknown.
MAX_BRACE_WORDS = 256
MAX_BRACE_CHARS = 1024 * 1024


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


def expand(word, cwd, context, variables=None):
    """The value a word will have when it runs, or None when only the running shell can know it
    (a variable the line did not set, a command substitution other than pwd / the toplevel) or
    when it runs as other than one word (an unquoted `$F` holding blanks)."""
    found = fields(word, cwd, context, variables)
    return found[0] if found is not None and len(found) == 1 else None


def fields(word, cwd, context, variables=None):
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


def assigned_value(word, cwd, context, variables=None):
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


def resolve(word, cwd, context, variables=None):
    """The absolute path a word names, or None when it cannot be known here."""
    value = expand(word, cwd, context, variables)
    if not value:
        return None
    return context.paths.resolve(value, cwd)


def brace_expand(value):
    """Bash's brace expansion of one word (`{src,lib}/` -> `src/`, `lib/`; `f{1..3}`), outermost
    first; a word without a list is itself. Raises TooLarge past MAX_BRACE_WORDS words or
    MAX_BRACE_CHARS characters (`{a,b}{a,b}…` doubles with each pair): a cut list would leave
    the rest of its words unjudged."""
    pieces, count, position = [], 1, 0  # the alternatives of each piece, in order
    while True:
        close = value.find("}", position)
        opening = value.rfind("{", position, close) if close >= 0 else -1
        if opening < 0:
            pieces.append([value[position:]])
            break
        choices = _brace_choices(value[opening + 1:close])
        if choices is None:  # no list: the braces are text
            pieces.append([value[position:close + 1]])
        else:
            count *= len(choices)
            if count > MAX_BRACE_WORDS or count * len(value) > MAX_BRACE_CHARS:
                raise TooLarge("a word whose braces make more than %d words" % MAX_BRACE_WORDS)
            pieces.extend(([value[position:opening]], choices))
        position = close + 1
    words, text = [""], []
    for alternatives in pieces:  # the text between lists joined once: a word may hold thousands of braces
        if len(alternatives) == 1:
            text.append(alternatives[0])
            continue
        prefix = "".join(text)
        words, text = [w + prefix + choice for w in words for choice in alternatives], []
    rest = "".join(text)
    return [w + rest for w in words]


def _brace_choices(inner):
    """The words a brace list stands for (`a,b`, `1..3`), or None when the braces hold no list."""
    if "," in inner:
        return inner.split(",")
    low, dots, high = inner.partition("..")
    if not dots or not _is_integer(low) or not _is_integer(high):
        return None
    low, high = int(low), int(high)
    if abs(high - low) >= MAX_BRACE_WORDS:
        raise TooLarge("a word whose braces make more than %d words" % MAX_BRACE_WORDS)
    step = 1 if high >= low else -1
    return [str(n) for n in range(low, high + step, step)]


def _is_integer(text):
    return text.lstrip("-").isdigit()


def words_of(word):
    """The words one written word becomes after brace expansion."""
    if not word.brace:
        return [word]
    return [word._replace(value=v, brace=False) for v in brace_expand(word.value)]


def one_substitution(word):
    """Whether a word is one `$(…)` and nothing else, whose value only running it gives."""
    return len(word.substitutions) == 1 and word.value.startswith("$(") and word.value.endswith(")")


def loop_values(words, cwd, context, variables):
    """The values a `for` loop's words give, as Bash expands them (fields split, braces, globs
    against the file system through context.glob), or None when one is known only at run time or
    there are more than MAX_LOOP_VALUES."""
    if words is None:
        return None  # `for f; do`: the positional parameters
    values = []
    for written in words:
        try:
            each = words_of(written)
        except TooLarge:
            return None  # past MAX_LOOP_VALUES anyway
        for word in each:
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
