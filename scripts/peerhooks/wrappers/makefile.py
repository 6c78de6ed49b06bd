"""What `make [options] [VAR=x] [targets]` runs: the recipe lines of the targets and of their
prerequisites, expanded as GNU make expands them, in the folder make works in.

Why: `make commit` whose recipe is `git add -A && git commit -m save` sweeps a live peer's work into
the commit as surely as typing it (replayed public incidents). A Makefile is a plain file; reading it
costs one bounded read.

What it follows, as GNU make 4 does: `-C dir` (cumulative), `-f file`, the default goal (the first
target not starting with `.`, or `.DEFAULT_GOAL`), `VAR=x` on the line (it beats the Makefile's
own assignment unless `override`), `=`, `:=`, `::=`, `?=`, `+=` and `define … endef`, target-specific
variables, `$@ $< $^ $* $?`, `$(VAR:a=b)`, `$$`, recipe prefixes `@ - +`, `.ONESHELL`, line
continuations, `include` of a file in the checkout, conditionals whose operands are known (both
branches when they are not), prerequisites depth first (each target once), pattern rules (a
pattern's recipe once), and the text functions. `$(MAKE)` is `make`, so `$(MAKE) -C sub x` is
followed in turn by the shared interpreter. `$(shell cmd)` in a recipe runs when the recipe is
expanded: it becomes `$(cmd)` in the line; in an in_recipe assignment (`:=`, `!=`) it runs while the
Makefile is read, and is followed as such. A dry run (`-n`, `-q`, `-t`) runs only `+` lines and lines
holding `$(MAKE)` (to which it passes `-n`).

What it cannot follow is never taken as safe: a function whose result only the running make knows
(`$(wildcard …)`, `$(eval …)`) becomes a word known only at run time; when its text mentions git, or
an include or the Makefile itself cannot be read, the result says so (the guard asks beside a peer).

Pure: files come through a `read(path)` function (text, None when absent, or Unreadable).
"""
from ..startup import oscalls
from . import Outside, Unreadable, mentions_git

MAKEFILE_NAMES = ("GNUmakefile", "makefile", "Makefile")  # the order GNU make tries them
# Options whose value is the next word (or attached: `-Cdir`, `--directory=dir`).
VALUE_OPTIONS = {"-f": "file", "--file": "file", "--makefile": "file", "-C": "directory",
                 "--directory": "directory", "-I": "include", "--include-dir": "include",
                 "-o": "ignored", "--old-file": "ignored", "--assume-old": "ignored", "-W": "ignored",
                 "--what-if": "ignored", "--new-file": "ignored", "--assume-new": "ignored",
                 "-E": "eval", "--eval": "eval"}
# Options whose value is optional and numeric (`-j`, `-j 4`, `-j4`).
NUMBER_OPTIONS = frozenset(["-j", "--jobs", "-l", "--load-average", "--max-load"])
DRY_RUN = frozenset(["-n", "--just-print", "--dry-run", "--recon", "-q", "--question", "-t", "--touch"])
RUNS_NOTHING = frozenset(["-v", "--version", "-h", "--help"])
# Past these, what is left is not followed and the result says so.
MAX_TARGETS = 256  # targets visited per make run: a large project's object files are far fewer
MAX_PREREQUISITE_DEPTH = 32
MAX_EXPANSION_DEPTH = 32  # a variable referring to itself, through others
# Expansions per make run, and the characters they make: `B = $(A)$(A)`, `C = $(B)$(B)` … doubles
# with each level, so depth alone does not bound the work.
MAX_EXPANSIONS = 10000
MAX_EXPANDED_CHARS = 1024 * 1024
MAX_INCLUDES = 8
# What a value only the running make knows becomes in a line: a word the interpreter cannot know.
UNKNOWN_WORD = "${PEERHOOKS_MAKE_UNKNOWN}"
RECIPE_PREFIXES = "@-+ \t"
SPECIAL_GOALS = frozenset([".PHONY", ".SUFFIXES", ".DEFAULT", ".PRECIOUS", ".INTERMEDIATE", ".SECONDARY",
                           ".SECONDEXPANSION", ".DELETE_ON_ERROR", ".IGNORE", ".LOW_RESOLUTION_TIME",
                           ".SILENT", ".EXPORT_ALL_VARIABLES", ".NOTPARALLEL", ".ONESHELL", ".POSIX",
                           ".NOTINTERMEDIATE", ".WAIT"])


