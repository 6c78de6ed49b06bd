"""Whether a `sed -i` or `perl -pi` rewrite can change a file, from the file as it is now. Pure.

Why: `sed -i 's/old/new/' f` whose pattern matches nothing in f writes f back byte for byte, so
beside a peer's uncommitted f it harms no one (the corpus labels it harmless), yet a guard that
reads only the line must refuse it. Only the forms modelled exactly are judged; anything else may
change the file:
- sed: `-i` (a backup suffix writes the backup, a file of its own), `-e`, `-E`/`-r`, `-s`, `-u`,
  `-z`; a script of `s` commands
  without addresses, separated by `;` or newlines, flags `g`, `p`, `i`/`I` and a number (none of
  them acts without a match; `w`, `e` and `m` do, or change what matches);
- perl: one switch cluster of `p`, `w` and `i` (its backup as sed's) then `-e` with one `s/…/…/` and flags
  `g`, `i`, `e` (the replacement runs only on a match);
- patterns of literal characters, `.`, bracket lists without ranges (but digit ranges), POSIX
  classes or backslashes, `^` first, `$` last, groups (not quantified), alternation and the
  quantifiers of the dialect (BRE, ERE, or perl's with lazy forms); `\\t`, `\\n` and escaped
  punctuation. Back-references, `\\<`, `\\w`, `\\b`, perl's `(?…)` and interpolation may change.
A file holding a byte over 0x7f is judged only for a pattern of literal characters matched with
case: the locale decides what `.`, a list or `I` match there.

  rewrite_of(name, args, fed) -> Rewrite | None   (no `re`: cheap for every in-place editor)
  may_change(rewrite, data)   -> bool           (imports `re` only when a literal cannot decide)
"""
from ..startup.records import record

SED, PERL = "sed", "perl"
BRE, ERE, PERL_RE = "bre", "ere", "perl"
# A regex search is needed only when a pattern's literal runs are all in the file; it may backtrack
# (`x.*y` on a line of x's is quadratic in the line's length), so it runs only within these bounds
# (~10^8 steps at worst), else the file may change.
MAX_SEARCHED_BYTES = 128 * 1024
MAX_LINE_CHARS = 1024
MAX_QUANTIFIERS = 1  # per pattern: `.*x.*y` is cubic

Pattern = record("Pattern", "dialect source ignore_case", (), """One `s` command's pattern: its
    dialect (BRE, ERE, PERL_RE), its text as the program reads it, and whether case is ignored.""")

Rewrite = record("Rewrite", "program patterns separator", (), """What a modelled rewrite does: SED
    or PERL, its patterns (the file is unchanged when none matches any line), and the line
    separator ("\\n", or "\\0" for `sed -z`).""")

_SED_FLAG_LETTERS = frozenset("gpiI0123456789")
_PERL_FLAG_LETTERS = frozenset("gie")


def rewrite_of(name, args, fed=False):
    """The Rewrite of `sed`/`perl` with these argument words (shell Words or strings), or None when
    the command is not one of the forms modelled. fed: its files come at run time (`find -exec`)."""
    values = [getattr(word, "value", word) for word in args]
    if name == SED:
        return _sed(values, fed)
    if name == PERL:
        return _perl(values, fed)
    return None


def _sed(values, fed):
    scripts, operands, extended, separator, in_place = [], [], False, "\n", False
    index = 0
    while index < len(values):
        value = values[index]
        index += 1
        if value == "--":
            operands.extend(values[index:])
            break
        if value in ("--in-place", "--expression", "--regexp-extended", "--separate", "--unbuffered",
                     "--null-data") or value.startswith(("--expression=", "--in-place=")):
            if value.startswith("--in-place"):
                if "*" in value:
                    return None
                in_place = True
            elif value == "--expression":
                if index >= len(values):
                    return None
                scripts.append(values[index])
                index += 1
            elif value.startswith("--expression="):
                scripts.append(value.split("=", 1)[1])
            elif value == "--regexp-extended":
                extended = True
            elif value == "--null-data":
                separator = "\0"
            continue
        if value.startswith("-") and value != "-":
            # -n writes only what is printed; -f, -l, --posix, ... are not modelled
            cluster = _switches(value[1:], values, index, "Erzsu")
            if cluster is None:
                return None
            letters, script, index = cluster
            in_place = in_place or "i" in letters
            extended = extended or bool(letters & {"E", "r"})
            separator = "\0" if "z" in letters else separator
            if script is not None:
                scripts.append(script)
            continue
        operands.append(value)
    if not scripts:
        if not operands:
            return None
        scripts, operands = [operands[0]], operands[1:]
    if not in_place or not operands and not fed:
        return None
    patterns = []
    for script in scripts:
        found = _sed_script(script, ERE if extended else BRE)
        if found is None:
            return None
        patterns.extend(found)
    return Rewrite(SED, tuple(patterns), separator) if patterns else None


