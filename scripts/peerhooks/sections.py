"""Cold-start material as named sections, and which of them a start should print.

A section's fingerprint is the SHA-256 of its body, so a body must not change by itself between
runs: no relative times, no pids, no unstable order, abbreviated hashes of fixed length. Otherwise
every start would be "changed" and the diff would be noise.

The top half is pure (fingerprints, what changed, packing into the output budget, rendering); the
gatherers below it read files and run at most one `git` process (`git log`; worktrees and the
branch are read from the filesystem).
"""
import hashlib
import json
import os
from dataclasses import dataclass
from typing import Optional, Tuple

from . import gitrepo
from .home import project_dirs

BUDGET_CHARS = 9000  # Claude Code cuts hook output at 10,000 characters into a preview
SECTION_MAX_CHARS = 6000  # one section always fits the budget alone, so none stays pending forever
BANNER = "━━━ %s ━━━"
NO_NEW_MATERIAL = ("No new orientation material since the last session; "
                   "the prior context remains authoritative.")
CONTINUES = ("Session continues (%s): orientation material was given at its start; "
             "that context remains authoritative.")
FULL_HEADER = "Cold start: full orientation (%s)."
DIFF_HEADER = "Cold start: orientation material changed since this agent last started here."
BASELINE_LINE = "Diff baseline last consumed at %s (UTC)"
LEFT_OUT_LINE = "Left out to stay under %d characters (shown at the next start): %s."
EMPTY_WORKSPACE = "(no orientation material in this workspace)"

RULE_HASH_CHARS = 16  # 64 bits: enough to see which file changed; the model reads the file itself
MAX_RULE_FILES = 200  # a rules tree larger than this is a mistake; list a bounded, stable prefix
MEMORY_INDEX_LINES = 40  # Claude Code itself loads the first 200 lines; the head is what orients
HANDOFF_LINES = 60
HANDOFF_NAME = "HANDOFF.md"
RECENT_COMMITS = 15
COMMIT_HASH_CHARS = 12  # fixed, unlike %h, which grows with the object count and would churn
CONFIG_PATH = os.path.join(".claude", "cold-start.json")
MAX_USER_SECTIONS = 20  # keeps the "left out" line short enough that one section always fits
MAX_USER_KEY_CHARS = 64
DEFAULT_USER_LINES = 40
MAX_USER_LINES = 500

BUILTIN_TITLES = (
    ("rules", "Rules"),
    ("memory_index", "Memory index"),
    ("handoff", "Handoff"),
    ("recent_commits", "Recent commits"),
    ("worktrees", "Worktrees"),
    ("ended_sessions", "Ended sessions"),
)
TITLES = dict(BUILTIN_TITLES)


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    body: str  # empty: neither printed nor recorded


@dataclass(frozen=True)
class Emission:
    text: str
    printed: Tuple[str, ...]  # section keys shown, whose fingerprints may be recorded
    left_out: Tuple[str, ...]  # changed, but did not fit: still pending


def section(key, body, title=None):
    return Section(key, title or TITLES.get(key, key), body or "")


def fingerprint(body):
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def changed_sections(old_fingerprints, new_sections):
    """Keys of the non-empty sections whose fingerprint is new or differs, in section order."""
    return [s.key for s in new_sections
            if s.body and old_fingerprints.get(s.key) != fingerprint(s.body)]


def fingerprints_to_record(old_fingerprints, new_sections, printed):
    """The partition after a start: printed sections at their new fingerprint, the rest as they
    were (so what did not fit stays pending), sections that are now empty dropped."""
    shown = set(printed)
    recorded = {}
    for s in new_sections:
        if not s.body:
            continue
        if s.key in shown:
            recorded[s.key] = fingerprint(s.body)
        elif s.key in old_fingerprints:
            recorded[s.key] = old_fingerprints[s.key]
    return recorded


