"""Which folders are a project's workspace packages, and which of them a command's options select:
the `workspaces` globs of package.json (npm, yarn, bun) or the `packages` of pnpm-workspace.yaml
(pnpm), and a filter as each manager reads it (a name, a folder, a glob).

Why: `npm run release -ws`, `pnpm -r release`, `yarn workspace app release`, `bun --filter '*'
release` run the script of every (or the named) workspace package; a `release` there holding `git
add -A && git commit` sweeps a live peer's work as one at the root does (issue 35).

The globs are matched as the managers' glob libraries match them: `*`, `?`, `[…]`, `{a,b}`, `**`
(at most MAX_DEPTH folders deep), a leading `!` leaving folders out, never a folder whose name starts
with `.` unless the pattern says so, never inside node_modules. A filter the model does not read
exactly (pnpm's `foo...`, `^…`, `[since]`, `!…`; a filter known only when it runs) selects every
package: counting one the manager leaves out only adds what may run. Pure: a folder's subfolders
are asked of the function given (the follower's Files, which bounds them).
"""
from ..startup import oscalls
from ..startup.records import record

MAX_DEPTH = 6  # folders a `**` descends: workspace packages sit one or two folders down
MAX_PATTERNS = 256  # patterns, `{a,b}` expanded: a hand-written list holds a few
MAX_STEPS = 10000  # folders the globs' walk visits (each pattern's walk is memoised, not their sum)
MAX_MEMBERS = 64  # workspace folders one judgement reads: each is a package.json to read
SKIPPED = "node_modules"

Member = record("Member", "name folder", (), """One workspace package: its name (package.json's `name`,
    else its folder's) and its folder.""")


class TooMany(ValueError):
    """More workspace packages, or patterns, than one judgement reads."""


def manifest_patterns(document):
    """The `workspaces` globs of a package.json document (a list, or yarn's and bun's `{"packages":
    […]}`); None when it declares none; ValueError when they are not a list of strings."""
    workspaces = document.get("workspaces") if isinstance(document, dict) else None
    if isinstance(workspaces, dict):
        workspaces = workspaces.get("packages")
    if workspaces is None:
        return None
    if not isinstance(workspaces, list) or not all(isinstance(p, str) for p in workspaces):
        raise ValueError("workspaces is not a list of globs")
    return workspaces