def _switches(letters, values, index, plain):
    """One cluster of single-letter switches (`-pi`, `-Ei`, `-e 's/a/b/'`): (the letters seen, the
    script `e` gives or None, the index of the next word), or None for a letter outside `plain`,
    `i` and `e`. What follows `i` is a backup suffix (`-i.bak`; perl's `-ip`, where `p` is the
    suffix): the file itself is rewritten as without it, and the backup, another file, is written
    whatever the patterns match (shell.writes names it as a write of its own)."""
    seen, position = set(), 0
    while position < len(letters):
        letter = letters[position]
        position += 1
        if letter == "i":
            if "*" in letters[position:]:
                return None  # a backup named by a pattern (`-i'bak/*'`): not modelled
            seen.add("i")
            return seen, None, index  # the rest is the backup suffix, a file of its own (shell.writes)
        elif letter == "e":
            script = letters[position:]
            if not script:
                if index >= len(values):
                    return None
                script, index = values[index], index + 1
            return seen, script, index
        elif letter in plain:
            seen.add(letter)
        else:
            return None
    return seen, None, index


def _sed_script(script, dialect):
    """The patterns of a script made only of `s` commands, or None."""
    patterns, at = [], 0
    if script.startswith("#n"):
        return None  # `#n` on the first line is -n
    while True:
        while at < len(script) and script[at] in " \t\n;":
            at += 1
        if at == len(script):
            return patterns
        if script[at] != "s" or at + 1 >= len(script):
            return None  # an address, or a command other than `s`
        found = _substitution(script, at + 1, _SED_FLAG_LETTERS)
        if found is None:
            return None
        source, flags, at = found
        if not source:
            return None  # `s//x/` reuses the last pattern
        patterns.append(Pattern(dialect, source, "i" in flags or "I" in flags))
        while at < len(script) and script[at] in " \t":
            at += 1
        if at < len(script) and script[at] not in ";\n":
            return None  # `}`, a comment, or something after the flags


def _substitution(script, at, letters):
    """(pattern, flags, end) of `s<d>pattern<d>replacement<d>flags` from the delimiter at `at`, the
    pattern with `\\<d>` made plain; None when the delimiter is one a pattern could mean otherwise."""
    delimiter = script[at]
    if delimiter in "\\\n" or delimiter.isalnum() or delimiter.isspace():
        return None
    parts, current, at = [], [], at + 1
    while len(parts) < 2:
        if at >= len(script):
            return None
        char = script[at]
        if char == "\\" and at + 1 < len(script):
            following = script[at + 1]
            if following == delimiter:
                if len(parts) == 0 and delimiter in ".*[]^$+?(){}|":
                    return None  # `\|` with `|` as delimiter: literal or special, the program decides
                current.append(following)
            else:
                current.append(char + following)
            at += 2
            continue
        if char == delimiter:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
        at += 1
    flags_end = at
    while flags_end < len(script) and script[flags_end] not in " \t\n;}":
        if script[flags_end] not in letters:
            return None
        flags_end += 1
    return parts[0], script[at:flags_end], flags_end


def _perl(values, fed):
    switches, script, operands, index = set(), None, [], 0
    while index < len(values):
        value = values[index]
        index += 1
        if script is None and value.startswith("-") and len(value) > 1 and not value.startswith("--"):
            cluster = _switches(value[1:], values, index, "pw")  # -n, -l (line ends), -0, -a, -M, ...: not modelled
            if cluster is None:
                return None
            letters, script, index = cluster
            switches |= letters
            continue
        if value == "--" and script is not None:
            operands.extend(values[index:])
            break
        if script is None:
            return None  # a program file, or switches after it
        operands.append(value)
    if script is None or "p" not in switches or "i" not in switches or not operands and not fed:
        return None
    text = script.strip().rstrip(";").rstrip()
    if not text.startswith("s") or len(text) < 2:
        return None
    found = _substitution(text, 1, _PERL_FLAG_LETTERS)
    if found is None or found[2] != len(text) or not found[0]:
        return None
    if text[1] in "{[(<'":
        return None  # bracketing delimiters, and `'` (no interpolation) read otherwise
    return Rewrite(PERL, (Pattern(PERL_RE, found[0], "i" in found[1]),), "\n")


# -- the patterns ---------------------------------------------------------------------------------