def plan_emission(sections, old_fingerprints, last_emit_at, full_reason, budget=BUDGET_CHARS):
    """What to print for a fresh context.

    full_reason set: every non-empty section (the fail-safe), with the reason. Otherwise only the
    changed sections, then the baseline line; nothing changed gives the one no-new-material line.
    Sections are printed whole in order while they fit; the others are named as left out.
    """
    if full_reason is not None:
        wanted = [s for s in sections if s.body]
        header = FULL_HEADER % full_reason
        footer = []
    else:
        changed = set(changed_sections(old_fingerprints, sections))
        wanted = [s for s in sections if s.key in changed]
        if not wanted:
            return Emission(NO_NEW_MATERIAL + "\n", (), ())
        header = DIFF_HEADER
        footer = [BASELINE_LINE % last_emit_at]
    if not wanted:
        return Emission("\n".join([header, EMPTY_WORKSPACE]) + "\n", (), ())

    worst_left_out = LEFT_OUT_LINE % (budget, ", ".join(s.title for s in wanted))
    room = budget - sum(len(line) + 1 for line in [header] + footer + [worst_left_out])
    blocks, printed, left_out = [], [], []
    for s in wanted:
        block = BANNER % s.title + "\n" + s.body.rstrip("\n")
        if len(block) + 1 <= room:
            blocks.append(block)
            printed.append(s.key)
            room -= len(block) + 1
        else:
            left_out.append(s)
    lines = [header] + blocks + footer
    if left_out:
        lines.append(LEFT_OUT_LINE % (budget, ", ".join(s.title for s in left_out)))
    return Emission("\n".join(lines) + "\n", tuple(printed), tuple(s.key for s in left_out))


def continues_line(source):
    return CONTINUES % (source or "unknown source") + "\n"


def cap(text, limit=SECTION_MAX_CHARS):
    """Cut a body at a line boundary under limit characters, saying so."""
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", 0, limit - 60)
    cut = cut if cut > 0 else limit - 60
    return text[:cut] + "\n… (cut at %d characters)" % cut


# ---- gatherers: I/O at the edge ------------------------------------------------------------

@dataclass(frozen=True)
class Workspace:
    """Where a start happens, resolved by the front door."""
    root: str  # workspace root: rules, handoff and the user config live here
    toplevel: Optional[str]  # git checkout of the workspace, None outside one
    home: str  # the Claude home


@dataclass(frozen=True)
class Gathered:
    sections: Tuple[Section, ...]
    problems: Tuple[str, ...]  # one line each, for stderr


def head(path, lines):
    """The first `lines` lines of a text file (BOM dropped, newlines normalised), None if absent."""
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            taken, size = [], 0
            for _ in range(lines):
                line = handle.readline(SECTION_MAX_CHARS + 1)
                if not line:
                    break
                taken.append(line)
                size += len(line)
                if size > SECTION_MAX_CHARS:
                    break
    except (OSError, ValueError):
        return None
    return "".join(taken).rstrip()


def _file_hash(path):
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 16), b""):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()[:RULE_HASH_CHARS]


def _markdown_under(folder):
    """Every *.md below folder, sorted by relative path (symlinked folders not followed)."""
    found = []
    for current, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".md"):
                found.append(os.path.join(current, name))
    return sorted(found, key=lambda p: os.path.relpath(p, folder))


def rule_files(workspace_root, home):
    """The rule files every session loads, in a fixed order."""
    paths = [os.path.join(workspace_root, name)
             for name in ("CLAUDE.md", "CLAUDE.local.md", os.path.join(".claude", "CLAUDE.md"))]
    paths += _markdown_under(os.path.join(workspace_root, ".claude", "rules"))
    paths.append(os.path.join(home, "CLAUDE.md"))
    paths += _markdown_under(os.path.join(home, "rules"))
    return [p for p in paths if os.path.isfile(p)][:MAX_RULE_FILES]


