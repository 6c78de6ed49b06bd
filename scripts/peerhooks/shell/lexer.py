"""A Bash command line turned into words and operators, split the way Bash itself would split it.

Why: the git guard must see `git add -A` where Bash would run it and nowhere else. Quoted commit
messages and heredoc bodies are data (`git commit -m "then git add ."` runs no `git add`), while
`$( … )`, backticks and `<( … )` hold commands. The guard this project replaces split on `;` and
`&&` inside quotes and refused commit messages that mentioned `git add .`.

The lexer is a small state machine in the style of CPython's shlex: between words, in a word, in
single quotes, in double quotes. It knows nothing of git. Unbalanced input (an open quote, an
unclosed `$(`) yields the words that can be read. The one thing it raises is TooLarge, for a line
past its bounds (words, nesting), which a reader then says it could not judge rather than guess.
"""
from ..startup.records import record

Word = record("Word", "value glob expanded substitutions brace heredoc unquoted span",
              (False, False, (), False, None, (), None),
              """One shell word after quote removal.

    `value` keeps the text of expansions as written (`$HOME`, `$(pwd)`), so `expanded` says
    whether the value is what the program will really receive. `glob` is set by an unquoted
    `*`, `?` or `[`, which the shell would expand against the file system.
    `substitutions` holds the tokens of each `$( … )`, backtick or `<( … )` inside the word.
    `brace` is set by an unquoted `{a,b}` or `{1..3}`, which the shell expands into several words.
    `heredoc` is set on a heredoc's delimiter word: the body, which becomes the command's stdin
    (an unquoted delimiter's body also runs its substitutions, added to `substitutions`).
    `unquoted` holds the offsets in `value` where an unquoted expansion starts (`$F`, `${F}`, `$(…)`,
    a backtick): Bash splits what those yield into several words at blanks, and `"$F"` it does not.
    `span` is (start, end) of the word as written in the text tokenize() was given (None for a word
    made by expansion), so a suggestion can keep every other byte of a line as it was.
    """)
Operator = record("Operator", "text")
# A token is a Word or an Operator. No `re` and no `typing` here: under `python3 -S` they cost
# ~6 and ~4 ms, more than the whole judgement of a line, and the guard imports this module on
# every git command it judges.

NEWLINE = "\n"
SEPARATORS = frozenset([";", "&&", "||", "|", "|&", "&", NEWLINE, ";;", ";&", ";;&"])
PIPES = frozenset(["|", "|&"])
REDIRECTIONS = frozenset(["<", ">", ">>", "<<", "<<-", "<<<", "<&", ">&", "<>", ">|", "&>", "&>>"])
HEREDOCS = frozenset(["<<", "<<-"])
# Longest first, so that `&&` is read before `&` and `<<-` before `<<`.
_OPERATORS = sorted((SEPARATORS | REDIRECTIONS | {"(", ")"}) - {NEWLINE}, key=len, reverse=True)
_OPERATOR_STARTS = frozenset(operator[0] for operator in _OPERATORS)

# Past this depth of `$(` inside `$(` (or backticks, or a heredoc's substitutions) tokenize raises
# TooLarge: no real command nests this deep, recursion must stay far from Python's limit, and a
# substitution skipped unread would hide the `git add -A` inside it (issue 35).
MAX_NESTING = 24

# Past this many words and operators a line is not one a session typed to be read word by word
# (issue 21: a 300 KB line of 20,000 `git add` commands took the guard 5.9 s, past the client's 5 s,
# and ran unjudged). tokenize raises TooLarge instead, so a reader can say so rather than guess.
MAX_TOKENS = 20000


class TooLarge(ValueError):
    """A command line past a bound of its reader (more words and operators than MAX_TOKENS,
    substitutions nested past MAX_NESTING, or a bound of what reads it further): it is not judged,
    and a reader says so rather than guess. str() says which bound; `what` names what could not be
    judged when that is not the line itself (what `bash x.sh` runs), else None."""

    def __init__(self, why, what=None):
        super().__init__(why)
        self.what = what

    def of(self, what):
        """The same bound, naming what it stopped when nothing inner named it yet."""
        if self.what is None:
            self.what = what


# Lexer states inside a word, named as in shlex (between words is read_tokens' own loop).
IN_WORD = "in a word"
IN_SINGLE_QUOTES = "in single quotes"
IN_DOUBLE_QUOTES = "in double quotes"