Translated = record("Translated", "regex literals wildcard quantifiers", (), """A pattern as Python's `re`
    reads it, the runs of literal text every match holds (empty under alternation), whether it
    holds something other than literal characters (`.`, a list), and how many quantifiers.""")

_PUNCTUATION = frozenset(".*[]^$\\/+?(){}|-&#%!,:;=<>@~'\"")


def translate(pattern):
    """The Translated form of a Pattern, or None when it is not one modelled exactly."""
    if any(ord(c) > 0x7e or (ord(c) < 0x20 and c != "\t") for c in pattern.source):
        return None
    try:
        return _Translation(pattern.source, pattern.dialect).read()
    except _NotModelled:
        return None


class _NotModelled(Exception):
    """A pattern, or a part of one, whose meaning is not modelled exactly."""


class _Translation:
    """One pattern read a character at a time into Python's regex: the regex so far, the literal
    run being read, and what a quantifier met next would apply to."""

    def __init__(self, source, dialect):
        self.source, self.dialect = source, dialect
        self.out, self.literals, self.run = [], [], []
        self.wildcard, self.quantifiers, self.depth, self.alternation = False, 0, 0, False
        self.at = 0
        self.start = True  # where a BRE `*` is literal (first, after `\(`, `\|`, a leading `^`)
        self.previous = None  # what a quantifier would apply to: "atom", "group", or None

    def read(self):
        while self.at < len(self.source):
            char = self._special()
            if char is not None:
                _SPECIAL_STEPS.get(char, _Translation.literal)(self, char)
        if self.depth:
            raise _NotModelled()
        self.end_run()
        return Translated("".join(self.out), () if self.alternation else tuple(self.literals), self.wildcard,
                          self.quantifiers)

    def _special(self):
        """The next character that may mean something in the dialect, past it; None when it was
        read as a literal (an escaped one, or one BRE spells with a backslash to make special)."""
        char = self.source[self.at]
        if char != "\\":
            self.at += 1
            if self.dialect == BRE and char in "(){}|+?":
                self.literal(char)
                return None
            return char
        following = self.source[self.at + 1:self.at + 2]
        if not following:
            raise _NotModelled()
        self.at += 2
        if self.dialect == BRE and following in "(){}|+?":
            return following  # BRE spells the specials with a backslash
        if following in _ESCAPED_LITERALS:
            self.literal(_ESCAPED_LITERALS[following])
        elif following in _PUNCTUATION and following not in "<>'":
            self.literal(following)
        else:
            raise _NotModelled()  # back-references, \< \w \b \s \d \A \z \x..: not modelled
        return None

    def end_run(self):
        if self.run and self.depth == 0:
            self.literals.append("".join(self.run))
        self.run.clear()

    def literal(self, char):
        self.out.append("\\" + char if char in _PUNCTUATION or char in " \t" else char)
        if self.depth == 0:
            self.run.append(char)
        self.previous, self.start = "atom", False

    def caret(self, _char):
        if self.at != 1:
            raise _NotModelled()  # an anchor or a literal, by dialect and place
        self.out.append("^")  # `start` stays: `^*` is a literal star in BRE

    def dollar(self, _char):
        if self.at != len(self.source):
            raise _NotModelled()  # mid-pattern: a literal, an anchor or (perl) a variable
        self.end_run()
        self.out.append("$" if self.dialect == PERL_RE else r"\Z")

    def at_sign(self, char):
        if self.dialect == PERL_RE:
            raise _NotModelled()  # interpolation
        self.literal(char)

    def any_character(self, _char):
        self.end_run()
        self.out.append(".")
        self.wildcard, self.previous, self.start = True, "atom", False

    def bracket_list(self, _char):
        end = _bracket_end(self.source, self.at)
        listed = _bracket(self.source[self.at - 1:end + 1]) if end is not None else None
        if listed is None:
            raise _NotModelled()
        self.end_run()
        self.out.append(listed)
        self.at = end + 1
        self.wildcard, self.previous, self.start = True, "atom", False

    def open_group(self, _char):
        if self.dialect == PERL_RE and self.source.startswith("?", self.at):
            raise _NotModelled()  # (?…): code, lookaround, flags
        self.end_run()
        self.out.append("(")
        self.depth, self.previous, self.start = self.depth + 1, None, True

    def close_group(self, _char):
        if self.depth == 0:
            raise _NotModelled()
        self.out.append(")")
        self.depth, self.previous, self.start = self.depth - 1, "group", False

    def alternative(self, _char):
        self.end_run()
        self.alternation = self.alternation or self.depth == 0
        self.out.append("|")
        self.previous, self.start = None, True

    def close_brace(self, char):
        if self.dialect != BRE:
            raise _NotModelled()
        self.literal(char)

    def quantifier(self, char):
        if char == "*" and self.start and self.dialect == BRE:
            self.literal("*")
            return
        if self.previous != "atom":
            raise _NotModelled()  # a quantified group backtracks without bound; a leading one is unclear
        zero = self._bounds() if char == "{" else char != "+"
        if char != "{":
            self.out.append(char)
        if self.dialect == PERL_RE and self.source.startswith("?", self.at):
            self.out.append("?")  # lazy
            self.at += 1
        if self.run:  # the quantified character leaves the literal run
            last = self.run.pop()
            self.end_run()
            if not zero:
                self.run.append(last)
                self.end_run()
        self.quantifiers += 1
        self.previous = None

    def _bounds(self):
        """`{n}`, `{n,}`, `{n,m}` (BRE: `\\{…\\}`) after the `{`: whether it allows zero."""
        close = self.source.find("\\}" if self.dialect == BRE else "}", self.at)
        body = self.source[self.at:close] if close >= 0 else ""
        low, comma, high = body.partition(",")
        if not low.isdigit() or not (high.isdigit() or high == "") or (not comma and high):
            raise _NotModelled()
        self.out.append("{%s}" % body)
        self.at = close + (2 if self.dialect == BRE else 1)
        return int(low) == 0


