"""What a command that feeds a git command prints, and so which paths git is given: the pipe stages
before `xargs git add`, the command in `git add $(…)`. Pure.

Issue 18: "paths known before the line runs are treated as unknown". `echo docs/a.md | xargs git
add` names its file, `git diff --name-only | grep docs | xargs git add` stages the unstaged files
whose names hold `docs`, `git status --porcelain -- docs | awk '{print $2}' | xargs git add` the
changed files under docs: what git lists is git's state now, which the guard reads anyway. So a
feed is read in two steps: `describe` (when the line is classified) says what produces the output
and which filters and cuts it goes through; `fed` (when git's state is known) lists the lines,
runs them through the stages and splits them into the words the consumer receives, exactly as
xargs or the shell would. A stage the guard cannot run makes the feed unknown (the command's paths
stay "known only at run time"); one that only drops lines it cannot tell (`head`) keeps the
result as an upper bound.

Git listers print only changed paths (`git diff --name-only`, `git ls-files -m/-d/-o`, `git status
--porcelain`), and the guard's state holds every changed path, so their output is computed in full.
The state is read without rename detection, but `git diff --cached`, `git diff HEAD` and `git status`
detect renames by default (diff.renames, status.renames): a staged `git mv a b` is one line, `b` for
`--name-only`, `R  a -> b` for `git status --porcelain`, so `awk '{print $2}'` prints `a`. When the
state could hold such a pair (an added file beside a deleted one) the guard asks git for the pairs
(gitstate.read_renames) and `fed` prints the lines the lister prints; without them, or for a line
the state cannot spell for certain (an untracked folder `git ls-files -o` lists file by file), the
listing counts as an upper bound once such a line survives the filters.
"""
from ..startup.records import record

# How the consumer cuts the output into words: xargs at blanks and newlines (quotes and backslashes
# are xargs' own syntax: a line holding one is not read here); `xargs -I{}` or `-d '\n'` one word a
# line; an unquoted `$(…)` at the shell's IFS blanks (a word with a pattern character is globbed).
XARGS, LINES, FIELDS = "xargs", "lines", "fields"

Words = record("Words", "lines", (), """A producer whose output the line holds: `echo a b`, `printf
    '%s\\n' a b` (its lines).""")

Listing = record("Listing", "shows specs letters status relative_to under ignored renames",
                 (None, False, None, None, False, None),
                 """A git lister, printed from git's state. shows: which changes it lists, a set of
    "unstaged", "staged", "deleted", "untracked"; specs: the Pathspecs it is limited to (() for the
    whole tree); letters: --diff-filter as (kept letters, dropped letters) or None; status: lines
    are `XY path` (git status --porcelain / --short); relative_to: the folder paths are printed
    relative to (None: the toplevel); under: the folder it lists only under (ls-files lists its
    working directory), or None; ignored: ls-files -o without --exclude-standard, which lists
    ignored files too; renames: whether it folds a staged rename into one line (True: `-M` or the
    line's `-c diff.renames=true`; False: `--no-renames`, the line's config saying so, or a lister
    that never does; None: the repository's config decides, on by default).""")

CACHED, HEAD = "cached", "head"  # the comparisons a lister finds renames in: index or tree against HEAD

Found = record("Found", "specs exact", (True,), """`find <folders> -name P`: the files on disk under its
    folders matching its names (specs: Pathspecs); exact False when other tests (-newer, -mtime)
    keep only some of them.""")

Grep = record("Grep", "pattern invert", (), """A `grep` stage: a compiled regular expression, and -v.""")
Cut = record("Cut", "start end delimiter field", (None, None, None, None), """A `cut -cN-M` (start and end,
    1-based, end None for "to the end of the line") or `cut -d D -f N` / awk `{print $N}`
    (delimiter None: runs of blanks, as awk splits).""")
SUBSET = "subset"  # a stage keeping lines it alone knows (`head -5`): the result is an upper bound

Feed = record("Feed", "source stages split", (), """What reaches a consumer: its source (Words, Listing
    or Found), the stages the lines go through in order (Grep, Cut, SUBSET), and how the consumer
    cuts them into words (XARGS, LINES or FIELDS).""")

Fed = record("Fed", "words exact complete", (), """The words a consumer receives, in order: exact False when
    only some of them may be (an upper bound); complete False when it receives others besides,
    which hold no uncommitted work (`find` lists unchanged files too).""")


# -- reading the stages (when the line is classified) -----------------------------------------------

