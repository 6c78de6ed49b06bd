"""GNU make's functions as the model expands them (`$(subst …)`, `$(foreach …)`, `$(shell …)`, …),
and what stands in a line for a value only the running make knows (UNKNOWN_WORD) or for make
stopping (Stop: `$(error …)`, and the bounds of peerhooks.wrappers.makefile).

Each function is called as function(make, arguments text, local variables, in_recipe, depth) with
the Makefile that expands it, whose expand() it calls back for its arguments.
"""
from ..startup import oscalls
from .files import mentions_git
from .make_syntax import arguments_of, patsubst_word, split_top_commas, stem_of

# What a value only the running make knows becomes in a line: a word the interpreter cannot know.
UNKNOWN_WORD = "${PEERHOOKS_MAKE_UNKNOWN}"


class Stop(Exception):
    """make stops here (`$(error …)`, a missing include): what was found before stands."""


def unknowable(text):
    return UNKNOWN_WORD in text or "${" in text


def _shell(make, text, local, in_recipe, depth):
    command = make.expand(text, local, in_recipe, depth + 1)
    if not in_recipe:
        make.parse_runs.append(command)  # it runs now, while the makefile is read
        return UNKNOWN_WORD
    return "$(" + command + ")"  # in a recipe: runs as the recipe is expanded, as a substitution does


def _words_function(transform):
    def function(make, text, local, in_recipe, depth):
        words = make.expand(text, local, in_recipe, depth + 1)
        make.charge(len(words))  # walked word by word
        return " ".join(transform(w) for w in words.split())
    return function


def _two(transform, size=None):
    """A function of two expanded arguments; size(first, second): how long its result may be, for a
    function whose result can be far longer than its arguments (charged before it is made)."""
    def function(make, text, local, in_recipe, depth):
        first, second = (make.expand(a, local, in_recipe, depth + 1) for a in arguments_of(text, 2))
        if size is not None:
            make.charge(size(first, second))
        return transform(first, second)
    return function


def _three(transform, size=None):
    def function(make, text, local, in_recipe, depth):
        values = [make.expand(a, local, in_recipe, depth + 1) for a in arguments_of(text, 3)]
        if size is not None:
            make.charge(size(*values))
        return transform(*values)
    return function


def _affixed_size(affix, text):
    """How long `$(addprefix P,words)` (or addsuffix) may make its text: each word gains the affix."""
    return len(text) + len(affix) * text.count(" ") + len(affix)


def _subst_size(old, new, text):
    """How long `$(subst old,new,text)` makes its text (`$(subst x,<64 KB>,<64 KB of x>)` is 4 GB)."""
    return len(text) + (text.count(old) * (len(new) - len(old)) if old and len(new) > len(old) else 0)


def _if(make, text, local, in_recipe, depth):
    condition, then, otherwise = arguments_of(text, 3)
    value = make.expand(condition, local, in_recipe, depth + 1).strip()
    if unknowable(value):
        both = make.expand(then, local, in_recipe, depth + 1) + " " + make.expand(otherwise, local, in_recipe, depth + 1)
        if mentions_git(both):
            make.unknown.append("$(if …) on a value only make knows")
        return UNKNOWN_WORD
    return make.expand(then if value else otherwise, local, in_recipe, depth + 1)


def _foreach(make, text, local, in_recipe, depth):
    name, values, body = arguments_of(text, 3)
    name = make.expand(name, local, in_recipe, depth + 1).strip()
    words = make.expand(values, local, in_recipe, depth + 1).split()
    results = []
    for word in words:  # each body expanded is charged to the run's work (makefile.MAX_EXPANSION_WORK)
        inner = dict(local or {})
        inner[name] = (word, False)
        results.append(make.expand(body, inner, in_recipe, depth + 1))
    return " ".join(results)


def _call(make, text, local, in_recipe, depth):
    parts = split_top_commas(text)
    name = make.expand(parts[0], local, in_recipe, depth + 1).strip()
    inner = dict(local or {})
    for position, argument in enumerate(parts[1:], start=1):
        inner[str(position)] = (make.expand(argument, local, in_recipe, depth + 1), False)
    found = make.variables.get(name)
    if found is None:
        return ""
    return make.expand(found[0], inner, in_recipe, depth + 1) if found[1] else found[0]