def pnpm_patterns(text):
    """The `packages` globs of a pnpm-workspace.yaml (a block or a flow list); every folder below
    (`**`) when it names none, as pnpm takes it; ValueError for a shape this reader does not know."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if not line.startswith("packages:"):
            continue
        rest = _uncommented(line[len("packages:"):]).strip()
        if rest.startswith("[") and rest.endswith("]"):
            return [_unquoted(item) for item in rest[1:-1].split(",") if item.strip()]
        if rest:
            raise ValueError("pnpm-workspace.yaml's packages is not a list")
        found = []
        for item in lines[index + 1:]:
            stripped = _uncommented(item).strip()
            if not stripped:
                continue
            if not item[:1].isspace() and not item.startswith("-"):
                break
            if not stripped.startswith("-"):
                raise ValueError("pnpm-workspace.yaml's packages is not a list")
            found.append(_unquoted(stripped[1:]))
        return found
    return ["**"]


def _uncommented(text):
    """A YAML line up to a comment (` #` outside quotes)."""
    quote = None
    for index, char in enumerate(text):
        if quote is None and char == "#" and (index == 0 or text[index - 1].isspace()):
            return text[:index]
        if char in "'\"" and quote in (None, char):
            quote = None if quote == char else char
    return text


def _unquoted(text):
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def member_folders(root, patterns, folders):
    """The workspace package folders the patterns name below root, pattern by pattern, each
    pattern's sorted, each folder once, less those a `!` pattern names. folders(path) -> the names
    of the folders in path (it may raise; a pattern's literal parts are not listed)."""
    include, exclude = [], []
    for pattern in patterns:
        bangs = len(pattern) - len(pattern.lstrip("!"))
        pattern = pattern[bangs:]
        while pattern.startswith(("./", "/")):
            pattern = pattern[2:] if pattern.startswith("./") else pattern[1:]
        for expanded in expand_braces(pattern.rstrip("/")):
            segments = []
            for segment in expanded.split("/"):
                if segment not in ("", ".") and not (segment == "**" and segments[-1:] == ["**"]):
                    segments.append(segment)
            (exclude if bangs % 2 else include).append(segments)
        if len(include) + len(exclude) > MAX_PATTERNS:
            raise TooMany("the workspaces hold more than %d patterns" % MAX_PATTERNS)
    found, seen, steps = [], set(), [MAX_STEPS]
    for segments in include:
        for folder in sorted(set(_walk(root, segments, folders, 0, (set(), steps)))):
            relative = oscalls.posixpath.relpath(folder, root).split("/")
            if folder in seen or any(path_matches(relative, pattern) for pattern in exclude):
                continue
            seen.add(folder)
            found.append(folder)
            if len(found) > MAX_MEMBERS:
                raise TooMany("the workspaces name more than %d folders" % MAX_MEMBERS)
    return found


def _walk(base, segments, folders, depth, walked):
    """The folders below base the segments match; each (folder, segments) walked once, at most
    MAX_STEPS of them over all patterns."""
    visited, steps = walked
    if (base, len(segments)) in visited:
        return
    visited.add((base, len(segments)))
    steps[0] -= 1
    if steps[0] < 0:
        raise TooMany("the workspace globs walk more than %d folders" % MAX_STEPS)
    if not segments:
        yield base
        return
    segment, rest = segments[0], segments[1:]
    if segment == "**":
        yield from _walk(base, rest, folders, depth, walked)
        if depth < MAX_DEPTH:
            for name in _visible(folders(base), "*"):
                yield from _walk(base.rstrip("/") + "/" + name, segments, folders, depth + 1, walked)
    elif segment == "..":
        yield from _walk(oscalls.posixpath.dirname(base), rest, folders, depth, walked)
    elif not any(c in segment for c in "*?["):
        if segment in folders(base):
            yield from _walk(base.rstrip("/") + "/" + segment, rest, folders, depth, walked)
    else:
        for name in _visible(folders(base), segment):
            if matches(name, segment):
                yield from _walk(base.rstrip("/") + "/" + name, rest, folders, depth + 1, walked)


def _visible(names, segment):
    """The folder names a glob segment may match: not node_modules, not a dot folder unless the
    segment starts with a dot."""
    return [name for name in names if name != SKIPPED and (not name.startswith(".") or segment.startswith("."))]


def path_matches(segments, pattern):
    """Whether a relative path's segments match a glob's (`**` any number of them), in time
    proportional to the two lengths' product."""
    reached = _past_globstars(pattern, {0})
    for segment in segments:
        moved = set()
        for at in reached:
            if at < len(pattern) and pattern[at] == "**":
                moved.add(at)
            elif at < len(pattern) and matches(segment, pattern[at]):
                moved.add(at + 1)
        reached = _past_globstars(pattern, moved)
        if not reached:
            return False
    return len(pattern) in reached


def _past_globstars(pattern, reached):
    """The positions reached, with those a `**` matching no segment leads to."""
    found, pending = set(reached), list(reached)
    while pending:
        at = pending.pop()
        if at < len(pattern) and pattern[at] == "**" and at + 1 not in found:
            found.add(at + 1)
            pending.append(at + 1)
    return found


def expand_braces(pattern):
    """`a/{b,c}/*` as `a/b/*` and `a/c/*` (nested too), in order; TooMany past MAX_PATTERNS."""
    pending, done = [pattern], []
    while pending:
        current = pending.pop(0)
        group = _brace_group(current)
        if group is None:
            done.append(current)
        else:
            start, end, options = group
            pending[:0] = [current[:start] + option + current[end + 1:] for option in options]
        if len(done) + len(pending) > MAX_PATTERNS:
            raise TooMany("the workspaces hold more than %d patterns" % MAX_PATTERNS)
    return done


def _brace_group(pattern):
    """(start, end, options) of the first `{…}` holding a top-level comma, or None."""
    depth, start = 0, None
    for index, char in enumerate(pattern):
        if char == "{":
            depth, start = depth + 1, index if depth == 0 else start
        elif char == "}" and depth:
            depth -= 1
            if depth == 0:
                options = _top_level_split(pattern[start + 1:index])
                if len(options) > 1:
                    return start, index, options
    return None


def _top_level_split(text):
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        depth += char == "{"
        depth -= char == "}"
        if char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    return parts + [text[start:]]


def matches(text, pattern):
    """Whether a name matches a glob: `*` any run of characters, `?` one, `[abc]`, `[a-z]`,
    `[!x]` one of (or not of) a set; anything else itself."""
    position = at = 0
    star = mark = None
    while position < len(text):
        width = _one(text[position], pattern, at) if at < len(pattern) and pattern[at] != "*" else 0
        if at < len(pattern) and pattern[at] == "*":
            star, mark, at = at, position, at + 1
        elif width:
            position, at = position + 1, at + width
        elif star is not None:
            mark += 1
            position, at = mark, star + 1
        else:
            return False
    return pattern[at:].strip("*") == ""


def _one(char, pattern, at):
    """How many characters of the pattern, from at, match the one character (0: none)."""
    token = pattern[at]
    if token == "?":
        return 1
    if token == "[":
        end = pattern.find("]", at + 2)
        if end > 0:
            members = pattern[at + 1:end]
            negated = members[:1] in ("!", "^")
            members = members[1:] if negated else members
            inside = any(low <= char <= high for low, high in _ranges(members))
            return end - at + 1 if inside != negated else 0
    return 1 if char == token else 0


def _ranges(members):
    found, index = [], 0
    while index < len(members):
        if index + 2 < len(members) and members[index + 1] == "-":
            found.append((members[index], members[index + 2]))
            index += 3
        else:
            found.append((members[index], members[index]))
            index += 1
    return found


def member_name(document, folder):
    """A workspace package's name: its package.json's `name`, else its folder's (`@scope/x` for a
    folder in a folder named `@scope`), as npm names it."""
    name = document.get("name") if isinstance(document, dict) else None
    if isinstance(name, str) and name:
        return name
    base, parent = oscalls.posixpath.basename(folder), oscalls.posixpath.basename(oscalls.posixpath.dirname(folder))
    return parent + "/" + base if parent.startswith("@") else base


def selected(members, selection, cwd, root):
    """The folders of the members the selection's filters name, in the members' order (its root
    and `every` are the caller's). cwd: the folder the line runs in; root: the workspace's."""
    if selection.every or any(_selects_every(selection.manager, f) for f in selection.filters):
        return [member.folder for member in members]
    return [member.folder for member in members
            if any(_names(selection.manager, f, member, cwd, root) for f in selection.filters)]


def _selects_every(manager, text):
    if text is None:
        return True  # a filter known only when it runs
    if manager == "pnpm":
        return "..." in text or text.startswith(("^", "!", "[")) or "[" in text and text.endswith("]")
    return manager == "bun" and text.startswith("!")


def _names(manager, text, member, cwd, root):
    """Whether a filter names the member, as the manager reads it."""
    if manager == "yarn":
        return text == member.name
    if manager == "npm":
        return _npm_names(text, member, cwd, root)
    if text.startswith(("./", "../", "/", "{")) or text in (".", ".."):  # pnpm's and bun's folders
        folder = text[1:-1] if text.startswith("{") and text.endswith("}") else text
        target = oscalls.posixpath.normpath(oscalls.posixpath.join(cwd, folder))
        if member.folder == target or member.folder.startswith(target.rstrip("/") + "/"):
            return True  # a folder selects the packages in it, at any depth
        relative = oscalls.posixpath.relpath(member.folder, cwd).split("/")
        return path_matches(relative, [s for s in oscalls.posixpath.normpath(folder).split("/") if s != "."])
    return matches(member.name, text)


def _npm_names(text, member, cwd, root):
    """npm 11's reading of `-w text` (lib/utils/get-workspaces.js, checked by running it): the
    name; the folder text names from where npm reads it; or a folder in the folder text names
    (`-w packages`, `-w ./packages`, `-w '*'`), as a glob."""
    if text == member.name:
        return True
    relative_from = root if (root + "/").startswith(cwd.rstrip("/") + "/") else cwd
    if oscalls.posixpath.normpath(oscalls.posixpath.join(relative_from, text)) == member.folder:
        return True
    relative = oscalls.posixpath.relpath(member.folder, relative_from).split("/")
    as_written = text.rstrip("/").split("/")
    if text.startswith("./"):
        relative = ["."] + relative
    from_root = oscalls.posixpath.relpath(oscalls.posixpath.join(cwd, text), root).split("/")
    return path_matches(relative, as_written + ["*"]) or path_matches(relative, from_root + ["*"])