def stages_of(commands):
    """The Grep/Cut/SUBSET stages of filter commands (cmdline Commands, in pipe order), or None when
    one of them is not read here (`sed`, `tr`, an awk program other than `{print $N}`)."""
    stages = []
    for command in commands:
        stage = _stage(command)
        if stage is None:
            return None
        if stage != ():
            stages.append(stage)
    return tuple(stages)


def _stage(command):
    """One filter's stage; () for one that changes no line's membership (sort, uniq); None unread."""
    values = [w.value for w in command.args]
    if any(w.expanded for w in command.args) or command.writes:
        return None
    name = command.name
    if name in ("sort", "uniq") and all(v in ("-u", "-r", "-n", "-f", "-V") for v in values):
        return ()
    if name in ("head", "tail"):
        return SUBSET if all(v.lstrip("-n").isdigit() or v in ("-n",) for v in values) else None
    if name in ("grep", "egrep", "fgrep"):
        return _grep(name, values)
    if name == "cut":
        return _cut(values)
    if name == "awk" and len(values) == 1:
        return _awk_print(values[0])
    return None


def _grep(name, values):
    """grep [-v] [-E|-F|-G] [-i] [-x] [-e] PATTERN, reading its input (no file operands)."""
    invert = icase = whole = False
    kind = {"egrep": "E", "fgrep": "F"}.get(name, "G")
    pattern = None
    index = 0
    while index < len(values):
        value = values[index]
        if value == "-e" and index + 1 < len(values) and pattern is None:
            pattern, index = values[index + 1], index + 2
            continue
        if value.startswith("-") and len(value) > 1 and pattern is None and value != "--":
            for letter in value[1:]:
                if letter == "v":
                    invert = True
                elif letter == "i":
                    icase = True
                elif letter == "x":
                    whole = True
                elif letter in "EFG":
                    kind = letter
                else:
                    return None  # -n, -o, -c, -l ... print something else than the lines
            index += 1
            continue
        if value == "--":
            index += 1
            continue
        if pattern is not None:
            return None  # a file operand: grep reads that file, not the feed
        pattern, index = value, index + 1
    if pattern is None:
        return None
    regex = _regex(pattern, kind)
    if regex is None:
        return None
    import re  # only a line with a grep stage pays for it

    if whole:
        regex = "(?:%s)\\Z" % regex
    try:
        return Grep(re.compile(regex, re.IGNORECASE if icase else 0), invert)
    except re.error:
        return None


# What a bracket class may hold to be read here: letters, digits and a few marks; `-` makes a range
# in both grep's and Python's classes alike.
_CLASS_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-/ ")


def _regex(pattern, kind):
    """A Python regular expression, matched from a line's start, that finds what grep finds: fixed
    strings, and basic (-G) or extended (-E) patterns made of literals, `^`, `$`, `.`, `*`, simple
    bracket classes and escaped marks (extended: `+ ? | ( )` too). None for anything else (back
    references, intervals, `\\w`, character classes by name), which is not read here."""
    import re

    if kind == "F":
        return ".*?" + re.escape(pattern)
    out, index = [], 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            if index + 1 >= len(pattern) or pattern[index + 1].isalnum() or kind != "E" and pattern[index + 1] in "{}()|+?":
                return None  # \w, a back reference, basic grep's groups, intervals and GNU operators
            out.append(re.escape(pattern[index + 1]))
            index += 2
            continue
        if char == "[":
            negate = pattern[index + 1:index + 2] == "^"
            start = index + 2 if negate else index + 1
            end = pattern.find("]", start + 1 if pattern[start:start + 1] == "]" else start)
            body = pattern[start:end] if end > 0 else None
            if not body or any(c not in _CLASS_CHARS and not (c == "]" and i == 0) for i, c in enumerate(body)):
                return None
            out.append("[%s%s]" % ("^" if negate else "", body.replace("]", "\\]")))
            index = end + 1
            continue
        if kind == "E":
            if char in "{}":
                return None  # an interval
            out.append(char if char in "^$.*+?|()" else re.escape(char))
        elif char == "^":
            out.append("^" if index == 0 else "\\^")
        elif char == "$":
            out.append("$" if index == len(pattern) - 1 else "\\$")
        elif char == "*":
            out.append("*" if index else "\\*")
        else:
            out.append("." if char == "." else re.escape(char))
        index += 1
    return ".*?(?:" + "".join(out) + ")"


