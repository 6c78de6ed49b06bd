"""A make command line as GNU make reads it: the folder it works in (`-C`, cumulative), its makefiles
(`-f`), `--eval` text, its goals, its `VAR=x` overrides, and whether it is a dry run (`-n`, `-q`,
`-t`) or runs nothing at all (`-v`, `-h`). peerhooks.wrappers.makefile follows what it runs.
"""
from ..startup import oscalls
from .make_syntax import is_variable_name

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
            elif "=" in word and is_variable_name(word.partition("=")[0].rstrip(":+?!")):
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
