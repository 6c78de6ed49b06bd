"""A makefile's text as GNU make cuts it: logical lines (continuations joined), comments,
assignments and `define` headers, the operands of `ifeq`, the brackets of `$( … )` references and
the commas of a function's arguments, the lines of a recipe and their prefixes, and `%` patterns.

Pure text, no state: peerhooks.wrappers.makefile reads and expands a makefile with these, and
peerhooks.wrappers.make_functions cuts a function's arguments.
"""

RECIPE_PREFIXES = "@-+ \t"


def logical_lines(text):
    """[(line, is a recipe line)]: continuations joined (a recipe keeps its backslash-newline for
    the shell, without the next line's tab), comments left for the caller."""
    physical = text.replace("\r\n", "\n").split("\n")
    lines, index = [], 0
    while index < len(physical):
        line = physical[index]
        index += 1
        recipe = line.startswith("\t")
        if recipe:
            line = line[1:]
        while continues(line) and index < len(physical):
            following = physical[index]
            index += 1
            if recipe:
                line = line + "\n" + (following[1:] if following.startswith("\t") else following)
            else:
                line = line[:-1].rstrip() + " " + following.lstrip()
        lines.append((line, recipe))
    return lines


def continues(line):
    trailing = len(line) - len(line.rstrip("\\"))
    return trailing % 2 == 1


def strip_comment(line):
    position = 0
    while True:
        hash_at = line.find("#", position)
        if hash_at < 0:
            return line
        if hash_at > 0 and line[hash_at - 1] == "\\":
            position = hash_at + 1
            continue
        return line[:hash_at]


def assignment_of(line):
    """(name, operator, value, directive) when the line assigns a variable, else None."""
    directive = ""
    for word in ("export ", "override ", "private "):
        if line.startswith(word):
            directive = word.strip()
            line = line[len(word):].lstrip()
    position = 0
    while position < len(line):
        char = line[position]
        if char == "$" and line[position + 1:position + 2] in ("(", "{"):
            position = matching_end(line, position + 1)
            continue
        for operator in (":::=", "::=", ":=", "?=", "+=", "!=", "="):
            if line.startswith(operator, position):
                name = line[:position].strip()
                if not name or " " in name and "$" not in name:
                    return None
                return name, operator, line[position + len(operator):].lstrip(), directive
        if char == ":":
            return None  # a rule
        position += 1
    return None


def define_header(header):
    for operator in (":::=", "::=", ":=", "?=", "+=", "!=", "="):
        if header.endswith(operator):
            return header[:-len(operator)].strip(), operator
    return header.strip(), "="


def condition_operands(text):
    """The two operands of `ifeq (a,b)`, `ifeq "a" "b"`, `ifeq 'a' 'b'`."""
    text = text.strip()
    if text.startswith("(") and text.endswith(")"):
        inner = text[1:-1]
        comma = find_unnested(inner, ",")
        return None if comma < 0 else (inner[:comma], inner[comma + 1:])
    if text and text[0] in "'\"":
        quote = text[0]
        end = text.find(quote, 1)
        second = text[end + 1:].strip()
        if end < 0 or len(second) < 2 or second[0] not in "'\"" or not second.endswith(second[0]):
            return None
        return text[1:end], second[1:-1]
    return None


def matching_end(text, opening_at):
    """Just past the bracket that closes the `(` or `{` at opening_at."""
    opening = text[opening_at]
    closing = ")" if opening == "(" else "}"
    depth, position = 0, opening_at
    while position < len(text):
        char = text[position]
        if char == opening:
            depth += 1
        elif char == closing:
            depth -= 1
            if depth == 0:
                return position + 1
        position += 1
    return len(text)


def find_unnested(text, char):
    """Where char first occurs outside `$( … )` / `${ … }`, or -1."""
    position = 0
    while position < len(text):
        if text[position] == "$" and text[position + 1:position + 2] in ("(", "{"):
            position = matching_end(text, position + 1)
            continue
        if text[position] == char:
            return position
        position += 1
    return -1


def split_function(inner):
    """(function name, whether a blank follows it, its arguments text)."""
    for position, char in enumerate(inner):
        if char in " \t":
            return inner[:position], True, inner[position + 1:].lstrip(" \t")
        if char in "$():={}":
            break
    return inner, False, ""


def arguments_of(text, count):
    """The comma-separated arguments of a function, the last taking the rest (commas nested in
    references stay)."""
    parts, position, start = [], 0, 0
    while position < len(text) and len(parts) < count - 1:
        if text[position] == "$" and text[position + 1:position + 2] in ("(", "{"):
            position = matching_end(text, position + 1)
            continue
        if text[position] == ",":
            parts.append(text[start:position])
            start = position + 1
        position += 1
    parts.append(text[start:])
    return parts + [""] * (count - len(parts))


def split_top_commas(text):
    parts = []
    while True:
        comma = find_unnested(text, ",")
        if comma < 0:
            return parts + [text]
        parts.append(text[:comma])
        text = text[comma + 1:]


def is_variable_name(name):
    return bool(name) and not any(c in name for c in " \t:#=$(){}")


def recipe_lines(text):
    """The lines one expanded recipe line makes: a canned recipe (`define`) holds several; a
    backslash-newline continues the line for the shell."""
    lines, start, position = [], 0, text.find("\n")
    while position >= 0:
        if not continues(text[start:position]):
            lines.append(text[start:position])
            start = position + 1
        position = text.find("\n", position + 1)
    return lines + [text[start:]]


def without_prefixes(line):
    """(the recipe line without its leading `@`, `-`, `+` and blanks, whether `+` was among them)."""
    stripped = line.lstrip(RECIPE_PREFIXES)
    return stripped, "+" in line[:len(line) - len(stripped)]


def stem_of(pattern, target):
    """What `%` matches when the target fits the pattern, else None."""
    head, percent, tail = pattern.partition("%")
    if not percent:
        return "" if pattern == target else None
    if len(target) >= len(head) + len(tail) and target.startswith(head) and target.endswith(tail):
        return target[len(head):len(target) - len(tail)]
    return None


def substitute_suffix(word, old, new):
    """`$(VAR:.c=.o)` on one word: a suffix replaced, or with `%`, patsubst's rule."""
    if "%" not in old:
        old, new = "%" + old, "%" + new
    return patsubst_word(word, old, new)


def patsubst_word(word, pattern, replacement):
    stem = stem_of(pattern, word)
    if stem is None:
        return word
    return replacement.replace("%", stem, 1) if "%" in replacement else replacement