def _cut(values):
    """cut -cN- / -cN-M / -cN, or -d D -f N (one field), reading its input."""
    chars = delimiter = fields = None
    index = 0
    while index < len(values):
        value = values[index]
        if value in ("-c", "-b", "-f", "-d") and index + 1 < len(values):
            value, index = value + values[index + 1], index + 1
        if value.startswith(("-c", "-b")):
            chars = value[2:]
        elif value.startswith("-f"):
            fields = value[2:]
        elif value.startswith("-d"):
            delimiter = value[2:]
        else:
            return None
        index += 1
    if chars is not None and fields is None and delimiter is None:
        start, dash, end = chars.partition("-")
        if not start.isdigit() or end and not end.isdigit() or "," in chars:
            return None
        return Cut(int(start), int(end) if end else (None if dash else int(start)))
    if fields is not None and fields.isdigit() and delimiter is not None and len(delimiter) == 1:
        return Cut(delimiter=delimiter, field=int(fields))
    return None


def _awk_print(program):
    """awk '{print $N}' (N ≥ 1): the Nth blank-separated field."""
    body = program.strip()
    if not (body.startswith("{") and body.endswith("}")):
        return None
    words = body[1:-1].replace(";", " ").split()
    if len(words) == 2 and words[0] == "print" and words[1].startswith("$") and words[1][1:].isdigit() \
            and int(words[1][1:]) >= 1:
        return Cut(field=int(words[1][1:]))
    return None


def listed_names(names):
    """A Words source for `ls <files>`: each file named, one a line (ls prints files as given)."""
    return Words(tuple(sorted(names)))


def words_source(command):
    """A Words source for `echo …` / `printf …` whose words the line holds, else None."""
    values = [w.value for w in command.args]
    if any(w.expanded or w.glob for w in command.args):
        return None
    if command.name == "echo":
        if values[:1] == ["-n"]:
            values = values[1:]
        if values[:1] and values[0].startswith("-") or any("\\" in v for v in values):
            return None  # -e and escapes: printed as only the shell knows
        return Words((" ".join(values),))
    if command.name == "printf" and values:
        form, rest = values[0], values[1:]
        if form in ("%s\\n", "%s\n") and rest:
            return Words(tuple(rest))
        if "%" not in form and not rest and "\\" not in form.replace("\\n", ""):
            return Words(tuple(form.replace("\\n", "\n").split("\n")))
    return None


# -- what a feed yields (when git's state is known) -------------------------------------------------

def rename_comparison(source, states):
    """CACHED or HEAD: the comparison whose renames change what a lister prints in this state
    ({path: PathState}); None when no rename can show (a lister that does not detect them or lists
    no staged change, or no added file beside a deleted one it could be paired with)."""
    if not isinstance(source, Listing) or source.renames is False or "staged" not in source.shows:
        return None
    head = "unstaged" in source.shows and not source.status  # `git diff HEAD`: the tree against HEAD
    tracked = [s for s in states.values() if not (s.untracked or s.ignored)]
    added = any(s.index == "A" and not (head and s.worktree == "D") for s in tracked)
    gone = any(s.index == "D" or head and s.worktree == "D" and s.index != "A" for s in tracked)
    return (HEAD if head else CACHED) if added and gone else None


def fed(feed, top, states, covers, cwd, renamed=None):
    """The Fed words a consumer running in `cwd` receives from the feed, given git's state of the
    checkout `top` ({path: PathState}); covers(spec, absolute path) -> whether a Pathspec covers it;
    renamed: {Listing: {new path: old path}} the renames git finds for a listing whose
    rename_comparison is not None ({} when it detects none), toplevel-relative; a listing missing
    from it prints an upper bound. None when the feed cannot be told (a source the state does not
    say, a line xargs would read with quotes)."""
    found = isinstance(feed.source, Found)
    if found and any(stage != SUBSET for stage in feed.stages):
        return None  # find prints paths as its folders are spelled, which a filter may read
    lines = _source_lines(feed.source, top, states, covers, cwd, renamed or {})
    if lines is None:
        return None
    exact = not (found and not feed.source.exact)
    kept = []
    for line, certain in lines:
        for stage in feed.stages:
            if stage == SUBSET:
                exact = False
                continue
            line = _run_stage(stage, line)
            if line is None:
                break
        else:
            kept.append(line)
            exact = exact and certain
    words = []
    for line in kept:
        cut = _split(line, feed.split)
        if cut is None:
            return None
        words.extend(cut)
    return Fed(tuple(words), exact, not found)


def _run_stage(stage, line):
    """The line after one stage, or None when the stage drops it."""
    if isinstance(stage, Grep):
        return line if bool(stage.pattern.match(line)) != stage.invert else None
    if stage.field is not None:
        parts = line.split() if stage.delimiter is None else line.split(stage.delimiter)
        if stage.delimiter is not None and len(parts) == 1:
            return line  # cut prints a line without the delimiter whole
        return parts[stage.field - 1] if stage.field <= len(parts) else ""
    return line[stage.start - 1:stage.end]


