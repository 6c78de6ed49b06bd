"""The git command lines in code a line hands to an interpreter: `python3 -c "…"`, `node -e "…"`,
`perl -e`, `ruby -e`, `python - <<EOF … EOF`, or a script the line itself wrote and then runs.

Why: `python3 -c "import subprocess; subprocess.run(['git','add','--all'])"` and `node -e
"require('child_process').execSync('git add -A')"` stage a live peer's work with no shell word
`git` (replayed public incidents).

Where a string plainly holds a git command line it is judged as that line: a shell string
(`os.system("git add -A")`, `execSync('git add -A')`, `` `git add -A` ``, `qx(git add -A)`,
`"git add -A".split()`) or an argument list whose program is git (`['git', 'add', '--all']`,
`spawnSync('git', ['add', '-A'])`, `system('git', 'add', '-A')`, `qw(git add -A)`). An element after
the subcommand that only the program knows becomes a word known only at run time (`['git', 'add',
path]` adds paths computed when it runs). Any other mention of git outside comments (a string built
at run time, `['git', cmd]`, `f"git {x}"`, `import git`) is left over: the caller treats it as
unknown, never as safe.
"""
from ..shell.cmdline import commands
from ..shell.lexer import TooLarge, matching_close, quote
from ..startup.records import record
from .files import mentions_git

# The interpreters whose code is read, by the start of the program's name (`python3.11`, `pypy3`).
LANGUAGE_OF = (("python", "python"), ("pypy", "python"), ("nodejs", "node"), ("node", "node"),
               ("perl", "perl"), ("ruby", "ruby"))
# Per language: the short options whose value is code, those whose value is something else (the
# next word, or the rest of the cluster), those whose value can only be attached (perl's `-i.bak`),
# and the long options with a value (code for node's --eval/--print).
CODE_LETTERS = {"python": "c", "node": "ep", "perl": "eE", "ruby": "e"}
VALUE_LETTERS = {"python": "WXm", "node": "rC", "perl": "IMmx", "ruby": "rICEx"}
ATTACHED_LETTERS = {"python": "", "node": "", "perl": "il0", "ruby": ""}
CODE_LONG = {"node": ("--eval", "--print")}
VALUE_LONG = {"node": frozenset(["--require", "--import", "--loader", "--input-type", "--conditions",
                                 "--env-file", "--experimental-loader"])}
# A value known only to the program, as the interpreter sees it: a word known only at run time.
RUNTIME_WORD = '"${PEERHOOKS_CODE_VALUE}"'

STRING, WORDS, PUNCT, NAME = "string", "words", "punct", "name"
Token = record("Token", "kind start end value plain", (True,), """One token of the code: a string
    literal (value: its text; plain: no part of it is computed), a word list (`qw(…)`, `%w[…]`:
    value is a tuple), one of the characters `[](),+%.*`, or a name.""")

COMMENTS = {"python": ("#",), "perl": ("#",), "ruby": ("#",), "node": ("//", "/*")}
# Quote-like operators: perl's and ruby's, with what their body is.
QUOTE_OPERATORS = {"perl": (("qq", "interpolated"), ("qx", "interpolated"), ("qw", "words"), ("q", "plain")),
                   "ruby": (("%q", "plain"), ("%Q", "interpolated"), ("%x", "interpolated"), ("%w", "words"),
                            ("%W", "words"), ("%", "interpolated"))}
PYTHON_PREFIXES = frozenset(["r", "b", "f", "u", "rb", "br", "fr", "rf"])
_CLOSING = {"(": ")", "[": "]", "{": "}", "<": ">"}
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$")
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"', "`": "`", "$": "$"}


def language_of(program):
    """'python', 'node', 'perl', 'ruby' for an interpreter's name, else None."""
    for prefix, language in LANGUAGE_OF:
        if program.startswith(prefix):
            rest = program[len(prefix):]
            if not rest or rest.replace(".", "").isdigit():
                return language
    return None


