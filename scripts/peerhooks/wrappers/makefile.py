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
from .files import Outside, OverBound, Unreadable, mentions_git
from .make_functions import FUNCTIONS, OPAQUE_FUNCTIONS, UNKNOWN_WORD, Stop, unknowable
from .make_syntax import (assignment_of, condition_operands, define_header, find_unnested, is_variable_name,
                          logical_lines, matching_end, recipe_lines, split_function, stem_of, strip_comment,
                          substitute_suffix, without_prefixes)

MAKEFILE_NAMES = ("GNUmakefile", "makefile", "Makefile")  # the order GNU make tries them
# Past these, what is left is not followed and the result says so.
MAX_TARGETS = 256  # targets visited per make run: a large project's object files are far fewer
MAX_PREREQUISITE_DEPTH = 32
MAX_EXPANSION_DEPTH = 32  # a variable referring to itself, through others
# The work of one make run's reading and expansion, counted as it is done, not by what it yields
# (issue 35: `V = $(subst x,,<100,000 x>)` referenced a thousand times yields nothing, and rescanned
# 100 KB each time for 9 s): in characters, the makefiles read, each reference's text as it is
# scanned character by character (for its bracket, its function's name and arguments), the words a
# function walks one by one, and the text expansion makes; and the references and function calls
# expanded (`B = $(A)$(A)`, `C = $(B)$(B)` … doubles with each level). Past either, what make runs is
# not judged, and the guard asks beside a live peer. Measured: CPython 3.6-3.11's generated
# Makefiles (70-116 KB) take at most 0.9 MB for `make` or `make install`; the worst input found
# (`$(a $(a $(a …` nested over 75 KB) spends the 3 MB in ~0.17 s on the 2-core bench machine.
MAX_EXPANSION_WORK = 3 * 1024 * 1024
MAX_EXPANSIONS = 10000
MAX_INCLUDES = 8
SPECIAL_GOALS = frozenset([".PHONY", ".SUFFIXES", ".DEFAULT", ".PRECIOUS", ".INTERMEDIATE", ".SECONDARY",
                           ".SECONDEXPANSION", ".DELETE_ON_ERROR", ".IGNORE", ".LOW_RESOLUTION_TIME",
                           ".SILENT", ".EXPORT_ALL_VARIABLES", ".NOTPARALLEL", ".ONESHELL", ".POSIX",
                           ".NOTINTERMEDIATE", ".WAIT"])


CONDITIONALS = ("ifeq", "ifneq", "ifdef", "ifndef")


class _Conditions:
    """The conditionals open where a makefile is being read, innermost last, each as (this branch
    taken, some branch taken, known): a branch whose condition is not known here is read too."""

    def __init__(self):
        self.stack = []

    def __bool__(self):
        return bool(self.stack)

    def active(self):
        return all(taken for taken, _some, _known in self.stack)

    def open(self, known, value):
        self.stack.append((self.active() and (value or not known), value or not known, known))

    def turn(self, known, value):
        """`else`, or `else ifeq …` with its condition: taken when no branch before was surely
        taken and this one may be."""
        _taken, some, was_known = self.stack.pop()
        chosen = (not some or not was_known) and (value or not known)
        self.stack.append((self.active() and chosen, some or value, was_known and known))

    def close(self):
        self.stack.pop()