def _split(line, how):
    if how == LINES:
        return [line.strip(" \t")] if line.strip(" \t") else []
    if any(c in line for c in "'\"\\") or how == FIELDS and any(c in line for c in "*?["):
        return None  # xargs' quoting, or a word the shell would glob
    return line.split()


def _source_lines(source, top, states, covers, cwd, renamed):
    """[(line, certain)] a source prints, or None."""
    if isinstance(source, Words):
        return [(line, True) for text in source.lines for line in text.split("\n")]
    if states is None:
        return None
    prefix = top.rstrip("/") + "/"
    if isinstance(source, Found):
        return [(_relative_to(prefix + rel, cwd), True) for rel, state in sorted(states.items())
                if not _deleted(state) and any(covers(spec, prefix + rel) for spec in source.specs)]
    pairs = renamed.get(source) if rename_comparison(source, states) is not None else {}
    return _listing_lines(source, prefix, states, covers, pairs)


def _deleted(state):
    """Not on disk: deleted from the tree, or staged for deletion (and not there again)."""
    return state.worktree == "D" or state.index == "D" and not state.untracked


def _listing_lines(listing, prefix, states, covers, pairs):
    """[(line, certain)] a git lister prints; pairs: {new: old} of the renames it folds into one line
    (None: unknown, so a line of an added or deleted file is not certain)."""
    found = []
    base = listing.relative_to.rstrip("/") if listing.relative_to else prefix[:-1]
    under = listing.under.rstrip("/") + "/" if listing.under else None

    def listed(rel):
        path = prefix + rel
        return (not listing.specs or any(covers(spec, path) for spec in listing.specs)) and \
            (under is None or path.startswith(under))

    if pairs and any(listed(new) != listed(old) for new, old in pairs.items()):
        pairs = None  # limited to one side, git may pair the other one with another file: unknown
    old_names = set(pairs.values()) if pairs else set()
    for rel, state in sorted(states.items()):
        if not listed(rel) or rel in old_names and not (state.untracked or state.ignored):
            continue  # a rename's old name is printed on its new name's line
        old = pairs.get(rel) if pairs else None
        shown = ("R", True) if old is not None else _shown(listing, state, pairs is not None)
        if shown is None:
            continue
        letter, certain = shown
        if listing.letters is not None and not _kept_letter(listing.letters, letter):
            continue
        name = _relative_to(prefix + rel, base) + ("/" if state.folder else "")
        if listing.status:
            index = "?" if state.untracked else "!" if state.ignored else state.index.replace(".", " ")
            tree = "?" if state.untracked else "!" if state.ignored else state.worktree.replace(".", " ")
            if old is not None:  # `R  old -> new` (porcelain v1, --short)
                index, name = "R", "%s -> %s" % (_relative_to(prefix + old, base), name)
            name = "%s%s %s" % (index, tree, name)
        found.append((name, certain))
    return found


def _shown(listing, state, renames_known):
    """(the letter --diff-filter reads, whether the state spells the line for certain) when the
    listing shows this path, else None. renames_known: which added and deleted files git pairs
    into renames is known (or none can be)."""
    if state.untracked or state.ignored:
        if "untracked" not in listing.shows or state.ignored and not listing.ignored:
            return None
        return "?", not state.folder or listing.status  # ls-files -o lists a new folder's files one by one
    head = "staged" in listing.shows and "unstaged" in listing.shows and not listing.status  # `git diff HEAD`
    paired = state.index in ("A", "D") or head and state.worktree == "D"  # either side of a rename line
    certain = renames_known or not paired
    if listing.status and (state.index != "." or state.worktree != "."):
        return None, certain
    if "staged" in listing.shows and state.index != ".":
        return state.index, certain
    if "unstaged" in listing.shows and state.worktree != ".":
        return state.worktree, True
    if "deleted" in listing.shows and state.worktree == "D":
        return "D", True
    return None


def _kept_letter(letters, letter):
    kept, dropped = letters
    return (not kept or letter in kept) and letter not in dropped


def _relative_to(path, folder):
    """`path` as printed from `folder` (`../x` for one outside it), `/`-separated."""
    folder = folder.rstrip("/")
    if path == folder:
        return "."
    if path.startswith(folder + "/"):
        return path[len(folder) + 1:]
    up = 0
    while folder and not path.startswith(folder + "/"):
        folder = folder.rsplit("/", 1)[0]
        up += 1
    return "../" * up + path[len(folder) + 1:]