_BLANK_CHARS = frozenset(" \t\r\f\v")
# Runs of characters that mean nothing special in each state, read in one step for speed: heredoc
# bodies and file contents passed through commands can be hundreds of kilobytes.
_SPECIAL_IN_WORD = frozenset(" \t\n\r\f\v\\'\"$`<>()|&;*?[")
_SPECIAL_IN_DOUBLE = "\\\"$`"
_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NAME_CHARS = _NAME_START | frozenset("0123456789")
_SPECIAL_PARAMETERS = frozenset("0123456789@*#?$!-")


def _plain_in_word_end(text, pos):
    """Where a run of characters with no meaning inside an unquoted word ends."""
    end, length = pos, len(text)
    while end < length and text[end] not in _SPECIAL_IN_WORD:
        end += 1
    return end


class _NextSpecial:
    """Where the next character with a meaning inside double quotes is, found in C by find and
    remembered per character: a quoted argument can be a whole file, and asking each character
    afresh at every `$` would read the rest of the text again each time."""

    def __init__(self, text):
        self.text = text
        self.found = dict.fromkeys(_SPECIAL_IN_DOUBLE, -1)

    def end_of_plain(self, pos):
        end = len(self.text)
        for char, at in self.found.items():
            if at < pos:
                at = self.text.find(char, pos)
                at = len(self.text) if at < 0 else at
                self.found[char] = at
            end = min(end, at)
        return end


_UNQUOTED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=@%+,-")