_ESCAPED_LITERALS = {"t": "\t", "n": "\n"}
# What each character that may mean something does (any other is a literal).
_SPECIAL_STEPS = {
    "^": _Translation.caret, "$": _Translation.dollar, "@": _Translation.at_sign, ".": _Translation.any_character,
    "[": _Translation.bracket_list, "(": _Translation.open_group, ")": _Translation.close_group,
    "|": _Translation.alternative, "*": _Translation.quantifier, "+": _Translation.quantifier,
    "?": _Translation.quantifier, "{": _Translation.quantifier, "}": _Translation.close_brace,
}


def _bracket_end(source, at):
    """The index of the `]` closing a list opened before `at` (`]` first is a member)."""
    at += 1 if at < len(source) and source[at] == "^" else 0
    at += 1 if at < len(source) and source[at] == "]" else 0
    end = source.find("]", at)
    return end if end >= 0 else None


def _bracket(text):
    """A list `[...]` as Python writes it: members plain characters or digit ranges; None for a
    POSIX class, a backslash (its meaning varies by program) or a range of letters (locales order
    them differently)."""
    body, negated = text[1:-1], False
    if body.startswith("^"):
        body, negated = body[1:], True
    if not body or "\\" in body or "[" in body:
        return None
    members, at = [], 0
    while at < len(body):
        char = body[at]
        if at + 2 < len(body) and body[at + 1] == "-":
            high = body[at + 2]
            if not (char.isdigit() and high.isdigit() and char <= high):
                return None
            members.append("%s-%s" % (char, high))
            at += 3
            continue
        members.append("\\" + char if not char.isalnum() else char)
        at += 1
    return "[" + ("^" if negated else "") + "".join(members) + "]"


def may_change(rewrite, data):
    """Whether the rewrite may change a file holding `data` (bytes): True unless no pattern matches
    any of its lines, as the program splits them."""
    text = data.decode("latin-1")  # one character a byte: what the program matches, byte for byte
    plain = max(data, default=0) < 0x80
    pending = []
    for pattern in rewrite.patterns:
        found = translate(pattern)
        if found is None:
            return True
        if not plain and (found.wildcard or pattern.ignore_case):
            return True  # the locale decides what `.`, a list or a case-blind letter matches there
        haystack = text.lower() if pattern.ignore_case else text
        if any((run.lower() if pattern.ignore_case else run) not in haystack for run in found.literals):
            continue  # a run every match holds is nowhere in the file
        pending.append((pattern, found))
    if not pending:
        return False
    if len(data) > MAX_SEARCHED_BYTES:
        return True
    parts = text.split(rewrite.separator)
    ends = "\n" if rewrite.program == PERL else ""  # perl -p reads each line with its "\n"; sed without
    lines = [part + ends for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])  # (no line after the last end)
    if any(len(line) > MAX_LINE_CHARS for line in lines) or any(f.quantifiers > MAX_QUANTIFIERS for _p, f in pending):
        return True
    import re  # only a rewrite whose literals are all in the file pays for it (~6 ms under -S)

    for pattern, found in pending:
        flags = re.ASCII | (re.IGNORECASE if pattern.ignore_case else 0) | (re.DOTALL if rewrite.program == SED else 0)
        try:
            search = re.compile(found.regex, flags).search
        except re.error:
            return True
        if any(search(line) for line in lines):
            return True
    return False