def gather_rules(workspace_root, home):
    lines = []
    for path in rule_files(workspace_root, home):
        digest = _file_hash(path)
        if digest is not None:
            lines.append("%s  %s" % (digest, path))
    body = ""
    if lines:
        body = "Rule files loaded at start (content hash, path):\n" + "\n".join(lines)
    return section("rules", cap(body))


def canonical_root(toplevel):
    """The main working tree of a checkout (auto memory is keyed by it, shared by worktrees)."""
    common = gitrepo.git_common_dir(toplevel)
    if common and os.path.basename(os.path.normpath(common)) == ".git":
        return os.path.dirname(os.path.normpath(common))
    return toplevel


def memory_folder(home, root):
    """`projects/<slug of root>/memory` under the Claude home, if it exists."""
    for project in project_dirs(home, root):
        folder = os.path.join(project, "memory")
        if os.path.isdir(folder):
            return folder
    return None


def gather_memory_index(memory):
    if memory is None:
        return section("memory_index", "")
    path = os.path.join(memory, "MEMORY.md")
    text = head(path, MEMORY_INDEX_LINES)
    if not text:
        return section("memory_index", "")
    return section("memory_index", cap("%s (first %d lines):\n%s"
                                       % (path, MEMORY_INDEX_LINES, text)))


def gather_handoff(workspace_root, memory):
    """The head of HANDOFF.md at the workspace root, else in the memory folder."""
    folders = [workspace_root] + ([memory] if memory else [])
    for folder in folders:
        path = os.path.join(folder, HANDOFF_NAME)
        text = head(path, HANDOFF_LINES)
        if text:
            return section("handoff", cap("%s (first %d lines):\n%s"
                                          % (path, HANDOFF_LINES, text)))
    return section("handoff", "")


def _head_ref(git_folder):
    """`branch <name>` or `detached` from a HEAD file; None if unreadable."""
    text = head(os.path.join(git_folder, "HEAD"), 1)
    if not text:
        return None
    if text.startswith("ref: refs/heads/"):
        return "branch " + text[len("ref: refs/heads/"):]
    return "detached HEAD"


def gather_recent_commits(toplevel):
    """The last commits of the current branch: one `git log`."""
    if toplevel is None:
        return section("recent_commits", "")
    out = gitrepo.run_git(toplevel, ["log", "-%d" % RECENT_COMMITS, "--no-color",
                                     "--format=%H%x09%an%x09%s"])
    if not out:
        return section("recent_commits", "")
    lines = []
    for row in out.splitlines():
        parts = row.split("\t", 2)
        if len(parts) == 3:
            lines.append("%s  %s  %s" % (parts[0][:COMMIT_HASH_CHARS], parts[1], parts[2]))
    own = gitrepo.git_dir(toplevel)
    where = _head_ref(own) if own else None
    title = "Latest commits%s (hash, author, subject):" % (" on " + where if where else "")
    return section("recent_commits", cap(title + "\n" + "\n".join(lines)) if lines else "")


def worktree_lines(common_dir):
    """`<path>  <branch>` for the main and every linked worktree, read from the common dir."""
    linked = []
    folder = os.path.join(common_dir, "worktrees")
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        names = []
    for name in names:
        admin = os.path.join(folder, name)
        target = head(os.path.join(admin, "gitdir"), 1)
        if not target:
            continue
        path = os.path.dirname(os.path.normpath(os.path.join(admin, target)))
        flags = ""
        if os.path.exists(os.path.join(admin, "locked")):
            flags += " (locked)"
        if not os.path.isdir(path):
            flags += " (missing)"
        linked.append("%s  %s%s" % (path, _head_ref(admin) or "unknown HEAD", flags))
    if not linked:
        return []
    main = []
    if os.path.basename(os.path.normpath(common_dir)) == ".git":
        main.append("%s  %s (main)" % (os.path.dirname(os.path.normpath(common_dir)),
                                       _head_ref(common_dir) or "unknown HEAD"))
    return main + sorted(linked)