def _read_options(language, words):
    """(the code the options give, or None; the index of the first operand; whether a module
    runs instead of code: `python -m x`). A word only the shell knows (None) ends the options."""
    codes, index = [], 0
    while index < len(words):
        word = words[index]
        if word is None or word == "-" or not word.startswith("-"):
            break
        index += 1
        if word == "--":
            break
        if word.startswith("--"):
            name, has_value, value = word.partition("=")
            takes = name in CODE_LONG.get(language, ()) or name in VALUE_LONG.get(language, ())
            if takes and not has_value and index < len(words):
                value, index = words[index], index + 1
            if name in CODE_LONG.get(language, ()) and value is not None:
                codes.append(value)
            continue
        for position in range(1, len(word)):
            letter, rest = word[position], word[position + 1:]
            if letter in ATTACHED_LETTERS[language]:
                break
            if letter in CODE_LETTERS[language] or letter in VALUE_LETTERS[language]:
                if not rest and index < len(words):
                    rest, index = words[index], index + 1
                if letter in CODE_LETTERS[language] and rest is not None:
                    codes.append(rest)
                    if language == "python":
                        return "\n".join(codes), index, False  # `-c` ends python's options
                if language == "python" and letter == "m":
                    return None, index, True
                break
    return ("\n".join(codes) if codes else None), index, False


def code_given(language, words, stdin):
    """The code the command line hands the interpreter: an option's (`-c`, `-e`), or stdin's
    (`python - <<EOF`, `node <<EOF`) when no script file is named; None otherwise."""
    code, operand, module = _read_options(language, words)
    if code is not None or module:
        return code
    if operand >= len(words) or words[operand] == "-":
        return stdin
    return None


def script_operand(language, words):
    """The script file the interpreter runs (`python3 tool.py`), or None."""
    code, operand, module = _read_options(language, words)
    if code is not None or module or operand >= len(words) or words[operand] in (None, "-"):
        return None
    return words[operand]


# -- reading code -------------------------------------------------------------------------------

def tokens_of(code, language):
    """(tokens, comment spans) of the code."""
    tokens, comments, position, length = [], [], 0, len(code)
    while position < length:
        char = code[position]
        comment_end = _comment_end(code, position, language)
        if comment_end is not None:
            comments.append((position, comment_end))
            position = comment_end
            continue
        quoted = _quote_operator(code, position, language)
        if quoted is not None:
            tokens.append(quoted)
            position = quoted.end
        elif char in "'\"`":
            token = _string(code, position, language)
            tokens.append(token)
            position = token.end
        elif char in "[](),+%.*":
            tokens.append(Token(PUNCT, position, position + 1, char))
            position += 1
        elif char in _NAME_CHARS:
            start = position
            while position < length and code[position] in _NAME_CHARS:
                position += 1
            name = code[start:position]
            if language == "python" and code[position:position + 1] in ("'", '"') and name.lower() in PYTHON_PREFIXES:
                token = _string(code, position, language, name.lower())
                tokens.append(token._replace(start=start))
                position = token.end
            else:
                tokens.append(Token(NAME, start, position, name))
        else:
            position += 1
    return tokens, comments


def _comment_end(code, position, language):
    """Where a comment starting here ends, or None when none starts here."""
    for mark in COMMENTS[language]:
        if not code.startswith(mark, position):
            continue
        if mark == "#" and position and code[position - 1] == "$":
            return None  # perl's `$#array`
        end = code.find("*/" if mark == "/*" else "\n", position + len(mark))
        return len(code) if end < 0 else end + (2 if mark == "/*" else 0)
    return None


def _quote_operator(code, position, language):
    """A perl `q(…)`/`qq`/`qx`/`qw` or ruby `%q(…)`/`%x`/`%w`… literal starting here, or None."""
    if position and code[position - 1] in _NAME_CHARS:
        return None
    for operator, kind in QUOTE_OPERATORS.get(language, ()):
        if not code.startswith(operator, position):
            continue
        opening_at = position + len(operator)
        opening = code[opening_at:opening_at + 1]
        if not opening or opening.isalnum() or opening in " \t\n_,;=)" or operator == "%" and opening not in _CLOSING:
            continue
        closing = _CLOSING.get(opening, opening)
        end = matching_close(code, opening_at + 1, opening, closing)
        body = code[opening_at + 1:end - 1 if code[end - 1:end] == closing else end]  # unclosed: to the end
        if kind == "words":
            return Token(WORDS, position, end, tuple(body.split()))
        return Token(STRING, position, end, body, kind == "plain" or not _interpolates(body, language))
    return None