def quote(text):
    """A word as the shell reads it back: as it is when it needs no quoting, else single-quoted."""
    if text and all(c in _UNQUOTED for c in text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"


def variable_name_end(text, pos):
    """Where a shell variable name (letters, digits, `_`; not a digit first) starting at pos ends
    (pos itself when there is none)."""
    if pos >= len(text) or text[pos] not in _NAME_START:
        return pos
    end = pos + 1
    while end < len(text) and text[end] in _NAME_CHARS:
        end += 1
    return end


def _name_end(text, pos):
    """Where a parameter name starting at pos ends: a variable's, or one special parameter (`$?`)."""
    if pos < len(text) and text[pos] in _SPECIAL_PARAMETERS:
        return pos + 1
    return variable_name_end(text, pos)


def has_brace_list(value):
    """True when the text holds `{a,b}` or `{1..3}` with no brace nested inside."""
    start = value.find("{")
    while start >= 0:
        close = value.find("}", start)
        if close < 0:
            return False
        inner = value[start + 1:close]
        if "{" not in inner and ("," in inner or ".." in inner):
            return True
        start = value.find("{", start + 1)
    return False


def _is_array_assignment(built):
    """True when the word read so far is `NAME=` or `NAME+=` and unquoted: a `(` then opens an array."""
    if built.quoted or built.expanded or len(built.parts) != 1:
        return False
    head = built.parts[0]
    end = variable_name_end(head, 0)
    return end > 0 and head[end:] in ("=", "+=")


_ANSI_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "f": "\f",
                 "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


def matching_close(text, pos, opening, closing):
    """Position just past the `closing` that balances an `opening` already open before pos, counting
    only, a backslash escaping the next character (the end of the text when none does). With the
    same character for both (`qx/…/`), the first one closes."""
    depth = 1
    while pos < len(text):
        char = text[pos]
        if char == "\\":
            pos += 2
            continue
        if char == closing:
            depth -= 1
            if depth == 0:
                return pos + 1
        elif char == opening:
            depth += 1
        pos += 1
    return len(text)


def tokenize(text, budget=None):
    """Words and operators of a command line, in order. Heredoc bodies and comments are left out.
    Raises TooLarge past MAX_NESTING, or past MAX_TOKENS tokens, those of its substitutions
    included; budget: [tokens still allowed], shared by the texts of one judgement (a nested
    shell's script counts against its line) and spent as they are read."""
    lexer = _Lexer(text if isinstance(text, str) else "", 0, 0, budget if budget is not None else [MAX_TOKENS])
    tokens, _closed = lexer.read_tokens(until_close=False)
    return tokens


class _WordBuilder:
    """The pieces of the word being read."""

    def __init__(self):
        self.parts = []
        self.glob = False
        self.expanded = False
        self.quoted = False
        self.substitutions = []
        self.brace = False
        self.unquoted = []
        self._counted, self._length = 0, 0  # parts measured so far, and their length

    def mark_unquoted_expansion(self):
        """Where the value so far ends: an unquoted expansion starts there. Only the parts read
        since the last mark are measured, so a word of many expansions costs its length once."""
        self._length += sum(len(part) for part in self.parts[self._counted:])
        self._counted = len(self.parts)
        self.unquoted.append(self._length)

    def word(self, span=None):
        value = "".join(self.parts)
        brace = self.brace and has_brace_list(value)
        return Word(value, self.glob, self.expanded, tuple(self.substitutions), brace, None, tuple(self.unquoted),
                    span)


class _Lexer:
    def __init__(self, text, pos, depth, budget):
        self.budget = budget  # [tokens still allowed], shared with the lexers of its substitutions
        self.text = text
        self.pos = pos
        self.depth = depth
        self.pending_heredocs = []  # (token index, delimiter, strip tabs, quoted) awaiting the next newline
        self._double = _NextSpecial(text)
        self.heredoc_operator = None  # the `<<`/`<<-` whose delimiter word comes next

    # -- between words -------------------------------------------------------------------------
    def read_tokens(self, until_close):
        """Read to the end of the text, or with until_close to the `)` that closes an already open
        `(`; returns (tokens, whether that `)` was found)."""
        text, tokens, open_parens = self.text, [], 0
        while self.pos < len(text):
            char = text[self.pos]
            if char == NEWLINE:
                self.pos += 1
                self._count()
                tokens.append(Operator(NEWLINE))
                self.heredoc_operator = None
                self._read_heredoc_bodies(tokens)
            elif char in " \t\r\f\v":
                while self.pos < len(text) and text[self.pos] in _BLANK_CHARS:
                    self.pos += 1
            elif char == "\\" and text.startswith("\\\n", self.pos):
                self.pos += 2  # line continuation
            elif char == "#":
                end = text.find(NEWLINE, self.pos)
                self.pos = len(text) if end < 0 else end
            elif char in "<>" and text.startswith("(", self.pos + 1):
                start = self.pos
                self._add_word(tokens, self._read_word(), start)  # process substitution
            else:
                operator = self._operator_at(self.pos)
                if operator is None:
                    start = self.pos
                    self._add_word(tokens, self._read_word(), start)
                    continue
                self.pos += len(operator)
                if operator == "(":
                    open_parens += 1
                elif operator == ")":
                    if until_close and open_parens == 0:
                        return tokens, True
                    open_parens = max(0, open_parens - 1)
                self.heredoc_operator = operator if operator in HEREDOCS else None
                self._count()
                tokens.append(Operator(operator))
        return tokens, False

    def _count(self):
        self.budget[0] -= 1
        if self.budget[0] < 0:
            raise TooLarge("more than %d words and operators" % MAX_TOKENS)

    def _operator_at(self, pos):
        if self.text[pos] not in _OPERATOR_STARTS:
            return None  # most words start with a letter: no need to try all 20 operators
        for operator in _OPERATORS:
            if self.text.startswith(operator, pos):
                return operator
        return None

    def _add_word(self, tokens, built, start):
        word = built.word((start, self.pos))
        if self.heredoc_operator is not None:
            self.pending_heredocs.append((len(tokens), word.value, self.heredoc_operator == "<<-", built.quoted))
            self.heredoc_operator = None
        elif (not built.quoted and word.value.isdigit() and self.pos < len(self.text)
              and self.text[self.pos] in "<>"):
            return  # a file-descriptor number such as the 2 in `2>&1`, part of the redirection
        self._count()
        tokens.append(word)

    def _read_heredoc_bodies(self, tokens):
        """Read the bodies of heredocs opened on the line just ended onto their delimiter words:
        data to most commands, a script to `bash <<EOF`. An unquoted delimiter's body runs its
        `$( … )` and backticks wherever it goes."""
        text = self.text
        for index, delimiter, strip_tabs, quoted in self.pending_heredocs:
            lines = []
            while self.pos < len(text):
                end = text.find(NEWLINE, self.pos)
                line_end = len(text) if end < 0 else end
                line = text[self.pos:line_end]
                self.pos = line_end + 1 if end >= 0 else len(text)
                if strip_tabs:
                    line = line.lstrip("\t")
                if line == delimiter:
                    break
                lines.append(line)
            body = "\n".join(lines) + ("\n" if lines else "")
            word = tokens[index]
            substitutions = word.substitutions
            if not quoted and ("$" in body or "`" in body):
                self._nest()
                substitutions += _Lexer(body, 0, self.depth + 1, self.budget).substitutions_in_text()
            tokens[index] = word._replace(heredoc=body, substitutions=substitutions)
        self.pending_heredocs = []

    def substitutions_in_text(self):
        """The substitutions of an unquoted heredoc body, read as inside double quotes."""
        built, text = _WordBuilder(), self.text
        while self.pos < len(text):
            char = text[self.pos]
            if char == "\\":
                self.pos += 2
            elif char == "$":
                self._read_dollar(built)
            elif char == "`":
                self._read_backticks(built)
            else:
                self.pos += 1
        return tuple(built.substitutions)

    # -- in a word -----------------------------------------------------------------------------
    def _read_word(self):
        """One word, read a step at a time in the state the lexer is in (IN_WORD, IN_SINGLE_QUOTES,
        IN_DOUBLE_QUOTES); each step returns the next state, or None where the word ends."""
        built, state, length = _WordBuilder(), IN_WORD, len(self.text)
        while state is not None and self.pos < length:
            state = _STEPS[state](self, built)
        return built

    def _in_word(self, built):
        """A run of characters with no meaning, or one that has a meaning outside quotes (a blank,
        a newline or an operator has none here: it ends the word)."""
        text, pos = self.text, self.pos
        end = _plain_in_word_end(text, pos)
        if end == pos:
            special = _SPECIAL_STEPS_IN_WORD.get(text[pos])
            return special(self, built) if special is not None else None
        chunk = text[pos:end]
        if not built.parts and chunk.startswith("~"):
            built.expanded = True  # tilde expansion: the value is not the real path
        if "{" in chunk:
            built.brace = True  # confirmed on the whole word (quotes may close it)
        built.parts.append(chunk)
        self.pos = end
        return IN_WORD

    def _glob_character(self, built):
        built.glob = True
        built.parts.append(self.text[self.pos])
        self.pos += 1
        return IN_WORD

    def _escaped_character(self, built):
        """`\\x` is x, quoted; a backslash-newline continues the word on the next line."""
        if not self.text.startswith("\\\n", self.pos):
            built.parts.append(self.text[self.pos + 1:self.pos + 2])
            built.quoted = True
        self.pos += 2
        return IN_WORD

    def _open_single_quotes(self, built):
        built.quoted = True
        self.pos += 1
        return IN_SINGLE_QUOTES

    def _open_double_quotes(self, built):
        built.quoted = True
        self.pos += 1
        return IN_DOUBLE_QUOTES

    def _dollar_in_word(self, built):
        """`$'…'` (ANSI-C quotes), `$"…"` (double quotes), or an unquoted expansion."""
        if self.text.startswith("$'", self.pos):
            built.quoted = True
            self._read_ansi_c_quotes(built)
            return IN_WORD
        if self.text.startswith('$"', self.pos):
            built.quoted = True
            self.pos += 2
            return IN_DOUBLE_QUOTES
        built.mark_unquoted_expansion()
        self._read_dollar(built)
        return IN_WORD

    def _backticks_in_word(self, built):
        built.mark_unquoted_expansion()
        self._read_backticks(built)
        return IN_WORD

    def _parenthesis_in_word(self, built):
        """`A=(x y)`: an array, whose elements no word value holds; elsewhere `(` ends the word."""
        if not _is_array_assignment(built):
            return None
        start = self.pos
        self.pos = self._matching_close(start + 1, "(", ")")
        built.parts.append(self.text[start:self.pos])
        built.expanded = True
        return IN_WORD

    def _process_substitution(self, built):
        """`<( … )` or `>( … )` opening a word; elsewhere `<` and `>` are redirections."""
        if built.parts or not self.text.startswith("(", self.pos + 1):
            return None
        start = self.pos
        self.pos += 2
        self._read_substitution(built, start)
        return IN_WORD

    def _in_single_quotes(self, built):
        """Everything up to the closing quote is literal (to the end of the text when none closes)."""
        text = self.text
        end = text.find("'", self.pos)
        if end < 0:
            built.parts.append(text[self.pos:])
            self.pos = len(text)
            return IN_SINGLE_QUOTES
        built.parts.append(text[self.pos:end])
        self.pos = end + 1
        return IN_WORD

    def _in_double_quotes(self, built):
        """A run of plain characters, the closing quote, an escape, or an expansion (never split)."""
        text, pos = self.text, self.pos
        end = self._double.end_of_plain(pos)
        if end > pos:
            built.parts.append(text[pos:end])
            self.pos = end
            return IN_DOUBLE_QUOTES
        char = text[pos]
        if char == '"':
            self.pos += 1
            return IN_WORD
        if char == "\\":
            following = text[pos + 1:pos + 2]
            if following in ("$", "`", '"', "\\"):
                built.parts.append(following)
            elif following != NEWLINE:  # a backslash-newline is a continuation: nothing
                built.parts.append("\\" + following)
            self.pos += 2
        elif char == "$":
            self._read_dollar(built)
        else:  # a backtick
            self._read_backticks(built)
        return IN_DOUBLE_QUOTES

    def _read_ansi_c_quotes(self, built):
        text = self.text
        self.pos += 2
        while self.pos < len(text):
            char = text[self.pos]
            if char == "'":
                self.pos += 1
                return
            if char == "\\" and self.pos + 1 < len(text):
                following = text[self.pos + 1]
                built.parts.append(_ANSI_ESCAPES.get(following, "\\" + following))
                self.pos += 2
            else:
                built.parts.append(char)
                self.pos += 1

    def _read_dollar(self, built):
        text, start = self.text, self.pos
        if text.startswith("$(", start):
            self.pos += 2
            self._read_substitution(built, start)
        elif text.startswith("${", start):
            self.pos = self._matching_close(start + 2, "{", "}")
            built.parts.append(text[start:self.pos])
            built.expanded = True
        else:
            end = _name_end(text, start + 1)
            if end > start + 1:
                self.pos = end
                built.parts.append(text[start:self.pos])
                built.expanded = True
            else:
                self.pos += 1
                built.parts.append("$")

    def _read_substitution(self, built, start):
        """self.pos is just past `$(`, `<(` or `>(`: read the commands inside up to the `)`."""
        self._nest()
        inner = _Lexer(self.text, self.pos, self.depth + 1, self.budget)
        found, _closed = inner.read_tokens(until_close=True)
        self.pos = inner.pos
        tokens = tuple(found)
        built.parts.append(self.text[start:self.pos])
        built.expanded = True
        built.substitutions.append(tokens)

    def _read_backticks(self, built):
        text, start = self.text, self.pos
        self.pos += 1
        body = []
        while self.pos < len(text):
            char = text[self.pos]
            if char == "`":
                self.pos += 1
                break
            if char == "\\" and text[self.pos + 1:self.pos + 2] in ("`", "\\", "$"):
                body.append(text[self.pos + 1])
                self.pos += 2
            else:
                body.append(char)
                self.pos += 1
        built.parts.append(text[start:self.pos])
        built.expanded = True
        self._nest()
        inner, _closed = _Lexer("".join(body), 0, self.depth + 1, self.budget).read_tokens(until_close=False)
        built.substitutions.append(tuple(inner))  # its tokens counted against the line's budget

    def _nest(self):
        """A substitution opens one level deeper: past MAX_NESTING the line is not read."""
        if self.depth >= MAX_NESTING:
            raise TooLarge("substitutions nested more than %d deep" % MAX_NESTING)

    def _matching_close(self, pos, opening, closing):
        """Position just past the `closing` that balances an already open `opening`, counting
        only (used for `${ … }`)."""
        return matching_close(self.text, pos, opening, closing)


# What the lexer does in each state, and outside quotes with each character that means something
# there (read by _Lexer._read_word).
_STEPS = {IN_WORD: _Lexer._in_word, IN_SINGLE_QUOTES: _Lexer._in_single_quotes,
          IN_DOUBLE_QUOTES: _Lexer._in_double_quotes}
_SPECIAL_STEPS_IN_WORD = {
    "*": _Lexer._glob_character, "?": _Lexer._glob_character, "[": _Lexer._glob_character,
    "\\": _Lexer._escaped_character, "'": _Lexer._open_single_quotes, '"': _Lexer._open_double_quotes,
    "$": _Lexer._dollar_in_word, "`": _Lexer._backticks_in_word, "(": _Lexer._parenthesis_in_word,
    "<": _Lexer._process_substitution, ">": _Lexer._process_substitution,
}