def _or(make, text, local, in_recipe, depth):
    for part in split_top_commas(text):
        value = make.expand(part, local, in_recipe, depth + 1).strip()
        if value:
            return value
    return ""


def _and(make, text, local, in_recipe, depth):
    value = ""
    for part in split_top_commas(text):
        value = make.expand(part, local, in_recipe, depth + 1).strip()
        if not value:
            return ""
    return value


def _error(make, text, local, in_recipe, depth):
    raise Stop()


def _nothing(make, text, local, in_recipe, depth):
    return ""


def _filter(keep):
    def function(make, text, local, in_recipe, depth):
        patterns, words = (make.expand(a, local, in_recipe, depth + 1).split() for a in arguments_of(text, 2))
        make.charge(len(patterns) * len(words))  # each word against each pattern
        return " ".join(w for w in words if any(stem_of(p, w) is not None for p in patterns) == keep)
    return function


def _word(position, words):
    return words.split()[int(position) - 1] if position.strip().isdigit() and 0 < int(position) <= len(words.split()) else ""


def _wordlist(start, end, words):
    if not (start.strip().isdigit() and end.strip().isdigit()):
        return UNKNOWN_WORD
    return " ".join(words.split()[int(start) - 1:int(end)])


def _abspath(make, text, local, in_recipe, depth):
    words = make.expand(text, local, in_recipe, depth + 1).split()
    make.charge(len(make.directory or "") * len(words))  # each word gains the folder
    return " ".join(oscalls.posixpath.normpath(oscalls.posixpath.join(make.directory, w)) for w in words)


FUNCTIONS = {
    "shell": _shell, "if": _if, "or": _or, "and": _and, "foreach": _foreach, "call": _call,
    "error": _error, "info": _nothing, "warning": _nothing, "abspath": _abspath,
    "subst": _three(lambda old, new, text: text.replace(old, new) if old else text, _subst_size),
    "patsubst": _three(lambda pattern, replacement, text: " ".join(
        patsubst_word(w, pattern, replacement) for w in text.split()),
        lambda pattern, replacement, text: _affixed_size(replacement, text)),
    "strip": _words_function(lambda w: w),
    "findstring": _two(lambda find, text: find if find in text else ""),
    "filter": _filter(True), "filter-out": _filter(False),
    "sort": lambda make, text, local, in_recipe, depth: " ".join(
        sorted(set(make.expand(text, local, in_recipe, depth + 1).split()))),
    "word": _two(_word),
    "words": lambda make, text, local, in_recipe, depth: str(len(make.expand(text, local, in_recipe, depth + 1).split())),
    "wordlist": _three(_wordlist),
    "firstword": lambda make, text, local, in_recipe, depth: (make.expand(text, local, in_recipe, depth + 1).split() or [""])[0],
    "lastword": lambda make, text, local, in_recipe, depth: (make.expand(text, local, in_recipe, depth + 1).split() or [""])[-1],
    "dir": _words_function(lambda w: oscalls.posixpath.dirname(w) + "/" if "/" in w else "./"),
    "notdir": _words_function(oscalls.posixpath.basename),
    "suffix": _words_function(lambda w: oscalls.posixpath.splitext(w)[1]),
    "basename": _words_function(lambda w: oscalls.posixpath.splitext(w)[0]),
    "addsuffix": _two(lambda suffix, text: " ".join(w + suffix for w in text.split()), _affixed_size),
    "addprefix": _two(lambda prefix, text: " ".join(prefix + w for w in text.split()), _affixed_size),
    "join": _two(lambda a, b: " ".join(x + y for x, y in zip(a.split(), b.split()))),
}
# Functions whose value only the running make knows (the file system, make's own state).
OPAQUE_FUNCTIONS = frozenset(["wildcard", "realpath", "eval", "value", "origin", "flavor", "file",
                              "guile", "let", "intcmp"])