def _string(code, position, language, prefix=""):
    """The quoted string starting at position (`'…'`, `"…"`, `` `…` ``, python's triple quotes)."""
    quote_char = code[position]
    delimiter = quote_char * 3 if language == "python" and code.startswith(quote_char * 3, position) else quote_char
    body, index = [], position + len(delimiter)
    single = quote_char == "'" and language in ("perl", "ruby")  # only \' and \\ are escapes there
    while index < len(code) and not code.startswith(delimiter, index):
        char = code[index]
        if char == "\\" and index + 1 < len(code):
            following = code[index + 1]
            if "r" in prefix or single and following not in ("'", "\\"):
                body.append(char + following)  # kept as written (a raw string's quote still does not end it)
            else:
                body.append(_ESCAPES.get(following, "\\" + following))
            index += 2
        else:
            body.append(char)
            index += 1
    value = "".join(body)
    if language == "python":
        plain = "f" not in prefix or "{" not in value.replace("{{", "")
    elif language == "node":
        plain = quote_char != "`" or "${" not in value
    else:
        plain = quote_char == "'" or not _interpolates(value, language)
    return Token(STRING, position, min(index + len(delimiter), len(code)), value, plain)


def _interpolates(body, language):
    """True when a double-quoted (or backtick) body computes part of itself."""
    if language == "perl":
        return "$" in body or "@" in body
    if language == "ruby":
        return "#{" in body
    return False


# -- files written -----------------------------------------------------------------------------------

# What makes code one that may write a file: an open for writing or appending, an unlink, a rename, a
# copy (python, node, perl, ruby). peerhooks.guard.readonly holds the same markers as bytes.
WRITE_MARKERS = ("'w", '"w', "'a'", '"a"', "'a+", '"a+', "'x'", '"x"', "'r+", '"r+', "write_text", "write_bytes",
                 "unlink", "remove(", "rmtree", "rename(", "os.replace", "shutil.", "truncate", "writeFile",
                 "appendFile", "rmSync", "renameSync", "copyFile", "createWriteStream", "File.write",
                 "File.delete", "FileUtils", "open(my", "open my", "'>", '">')
MAX_WRITTEN_PATHS = 64  # string literals taken as paths from one program
# Code longer than this is not read (it is read at ~0.7 MB/s, and a line may hand an interpreter
# megabytes): what it runs or writes is then unknown (TooLarge), unless it mentions neither git nor a
# way to write a file.
MAX_PROGRAM_CHARS = 64 * 1024
OPEN_MODES = frozenset(["w", "a", "x", "r", "wb", "ab", "rb", "w+", "a+", "r+", "wt", "at", "utf-8", "utf8", "."])