def gather_worktrees(toplevel):
    common = gitrepo.git_common_dir(toplevel) if toplevel else None
    lines = worktree_lines(common) if common else []
    body = ("Worktrees of this repository (path, checked out):\n" + "\n".join(lines)) if lines else ""
    return section("worktrees", cap(body))


@dataclass(frozen=True)
class UserSection:
    key: str
    path: str  # realpath, inside the workspace
    lines: int


def parse_user_config(raw, workspace_root):
    """The text of .claude/cold-start.json -> (entries, problem). A problem voids the whole file."""
    try:
        value = json.loads(raw)
    except ValueError as error:
        return [], "is not valid JSON (%s)" % error
    if not isinstance(value, list):
        return [], "must be a list of {\"key\", \"file\", \"lines\"} objects"
    if len(value) > MAX_USER_SECTIONS:
        return [], "has more than %d sections" % MAX_USER_SECTIONS
    inside = os.path.realpath(workspace_root)
    entries, seen = [], set(TITLES)
    for number, item in enumerate(value, 1):
        if not isinstance(item, dict):
            return [], "entry %d is not an object" % number
        key, file, lines = item.get("key"), item.get("file"), item.get("lines", DEFAULT_USER_LINES)
        if not isinstance(key, str) or not key.strip() or len(key) > MAX_USER_KEY_CHARS:
            return [], "entry %d: 'key' must be a name of 1 to %d characters" % (
                number, MAX_USER_KEY_CHARS)
        if key in seen:
            return [], "entry %d: key %r is already taken" % (number, key)
        if any(ord(c) < 0x20 for c in key):
            return [], "entry %d: 'key' contains control characters" % number
        if not isinstance(file, str) or not file:
            return [], "entry %d: 'file' must be a path" % number
        path = os.path.realpath(os.path.join(inside, file))
        if os.path.commonpath([inside, path]) != inside or path == inside:
            return [], "entry %d: 'file' must be inside the workspace" % number
        if isinstance(lines, bool) or not isinstance(lines, int) or not 1 <= lines <= MAX_USER_LINES:
            return [], "entry %d: 'lines' must be a whole number from 1 to %d" % (
                number, MAX_USER_LINES)
        seen.add(key)
        entries.append(UserSection(key, path, lines))
    return entries, None


def gather_user_sections(workspace_root):
    """Sections named in .claude/cold-start.json: (sections, problem line or None)."""
    config = os.path.join(workspace_root, CONFIG_PATH)
    try:
        with open(config, encoding="utf-8-sig") as handle:
            raw = handle.read(1 << 20)
    except FileNotFoundError:
        return [], None
    except (OSError, ValueError) as error:
        return [], "ignored %s: %s" % (CONFIG_PATH, error)
    entries, problem = parse_user_config(raw, workspace_root)
    if problem:
        return [], "ignored %s: it %s" % (CONFIG_PATH, problem)
    found = []
    for entry in entries:
        text = head(entry.path, entry.lines)
        body = "%s (first %d lines):\n%s" % (entry.path, entry.lines, text) if text else ""
        found.append(section(entry.key, cap(body), title=entry.key))
    return found, None


def gather(workspace, extra=()):
    """Every section in display order; `extra` (already gathered, e.g. ended sessions) goes
    after the built-in ones read here and before the user's own."""
    memory = memory_folder(workspace.home, canonical_root(workspace.toplevel)
                           if workspace.toplevel else workspace.root)
    built = [
        gather_rules(workspace.root, workspace.home),
        gather_memory_index(memory),
        gather_handoff(workspace.root, memory),
        gather_recent_commits(workspace.toplevel),
        gather_worktrees(workspace.toplevel),
    ]
    users, problem = gather_user_sections(workspace.root)
    return Gathered(tuple(built) + tuple(extra) + tuple(users),
                    (problem,) if problem else ())