class _Stop(Exception):
    """make stops here (`$(error …)`, a missing include): what was found before stands."""


class Invocation:
    """A make command line as make reads it: its folder, makefiles, goals, variables, dry run."""

    def __init__(self, words, cwd):
        self.directory, self.files, self.goals, self.overrides = cwd, [], [], {}
        self.dry, self.runs_nothing, self.evals = False, False, []
        self._read(words)

    def _read(self, words):
        index = 0
        while index < len(words):
            word = words[index]
            index += 1
            if word == "--":
                self.goals.extend(w for w in words[index:] if "=" not in w)
                break
            if word.startswith("--"):
                name, has_value, value = word.partition("=")
                if name in VALUE_OPTIONS and not has_value and index < len(words):
                    value, index = words[index], index + 1
                self._option(name, value)
            elif word.startswith("-") and len(word) > 1:
                index = self._cluster(word, words, index)
            elif "=" in word and _is_variable_name(word.partition("=")[0].rstrip(":+?!")):
                name, _eq, value = word.partition("=")
                self.overrides[name.rstrip(":+?!")] = value
            else:
                self.goals.append(word)

    def _cluster(self, word, words, index):
        """`-sk`, `-C dir`, `-Cdir`, `-j4`, `-j 4`: short options, some taking a value."""
        position = 1
        while position < len(word):
            flag = "-" + word[position]
            rest = word[position + 1:]
            if flag in VALUE_OPTIONS:
                if not rest and index < len(words):
                    rest, index = words[index], index + 1
                self._option(flag, rest)
                return index
            if flag in NUMBER_OPTIONS:
                if not rest and index < len(words) and words[index].replace(".", "").isdigit():
                    index += 1
                return index
            if flag == "-O":
                return index  # the output-sync type is attached
            self._option(flag, "")
            position += 1
        return index

    def _option(self, name, value):
        kind = VALUE_OPTIONS.get(name)
        if kind == "file":
            self.files.append(value)
        elif kind == "directory" and self.directory is not None:
            self.directory = oscalls.posixpath.normpath(oscalls.posixpath.join(self.directory, value)) if value else self.directory
        elif kind == "eval":
            self.evals.append(value)
        elif name in DRY_RUN:
            self.dry = True
        elif name in RUNS_NOTHING:
            self.runs_nothing = True


def _is_variable_name(name):
    return bool(name) and not any(c in name for c in " \t:#=$(){}")