class _Reading:
    """Where the reading of one makefile's text stands: its open conditionals, the targets the
    recipe lines belong to, and the `define` being read (name, operator, directive, lines)."""

    def __init__(self):
        self.conditions = _Conditions()
        self.in_rule = None
        self.define = None


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
        self.work = 0  # characters scanned and made (MAX_EXPANSION_WORK)
        self.name = "the makefile"  # as a reason names it: the file make reads first
        self.doing = "the reading of the makefile"  # what a spent budget stops, as a reason names it

    # -- reading -------------------------------------------------------------------------------

    def read_file(self, path):
        """Read one makefile (or include) into the model; False when it is absent."""
        text = self.read(path)
        if text is None:
            return False
        self.read_text(text)
        return True

    def charge(self, characters):
        """Count work done (or about to be: a function whose result would be large is charged
        first); past MAX_EXPANSION_WORK make's run is not judged (Stop, with why)."""
        self.work += characters
        if self.work > MAX_EXPANSION_WORK:
            self.unknown.append("%s is too large to judge (over %d KB scanned or made)" % (
                self.doing, MAX_EXPANSION_WORK // 1024))
            raise Stop()

    def read_text(self, text):
        self.charge(len(text))  # its lines are cut and scanned once (a makefile may include itself)
        reading = _Reading()
        for line, is_recipe in logical_lines(text):
            if reading.define is not None:
                self._define_line(reading, line)
            elif is_recipe and reading.in_rule is not None:
                if reading.conditions.active():
                    self._add_recipe_line(reading.in_rule, line)
            else:
                stripped = strip_comment(line).strip()
                if stripped and not self._conditional(reading.conditions, stripped) and reading.conditions.active():
                    self._statement(reading, stripped)

    def _define_line(self, reading, line):
        """A line of a `define … endef` body, or its `endef`, which assigns the body."""
        if line.strip() == "endef" or line.strip().startswith("endef "):
            name, operator, directive, body = reading.define
            if reading.conditions.active():
                self._assign(name, operator, "\n".join(body), directive)
            reading.define = None
        else:
            reading.define[3].append(line)

    def _conditional(self, conditions, stripped):
        """Open, turn or close a conditional (`ifeq`, `else [ifeq …]`, `endif`); False for any other line."""
        word, _blank, rest = stripped.partition(" ")
        if word in CONDITIONALS:
            conditions.open(*self._condition(word, rest.strip()))
        elif word == "else" and conditions:
            inner = rest.strip()
            head, _blank, tail = inner.partition(" ")
            if inner.split(" ", 1)[0] in CONDITIONALS:
                conditions.turn(*self._condition(head, tail.strip()))
            else:
                conditions.turn(True, True)
        elif word == "endif" and conditions:
            conditions.close()
        else:
            return False
        return True

    def _statement(self, reading, stripped):
        """A line the conditionals let make read: a directive, an assignment or a rule."""
        word, _blank, rest = stripped.partition(" ")
        if word == "define" or word in ("export", "override", "private") and rest.startswith("define"):
            header = rest if word == "define" else rest[len("define"):]
            name, operator = define_header(header.strip())
            reading.define = (name, operator, word if word != "define" else "", [])
        elif word in ("include", "-include", "sinclude"):
            self._include(rest, word == "include")
        elif word in ("vpath", "unexport", "undefine", "load", "-load") or stripped == "export":
            if word == "undefine":
                self.variables.pop(rest.strip(), None)
        else:
            assignment = assignment_of(stripped)
            if assignment is not None:
                reading.in_rule = None
                self._assign(*assignment)
            else:
                reading.in_rule = self._rule(stripped)

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
        pair = condition_operands(text)
        if pair is None:
            return False, False
        first, second = (self.expand(part) for part in pair)
        if unknowable(first) or unknowable(second):
            return False, False
        return True, (first.strip() == second.strip()) == (word == "ifeq")

    def _include(self, text, required):
        for name in self.expand(text).split():
            if unknowable(name):
                self.unread_includes.append("an include only make can name (%s)" % text.strip())
                continue
            self.includes += 1
            if self.includes > MAX_INCLUDES:
                self.unknown.append("its includes are too many to judge (more than %d)" % MAX_INCLUDES)
                return
            path = oscalls.posixpath.normpath(oscalls.posixpath.join(self.directory, name))
            try:
                found = self.read_file(path)
            except OverBound as error:  # a bound, not the file: what it defines counts wherever it is used
                self.unknown.append("the include %s is too large to judge (%s)" % (name, error))
                continue
            except Unreadable as error:
                self.unread_includes.append("the include %s (%s)" % (name, error))
                continue
            if not found and required:
                raise Stop()  # make cannot read its makefiles and stops before any recipe

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
        colon = find_unnested(line, ":")
        if colon < 0:
            return None  # not a rule: make would stop on "missing separator"
        double = line.startswith("::", colon)
        targets_text = line[:colon].rstrip("&")  # `a b &: c`: grouped targets
        rest = line[colon + (2 if double else 1):]
        targets = self.expand(targets_text).split()
        variable = assignment_of(rest.strip())
        if variable is not None and find_unnested(rest, ";") < 0:  # `commit: MSG = save`
            name, operator, value, _directive = variable
            recursive = operator not in (":=", "::=", ":::=")
            for target in targets:
                self.target_variables.setdefault(target, {})[name.strip()] = (
                    value if recursive else self.expand(value), recursive)
            return None
        semicolon = find_unnested(rest, ";")
        inline = rest[semicolon + 1:] if semicolon >= 0 else None
        prerequisites_text = rest[:semicolon] if semicolon >= 0 else rest
        static = find_unnested(prerequisites_text, ":")
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
                stem = stem_of(target_pattern, target)
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
            self.unknown.append("a variable that refers to itself, or references nested more than %d deep"
                                % MAX_EXPANSION_DEPTH)
            return UNKNOWN_WORD
        self.expansions += 1
        if self.expansions > MAX_EXPANSIONS:
            self.unknown.append("%s is too large to judge (over %d references and calls)" % (
                self.doing, MAX_EXPANSIONS))
            raise Stop()
        out, pos = [], 0
        while True:
            dollar = text.find("$", pos)
            if dollar < 0 or dollar + 1 >= len(text):
                out.append(text[pos:])
                result = "".join(out)
                self.charge(len(result))
                return result
            out.append(text[pos:dollar])
            char = text[dollar + 1]
            if char == "$":
                out.append("$")
                pos = dollar + 2
            elif char in "({":
                close = matching_end(text, dollar + 1)
                self.charge(close - dollar)  # scanned for its bracket, even when it yields nothing
                inner = text[dollar + 2:close - 1]
                out.append(self._reference(inner, local, in_recipe, depth))
                pos = close
            else:
                out.append(self._variable(char, local, in_recipe, depth))
                pos = dollar + 2

    def _reference(self, inner, local, in_recipe, depth):
        self.charge(len(inner))  # scanned again for a function's name and arguments, or a `:`
        head, blank, arguments = split_function(inner)
        if blank and head in FUNCTIONS:
            return FUNCTIONS[head](self, arguments, local, in_recipe, depth)
        if blank and head in OPAQUE_FUNCTIONS:
            if mentions_git(inner):
                self.unknown.append("$(%s …) mentions git" % head)
            return UNKNOWN_WORD
        colon = find_unnested(inner, ":")
        if colon > 0 and "=" in inner[colon:]:  # $(VAR:.c=.o)
            name = self.expand(inner[:colon], local, in_recipe, depth + 1)
            old, _eq, new = inner[colon + 1:].partition("=")
            value = self._variable(name, local, in_recipe, depth)
            return " ".join(substitute_suffix(word, old, new) for word in value.split())
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
        if is_variable_name(name):
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
                self.doing = "%s's expansion of `%s`" % (self.name, goal)
                self._build(goal, found, built, patterns_run, {}, 0)
        except Stop:
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
                stem = stem_of(pattern[0], target)
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
            raise Stop()
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
            if pattern[2] and stem_of(pattern[0], target) is not None:
                return pattern
        return None

    def _recipe(self, recipe, local, found):
        lines = []
        for raw in recipe:
            expanded = self.expand(raw, local, in_recipe=True)
            for line in recipe_lines(expanded):
                lines.append((raw, line))
        if self.oneshell and lines:
            body = "\n".join(without_prefixes(line)[0] for _raw, line in lines)
            plus = any(without_prefixes(line)[1] for _raw, line in lines)
            lines = [(" ".join(raw for raw, _line in lines), body)]
            if self._runs(lines[0][0], plus):
                found.append((body, plus))
            return
        for raw, line in lines:
            text, plus = without_prefixes(line)
            if text.strip() and self._runs(raw, plus):
                found.append((text, plus))

    def _runs(self, raw, plus):
        """Under a dry run make runs only `+` lines and lines that hold $(MAKE)."""
        return not self.invocation.dry or plus or "$(MAKE)" in raw or "${MAKE}" in raw


AUTOMATIC = frozenset("@<^+*?|%")


def _goal_candidate(target):
    return "%" not in target and (not target.startswith(".") or "/" in target) and target not in SPECIAL_GOALS


def _read_first(make, path):
    """Read one of the names make tries (MAKEFILE_NAMES), naming the run by it; False when absent."""
    make.name, make.doing = oscalls.posixpath.basename(path), "the reading of %s" % oscalls.posixpath.basename(path)
    return make.read_file(path)


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
            make.name = oscalls.posixpath.basename(names[0])
            make.doing = "the reading of %s" % make.name
            for path in names:
                if not make.read_file(path):
                    return [], []  # "No such file or directory": make stops before running anything
        elif not any(_read_first(make, path) for path in names):
            return [], []  # "No targets specified and no makefile found"
    except Outside:
        return [], []  # a makefile outside every checkout is not followed
    except OverBound as error:
        return [], ["%s is too large to judge (%s)" % (make.name, error)]
    except Unreadable as error:
        return [], ["the makefile (%s)" % error]
    except Stop:
        return [], make.unknown
    found = [(line, True) for line in make.parse_runs if line.strip()]
    found += [(line, False) for line, _plus in make.run(invocation.goals)]
    return found, make.unknown