def paths_written(command):
    """The paths (as written) that code a command hands its interpreter may write: the string
    literals of code that may write (`python3 -c "open('x','w')…"`); none for a program in a file,
    which is not read. The shell model's Context.code_writes (peerhooks.shell.writes asks it of a
    command whose name starts with an interpreter's)."""
    language = language_of(command.name)
    if language is None:
        return ()
    code = code_given(language, [w.value for w in command.args], command.stdin)
    if code is None:
        return ()
    if len(code) > MAX_PROGRAM_CHARS and any(marker in code for marker in WRITE_MARKERS):
        raise TooLarge("code longer than %d KB that may write files" % (MAX_PROGRAM_CHARS // 1024))
    return paths_it_may_write(code, language)


def paths_it_may_write(code, language):
    """The string literals of code that may write a file (it holds a WRITE_MARKER), each of which may
    name a path the program writes: agents rewrite files this way (`python3 -c "p='x.py';
    s=open(p).read(); open(p,'w').write(s.replace(…))"`). () for code that only reads. A literal is
    taken as it is written (one line, no blank), perl's open mode off its front (`">out.txt"`)."""
    if not any(marker in code for marker in WRITE_MARKERS):
        return ()
    found = []
    for token in tokens_of(code, language)[0]:
        if token.kind != STRING or not token.plain:
            continue
        value = token.value.lstrip("+<>|") if language == "perl" else token.value
        if value and value not in OPEN_MODES and len(value) <= 4096 and not any(c in value for c in " \t\n"):
            found.append(value)
            if len(found) >= MAX_WRITTEN_PATHS:
                break
    return tuple(found)


# -- git lines ---------------------------------------------------------------------------------------

def git_lines(code, language):
    """(the git command lines the code plainly runs, whether it mentions git anywhere else outside
    comments). Raises TooLarge for code past MAX_PROGRAM_CHARS that mentions git."""
    if len(code) > MAX_PROGRAM_CHARS:
        if mentions_git(code):
            raise TooLarge("code longer than %d KB that mentions git" % (MAX_PROGRAM_CHARS // 1024))
        return [], False
    tokens, comments = tokens_of(code, language)
    lines, judged, index = [], [], 0
    while index < len(tokens):
        listed = _argument_list(tokens, index)
        if listed is not None:
            words, after = listed
            if words is not None:
                lines.append(" ".join(words))
                judged.append((tokens[index].start, tokens[after - 1].end))
            index = after
            continue
        token = tokens[index]
        if token.kind == STRING and token.plain and not _is_git(token) and _runs_git(token.value) and \
                _used_whole(tokens, index):  # the program's name alone (`$g = "git"`) is no command line
            lines.append(token.value.strip())
            judged.append((token.start, token.end))
        index += 1
    return lines, _mentions_outside(code, judged + comments)


def _is_git(token):
    """A plain string naming the git program (`'git'`, `'/usr/bin/git'`)."""
    return token is not None and token.kind == STRING and token.plain and (
        token.value == "git" or token.value.endswith("/git") and " " not in token.value)


def _runs_git(value):
    """True when the string, read as a shell line, runs git."""
    return "git" in value and any(c.name == "git" for c in commands(value, None))


def _is(token, chars):
    return token is not None and token.kind == PUNCT and token.value in chars


def _used_whole(tokens, index):
    """True when nothing is glued to the string (`"git add " + path`, `"git %s" % x`, `"…".format`,
    an adjacent literal): `.split()` alone is allowed, which makes its words the argument list."""
    before = tokens[index - 1] if index else None
    after = tokens[index + 1] if index + 1 < len(tokens) else None
    if _is(before, "+%*") or _is(after, "+%*") or after is not None and after.kind == STRING:
        return False
    if _is(after, "."):
        method = tokens[index + 2] if index + 2 < len(tokens) else None
        return method is not None and method.kind == NAME and method.value == "split"
    return True


def _argument_list(tokens, index):
    """(words, index after) for an argument list at tokens[index] whose program is git: `['git',
    …]`, `('git', …)`, `'git', [ … ]`, `qw(git …)`; words is None when its subcommand is computed
    (then it is left for the mention check). None when no such list starts here."""
    token = tokens[index]
    if token.kind == WORDS:
        if token.value and token.value[0] in ("git", "/usr/bin/git"):
            return [quote(v) for v in ("git",) + token.value[1:]], index + 1
        return None
    if _is(token, "[(") and index + 1 < len(tokens) and _is_git(tokens[index + 1]):
        if index + 3 < len(tokens) and _is(tokens[index + 2], ",") and _is(tokens[index + 3], "[("):
            return None  # `spawn('git', [...])`: read from the program's string, below
        elements, after = _elements(tokens, index + 2)
        return _words(elements), after
    if _is_git(token) and index + 2 < len(tokens) and _is(tokens[index + 1], ",") and _is(tokens[index + 2], "[("):
        elements, after = _elements(tokens, index + 3)  # `spawn('git', ['add', '-A'])`
        if elements and elements[0] in ("git", "/usr/bin/git"):
            elements = elements[1:]  # `execvp('git', ['git', 'add'])`: argv[0] repeats the program
        return _words(elements), after
    return None


_COMPUTED = object()


def _words(elements):
    """The shell words of `git` and its arguments; None when the subcommand is computed."""
    if elements and elements[0] is _COMPUTED:
        return None
    return ["git"] + [RUNTIME_WORD if e is _COMPUTED else quote(e) for e in elements]


def _elements(tokens, index):
    """(the elements of a list up to its closing bracket: a literal's value, or _COMPUTED; the
    index after the bracket). A list that never closes ends with the code."""
    elements, current, depth = [], [], 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if _is(token, "[("):
            depth += 1
        elif _is(token, "])"):
            if depth == 0:
                break
            depth -= 1
        elif _is(token, ",") and depth == 0:
            elements.append(current)
            current = []
            continue
        current.append(token)
    elements.append(current)
    values = []
    for element in elements:
        if len(element) == 1 and element[0].kind == STRING and element[0].plain:
            values.append(element[0].value)
        elif element:
            values.append(_COMPUTED)
    return values, index


def _mentions_outside(code, spans):
    """True when `git` is mentioned as a word outside the spans (what was judged, comments)."""
    kept, position = [], 0
    for start, end in sorted(spans):
        if start > position:
            kept.append(code[position:start])
        position = max(position, end)
    kept.append(code[position:])
    return mentions_git(" ".join(kept))