class Makefile:
    """A makefile as GNU make reads it: its variables, rules, default goal, and what running its
    reading already ran (`:=` of `$(shell …)`), with what it could not follow."""

    def __init__(self, invocation, read, environment=()):
        self.invocation = invocation
        self.directory = invocation.directory
        self.read = read
        self.variables = {}  # name -> (value, recursive, overriding)
        self.environment = dict(environment)  # variables the shell exported: make sees them
        self.rules = {}  # target -> [[prerequisites, recipe lines]]; `::` keeps one per rule line
        self.patterns = []  # [target pattern, prerequisites, recipe lines]
        self._recipe_started = set()  # targets of the rule line being read that have a recipe line
        self.target_variables = {}  # target -> {name: (value, recursive)}
        self.default_goal = None
        self.oneshell = False
        self.parse_runs = []  # shell commands make ran while reading
        self.unknown = []  # why some of what it runs could not be followed
        self.unread_includes = []  # what may define a goal this makefile does not (see run)
        self.includes = 0
        self.targets_followed = 0
        self.expansions = 0
        self.expanded_chars = 0

    # -- reading -------------------------------------------------------------------------------

    def read_file(self, path):
        """Read one makefile (or include) into the model; False when it is absent."""
        text = self.read(path)
        if text is None:
            return False
        self.read_text(text)
        return True

    def read_text(self, text):
        lines = _logical_lines(text)
        conditions = []  # (this branch taken, some branch taken, known)
        in_rule = None  # the targets whose recipe the tab-lines belong to
        define = None  # (name, operator, directive, lines) while inside define … endef
        for line, is_recipe in lines:
            if define is not None:
                if line.strip() == "endef" or line.strip().startswith("endef "):
                    name, operator, directive, body = define
                    if _active(conditions):
                        self._assign(name, operator, "\n".join(body), directive)
                    define = None
                else:
                    body = define[3]
                    body.append(line)
                continue
            if is_recipe and in_rule is not None:
                if _active(conditions):
                    self._add_recipe_line(in_rule, line)
                continue
            stripped = _strip_comment(line).strip()
            if not stripped:
                continue
            word, _blank, rest = stripped.partition(" ")
            if word in ("ifeq", "ifneq", "ifdef", "ifndef"):
                known, value = self._condition(word, rest.strip())
                outer = _active(conditions)
                conditions.append((outer and (value or not known), value or not known, known))
                continue
            if word == "else" and conditions:
                taken, some, known = conditions.pop()
                outer = _active(conditions)
                inner = rest.strip()
                if inner.split(" ", 1)[0] in ("ifeq", "ifneq", "ifdef", "ifndef"):
                    head, _b, tail = inner.partition(" ")
                    sub_known, sub_value = self._condition(head, tail.strip())
                    chosen = (not some or not known) and (sub_value or not sub_known)
                    conditions.append((outer and chosen, some or sub_value, known and sub_known))
                else:
                    conditions.append((outer and (not some or not known), True, known))
                continue
            if word == "endif" and conditions:
                conditions.pop()
                continue
            if not _active(conditions):
                continue
            if word == "define" or word in ("export", "override", "private") and rest.startswith("define"):
                directive = word if word != "define" else ""
                header = rest if word == "define" else rest[len("define"):]
                name, operator = _define_header(header.strip())
                define = (name, operator, directive, [])
                continue
            if word in ("include", "-include", "sinclude"):
                self._include(rest, word == "include")
                continue
            if word in ("vpath", "unexport", "undefine", "load", "-load") or stripped == "export":
                if word == "undefine":
                    self.variables.pop(rest.strip(), None)
                continue
            assignment = _assignment(stripped)
            if assignment is not None:
                in_rule = None
                self._assign(*assignment)
                continue
            rule = self._rule(stripped)
            in_rule = rule

    def _condition(self, word, text):
        """(whether the condition is known here, its value)."""
        if word in ("ifdef", "ifndef"):
            name = self.expand(text.strip())
            if name in self.invocation.overrides:
                defined = bool(self.invocation.overrides[name])
            elif name in self.variables:
                defined = bool(self.variables[name][0])
            elif name in self.environment:
                defined = bool(self.environment[name])
            else:
                return False, False  # the environment of the running make may define it
            return True, defined == (word == "ifdef")
        pair = _condition_operands(text)
        if pair is None:
            return False, False
        first, second = (self.expand(part) for part in pair)
        if _unknowable(first) or _unknowable(second):
            return False, False
        return True, (first.strip() == second.strip()) == (word == "ifeq")

    def _include(self, text, required):
        for name in self.expand(text).split():
            if _unknowable(name):
                self.unread_includes.append("an include only make can name (%s)" % text.strip())
                continue
            self.includes += 1
            if self.includes > MAX_INCLUDES:
                self.unknown.append("more than %d includes" % MAX_INCLUDES)
                return
            path = oscalls.posixpath.normpath(oscalls.posixpath.join(self.directory, name))
            try:
                found = self.read_file(path)
            except Unreadable as error:
                self.unread_includes.append("the include %s (%s)" % (name, error))
                continue
            if not found and required:
                raise _Stop()  # make cannot read its makefiles and stops before any recipe

    def _assign(self, name, operator, value, directive=""):
        name = self.expand(name).strip()
        if not name:
            return
        overriding = directive == "override"
        if name in self.invocation.overrides and not overriding:
            return  # the command line's value wins
        if operator == "?=":
            if name in self.variables or name in self.environment:
                return
            operator = "="
        if operator == "+=":
            old = self.variables.get(name)
            if old is not None:
                if old[1]:
                    self.variables[name] = (old[0] + " " + value, True, overriding)
                else:
                    self.variables[name] = (old[0] + " " + self.expand(value), False, overriding)
                return
            operator = "="
        if operator == "!=":
            self.parse_runs.append(self.expand(value))
            self.variables[name] = (UNKNOWN_WORD, False, overriding)
        elif operator in (":=", "::=", ":::="):
            self.variables[name] = (self.expand(value), False, overriding)
        else:
            self.variables[name] = (value, True, overriding)
        if name == ".DEFAULT_GOAL":
            self.default_goal = self.expand(value).strip() or None

    def _rule(self, line):
        """Record `targets: prerequisites ; recipe` (and `::`, static patterns, target variables);
        returns the targets tab-lines belong to."""
        colon = _find_unnested(line, ":")
        if colon < 0:
            return None  # not a rule: make would stop on "missing separator"
        double = line.startswith("::", colon)
        targets_text = line[:colon].rstrip("&")  # `a b &: c`: grouped targets
        rest = line[colon + (2 if double else 1):]
        targets = self.expand(targets_text).split()
        variable = _assignment(rest.strip())
        if variable is not None and _find_unnested(rest, ";") < 0:  # `commit: MSG = save`
            name, operator, value, _directive = variable
            recursive = operator not in (":=", "::=", ":::=")
            for target in targets:
                self.target_variables.setdefault(target, {})[name.strip()] = (
                    value if recursive else self.expand(value), recursive)
            return None
        semicolon = _find_unnested(rest, ";")
        inline = rest[semicolon + 1:] if semicolon >= 0 else None
        prerequisites_text = rest[:semicolon] if semicolon >= 0 else rest
        static = _find_unnested(prerequisites_text, ":")
        target_pattern = None
        if static >= 0:  # `objs: %.o: %.c`
            target_pattern = self.expand(prerequisites_text[:static]).strip()
            prerequisites_text = prerequisites_text[static + 1:]
        prerequisites = [p for p in self.expand(prerequisites_text).split() if p != "|"]
        for target in targets:
            if target == ".ONESHELL":
                self.oneshell = True
            if self.default_goal is None and _goal_candidate(target) and static < 0:
                self.default_goal = target
            wanted = prerequisites
            if target_pattern is not None:
                stem = _stem(target_pattern, target)
                wanted = [p.replace("%", stem, 1) if stem is not None else p for p in prerequisites]
            if "%" in target and target_pattern is None:
                self.patterns.append([target, wanted, []])
                continue
            rules = self.rules.setdefault(target, [])
            if double or not rules:
                rules.append([list(wanted), []])
            else:
                rules[-1][0].extend(wanted)
        self._recipe_started = set()
        if inline is not None:
            self._add_recipe_line(targets, inline)
        return targets

    def _add_recipe_line(self, targets, line):
        for target in targets:
            if "%" in target:
                for pattern in reversed(self.patterns):
                    if pattern[0] == target:
                        pattern[2].append(line)
                        break
                continue
            rules = self.rules.get(target)
            if not rules:
                continue
            recipe = rules[-1][1]
            if target not in self._recipe_started:
                self._recipe_started.add(target)
                del recipe[:]  # a later rule's recipe replaces an earlier one (make warns, and does so)
            recipe.append(line)

    # -- expansion -------------------------------------------------------------------------------

    def expand(self, text, local=None, in_recipe=False, depth=0):
        """The text with make's references replaced. local: automatic and target variables.
        in_recipe: it is a recipe being expanded to run (a `$(shell …)` becomes a substitution in
        the line); otherwise it is expanded while the makefile is read (a `$(shell …)` runs now)."""
        if "$" not in text:
            return text
        if depth > MAX_EXPANSION_DEPTH:
            self.unknown.append("a variable that refers to itself")
            return UNKNOWN_WORD
        self.expansions += 1
        if self.expansions > MAX_EXPANSIONS:
            self.unknown.append("more than %d expansions" % MAX_EXPANSIONS)
            raise _Stop()
        out, pos = [], 0
        while True:
            dollar = text.find("$", pos)
            if dollar < 0 or dollar + 1 >= len(text):
                out.append(text[pos:])
                result = "".join(out)
                self.expanded_chars += len(result)
                if self.expanded_chars > MAX_EXPANDED_CHARS:
                    self.unknown.append("expansions longer than %d KB" % (MAX_EXPANDED_CHARS // 1024))
                    raise _Stop()
                return result
            out.append(text[pos:dollar])
            char = text[dollar + 1]
            if char == "$":
                out.append("$")
                pos = dollar + 2
            elif char in "({":
                close = _matching(text, dollar + 1)
                inner = text[dollar + 2:close - 1]
                out.append(self._reference(inner, local, in_recipe, depth))
                pos = close
            else:
                out.append(self._variable(char, local, in_recipe, depth))
                pos = dollar + 2

    def _reference(self, inner, local, in_recipe, depth):
        head, blank, arguments = _split_function(inner)
        if blank and head in FUNCTIONS:
            return FUNCTIONS[head](self, arguments, local, in_recipe, depth)
        if blank and head in OPAQUE_FUNCTIONS:
            if mentions_git(inner):
                self.unknown.append("$(%s …) mentions git" % head)
            return UNKNOWN_WORD
        colon = _find_unnested(inner, ":")
        if colon > 0 and "=" in inner[colon:]:  # $(VAR:.c=.o)
            name = self.expand(inner[:colon], local, in_recipe, depth + 1)
            old, _eq, new = inner[colon + 1:].partition("=")
            value = self._variable(name, local, in_recipe, depth)
            return " ".join(_substitute_suffix(word, old, new) for word in value.split())
        return self._variable(self.expand(inner, local, in_recipe, depth + 1), local, in_recipe, depth)

    def _variable(self, name, local, in_recipe, depth):
        local = local or {}
        if name in AUTOMATIC or name[:1] in AUTOMATIC and name[1:] in ("D", "F"):
            value = local.get(name[:1], "")
            if name.endswith("D"):
                return " ".join(oscalls.posixpath.dirname(w) or "." for w in value.split())
            if name.endswith("F"):
                return " ".join(oscalls.posixpath.basename(w) for w in value.split())
            return value
        if name in local:
            value, recursive = local[name]
            return self.expand(value, local, in_recipe, depth + 1) if recursive else value
        found = self.variables.get(name)
        if name in self.invocation.overrides and not (found and found[2]):
            return self.invocation.overrides[name]
        if found is not None:
            value, recursive, _overriding = found
            return self.expand(value, local, in_recipe, depth + 1) if recursive else value
        if name == "MAKE":
            return "make -n" if self.invocation.dry else "make"
        if name == "CURDIR":
            return self.directory or UNKNOWN_WORD
        if name in ("SHELL",):
            return "/bin/sh"
        if name in ("MAKEFLAGS", "MFLAGS", "MAKECMDGOALS", "MAKEFILE_LIST", ".VARIABLES"):
            return ""
        if name in self.environment:
            return self.environment[name]
        if _is_variable_name(name):
            return "${%s}" % name  # from the environment make runs in: the recipe's shell sees the same
        return UNKNOWN_WORD

    # -- running -----------------------------------------------------------------------------------

    def run(self, goals):
        """[(recipe line, the raw line it came from, whether it is a dry run's `+` line)] that
        running the goals runs, in order."""
        goals = goals or ([self.default_goal] if self.default_goal else [])
        if self.unread_includes and (not goals or any(g not in self.rules and self._pattern_for(g) is None
                                                      for g in goals)):
            self.unknown.extend(self.unread_includes)  # a goal found nowhere may be the include's
        found, built, patterns_run = [], set(), set()
        try:
            for goal in goals:
                self._build(goal, found, built, patterns_run, {}, 0)
        except _Stop:
            pass
        return found

    def _build(self, target, found, built, patterns_run, inherited, depth):
        """Depth first, as make builds: the prerequisites, then the target's recipe; each target
        once. A pattern rule's recipe is followed for the first target it makes (the others differ
        only in their file names)."""
        if target in built:
            return
        built.add(target)
        variables = dict(inherited)
        variables.update((name, value) for name, value in self.target_variables.get(target, {}).items()
                         if name not in self.invocation.overrides)  # the command line wins over them too
        rules = self.rules.get(target) or []
        stem = None
        if not any(rule[1] for rule in rules):
            pattern = self._pattern_for(target)
            if pattern is not None:
                stem = _stem(pattern[0], target)
                made = [[p.replace("%", stem, 1) for p in pattern[1]],
                        [] if pattern[0] in patterns_run else pattern[2]]
                patterns_run.add(pattern[0])
                rules = rules + [made]
            elif not rules and ".DEFAULT" in self.rules:
                rules = [[[], self.rules[".DEFAULT"][-1][1]]]
        if not rules:
            return  # a plain file, or no rule: nothing of the makefile's runs for it
        self.targets_followed += 1
        if self.targets_followed > MAX_TARGETS or depth > MAX_PREREQUISITE_DEPTH:
            self.unknown.append("more targets than the guard follows (%d, %d deep)" % (
                MAX_TARGETS, MAX_PREREQUISITE_DEPTH))
            raise _Stop()
        for prerequisites, _recipe in rules:
            for prerequisite in prerequisites:
                self._build(prerequisite, found, built, patterns_run, variables, depth + 1)
        for prerequisites, recipe in rules:
            if not recipe:
                continue
            every = [p for rule in rules for p in rule[0]]
            local = dict(variables)
            local.update({"@": target, "<": prerequisites[0] if prerequisites else "", "^": " ".join(every),
                          "+": " ".join(every), "?": " ".join(every), "*": stem or "", "|": ""})
            self._recipe(recipe, local, found)

    def _pattern_for(self, target):
        for pattern in self.patterns:
            if pattern[2] and _stem(pattern[0], target) is not None:
                return pattern
        return None

    def _recipe(self, recipe, local, found):
        lines = []
        for raw in recipe:
            expanded = self.expand(raw, local, in_recipe=True)
            for line in _recipe_lines(expanded):
                lines.append((raw, line))
        if self.oneshell and lines:
            body = "\n".join(_without_prefixes(line)[0] for _raw, line in lines)
            plus = any(_without_prefixes(line)[1] for _raw, line in lines)
            lines = [(" ".join(raw for raw, _line in lines), body)]
            if self._runs(lines[0][0], plus):
                found.append((body, plus))
            return
        for raw, line in lines:
            text, plus = _without_prefixes(line)
            if text.strip() and self._runs(raw, plus):
                found.append((text, plus))

    def _runs(self, raw, plus):
        """Under a dry run make runs only `+` lines and lines that hold $(MAKE)."""
        return not self.invocation.dry or plus or "$(MAKE)" in raw or "${MAKE}" in raw


def _recipe_lines(text):
    """The lines one expanded recipe line makes: a canned recipe (`define`) holds several; a
    backslash-newline continues the line for the shell."""
    lines, start, position = [], 0, text.find("\n")
    while position >= 0:
        if not _continues(text[start:position]):
            lines.append(text[start:position])
            start = position + 1
        position = text.find("\n", position + 1)
    return lines + [text[start:]]


def _without_prefixes(line):
    """(the recipe line without its leading `@`, `-`, `+` and blanks, whether `+` was among them)."""
    stripped = line.lstrip(RECIPE_PREFIXES)
    return stripped, "+" in line[:len(line) - len(stripped)]


AUTOMATIC = frozenset("@<^+*?|%")


def _goal_candidate(target):
    return "%" not in target and (not target.startswith(".") or "/" in target) and target not in SPECIAL_GOALS


def _stem(pattern, target):
    """What `%` matches when the target fits the pattern, else None."""
    head, percent, tail = pattern.partition("%")
    if not percent:
        return "" if pattern == target else None
    if len(target) >= len(head) + len(tail) and target.startswith(head) and target.endswith(tail):
        return target[len(head):len(target) - len(tail)]
    return None


def _substitute_suffix(word, old, new):
    """`$(VAR:.c=.o)` on one word: a suffix replaced, or with `%`, patsubst's rule."""
    if "%" not in old:
        old, new = "%" + old, "%" + new
    return _patsubst_word(word, old, new)


def _patsubst_word(word, pattern, replacement):
    stem = _stem(pattern, word)
    if stem is None:
        return word
    return replacement.replace("%", stem, 1) if "%" in replacement else replacement


def _unknowable(text):
    return UNKNOWN_WORD in text or "${" in text


def _active(conditions):
    return all(taken for taken, _some, _known in conditions)


# -- lines --------------------------------------------------------------------------------------

def _logical_lines(text):
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
        while _continues(line) and index < len(physical):
            following = physical[index]
            index += 1
            if recipe:
                line = line + "\n" + (following[1:] if following.startswith("\t") else following)
            else:
                line = line[:-1].rstrip() + " " + following.lstrip()
        lines.append((line, recipe))
    return lines


def _continues(line):
    trailing = len(line) - len(line.rstrip("\\"))
    return trailing % 2 == 1


def _strip_comment(line):
    position = 0
    while True:
        hash_at = line.find("#", position)
        if hash_at < 0:
            return line
        if hash_at > 0 and line[hash_at - 1] == "\\":
            position = hash_at + 1
            continue
        return line[:hash_at]


def _assignment(line):
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
            position = _matching(line, position + 1)
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


def _define_header(header):
    for operator in (":::=", "::=", ":=", "?=", "+=", "!=", "="):
        if header.endswith(operator):
            return header[:-len(operator)].strip(), operator
    return header.strip(), "="


def _condition_operands(text):
    """The two operands of `ifeq (a,b)`, `ifeq "a" "b"`, `ifeq 'a' 'b'`."""
    text = text.strip()
    if text.startswith("(") and text.endswith(")"):
        inner = text[1:-1]
        comma = _find_unnested(inner, ",")
        return None if comma < 0 else (inner[:comma], inner[comma + 1:])
    if text and text[0] in "'\"":
        quote = text[0]
        end = text.find(quote, 1)
        second = text[end + 1:].strip()
        if end < 0 or len(second) < 2 or second[0] not in "'\"" or not second.endswith(second[0]):
            return None
        return text[1:end], second[1:-1]
    return None


def _matching(text, opening_at):
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


def _find_unnested(text, char):
    """Where char first occurs outside `$( … )` / `${ … }`, or -1."""
    position = 0
    while position < len(text):
        if text[position] == "$" and text[position + 1:position + 2] in ("(", "{"):
            position = _matching(text, position + 1)
            continue
        if text[position] == char:
            return position
        position += 1
    return -1


def _split_function(inner):
    """(function name, whether a blank follows it, its arguments text)."""
    for position, char in enumerate(inner):
        if char in " \t":
            return inner[:position], True, inner[position + 1:].lstrip(" \t")
        if char in "$():={}":
            break
    return inner, False, ""


def _arguments(text, count):
    """The comma-separated arguments of a function, the last taking the rest (commas nested in
    references stay)."""
    parts, position, start = [], 0, 0
    while position < len(text) and len(parts) < count - 1:
        if text[position] == "$" and text[position + 1:position + 2] in ("(", "{"):
            position = _matching(text, position + 1)
            continue
        if text[position] == ",":
            parts.append(text[start:position])
            start = position + 1
        position += 1
    parts.append(text[start:])
    return parts + [""] * (count - len(parts))


# -- functions ----------------------------------------------------------------------------------

def _shell(make, text, local, in_recipe, depth):
    command = make.expand(text, local, in_recipe, depth + 1)
    if not in_recipe:
        make.parse_runs.append(command)  # it runs now, while the makefile is read
        return UNKNOWN_WORD
    return "$(" + command + ")"  # in a recipe: runs as the recipe is expanded, as a substitution does


def _words_function(transform):
    def function(make, text, local, in_recipe, depth):
        return " ".join(transform(w) for w in make.expand(text, local, in_recipe, depth + 1).split())
    return function


def _two(transform):
    def function(make, text, local, in_recipe, depth):
        first, second = (make.expand(a, local, in_recipe, depth + 1) for a in _arguments(text, 2))
        return transform(first, second)
    return function


def _three(transform):
    def function(make, text, local, in_recipe, depth):
        values = [make.expand(a, local, in_recipe, depth + 1) for a in _arguments(text, 3)]
        return transform(*values)
    return function


def _if(make, text, local, in_recipe, depth):
    condition, then, otherwise = _arguments(text, 3)
    value = make.expand(condition, local, in_recipe, depth + 1).strip()
    if _unknowable(value):
        both = make.expand(then, local, in_recipe, depth + 1) + " " + make.expand(otherwise, local, in_recipe, depth + 1)
        if mentions_git(both):
            make.unknown.append("$(if …) on a value only make knows")
        return UNKNOWN_WORD
    return make.expand(then if value else otherwise, local, in_recipe, depth + 1)


def _foreach(make, text, local, in_recipe, depth):
    name, values, body = _arguments(text, 3)
    name = make.expand(name, local, in_recipe, depth + 1).strip()
    words = make.expand(values, local, in_recipe, depth + 1).split()
    results = []
    for word in words[:MAX_TARGETS]:
        inner = dict(local or {})
        inner[name] = (word, False)
        results.append(make.expand(body, inner, in_recipe, depth + 1))
    return " ".join(results)


def _call(make, text, local, in_recipe, depth):
    parts = _split_top_commas(text)
    name = make.expand(parts[0], local, in_recipe, depth + 1).strip()
    inner = dict(local or {})
    for position, argument in enumerate(parts[1:], start=1):
        inner[str(position)] = (make.expand(argument, local, in_recipe, depth + 1), False)
    found = make.variables.get(name)
    if found is None:
        return ""
    return make.expand(found[0], inner, in_recipe, depth + 1) if found[1] else found[0]


def _split_top_commas(text):
    parts = []
    while True:
        comma = _find_unnested(text, ",")
        if comma < 0:
            return parts + [text]
        parts.append(text[:comma])
        text = text[comma + 1:]


def _or(make, text, local, in_recipe, depth):
    for part in _split_top_commas(text):
        value = make.expand(part, local, in_recipe, depth + 1).strip()
        if value:
            return value
    return ""


def _and(make, text, local, in_recipe, depth):
    value = ""
    for part in _split_top_commas(text):
        value = make.expand(part, local, in_recipe, depth + 1).strip()
        if not value:
            return ""
    return value


def _error(make, text, local, in_recipe, depth):
    raise _Stop()


def _nothing(make, text, local, in_recipe, depth):
    return ""


def _filter(keep):
    def function(make, text, local, in_recipe, depth):
        patterns, words = (make.expand(a, local, in_recipe, depth + 1).split() for a in _arguments(text, 2))
        return " ".join(w for w in words if any(_stem(p, w) is not None for p in patterns) == keep)
    return function


def _word(position, words):
    return words.split()[int(position) - 1] if position.strip().isdigit() and 0 < int(position) <= len(words.split()) else ""


def _wordlist(start, end, words):
    if not (start.strip().isdigit() and end.strip().isdigit()):
        return UNKNOWN_WORD
    return " ".join(words.split()[int(start) - 1:int(end)])


def _abspath(make, text, local, in_recipe, depth):
    words = make.expand(text, local, in_recipe, depth + 1).split()
    return " ".join(oscalls.posixpath.normpath(oscalls.posixpath.join(make.directory, w)) for w in words)


FUNCTIONS = {
    "shell": _shell, "if": _if, "or": _or, "and": _and, "foreach": _foreach, "call": _call,
    "error": _error, "info": _nothing, "warning": _nothing, "abspath": _abspath,
    "subst": _three(lambda old, new, text: text.replace(old, new) if old else text),
    "patsubst": _three(lambda pattern, replacement, text: " ".join(
        _patsubst_word(w, pattern, replacement) for w in text.split())),
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
    "addsuffix": _two(lambda suffix, text: " ".join(w + suffix for w in text.split())),
    "addprefix": _two(lambda prefix, text: " ".join(prefix + w for w in text.split())),
    "join": _two(lambda a, b: " ".join(x + y for x, y in zip(a.split(), b.split()))),
}
# Functions whose value only the running make knows (the file system, make's own state).
OPAQUE_FUNCTIONS = frozenset(["wildcard", "realpath", "eval", "value", "origin", "flavor", "file",
                              "guile", "let", "intcmp"])


def follow(invocation, read, environment=()):
    """(the lines running it runs, as (line, is a parse-time run); why parts could not be followed).
    read(path) gives a makefile's text (None when absent, Unreadable when it must not be read)."""
    if invocation.runs_nothing or invocation.directory is None:
        return [], []
    make = Makefile(invocation, read, environment)
    names = [oscalls.posixpath.normpath(oscalls.posixpath.join(invocation.directory, f)) for f in invocation.files] or [
        oscalls.posixpath.join(invocation.directory, n) for n in MAKEFILE_NAMES]
    try:
        for text in invocation.evals:  # read before the makefiles (GNU make 4)
            make.read_text(text)
        if invocation.files:
            for path in names:
                if not make.read_file(path):
                    return [], []  # "No such file or directory": make stops before running anything
        elif not any(make.read_file(path) for path in names):
            return [], []  # "No targets specified and no makefile found"
    except Outside:
        return [], []  # a makefile outside every checkout is not followed
    except Unreadable as error:
        return [], ["the makefile (%s)" % error]
    except _Stop:
        return [], make.unknown
    found = [(line, True) for line in make.parse_runs if line.strip()]
    found += [(line, False) for line, _plus in make.run(invocation.goals)]
    return found, make.unknown
