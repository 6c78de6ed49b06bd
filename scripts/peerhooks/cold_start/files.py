"""The workspace's own files as cold-start sections: the rule files (Claude Code's or Codex's),
the memory index and the handoff; and `head`, the one bounded reader of a file's first lines that
every cold-start gatherer uses (a FIFO or device in a file's place is never waited on).
"""
import hashlib
import os

from ..claude.activity import find_handoff
from ..claude.formats import HANDOFF_NAME, MEMORY_INDEX, rule_tree
from ..claude.formats import rule_places as claude_rule_places
from ..state.safefiles import read_regular, read_text_head, regular_stat
from ..text import peertext
from .rules import MAX_COPY_BYTES
from .sections import RULE_PREFIX, SECTION_MAX_CHARS, Section, cap, fingerprint, section

MAX_RULE_FILES = 200  # a rules tree larger than this is a mistake; list a bounded, stable prefix
# A rule file's text is kept for the next diff; larger files are fingerprinted by size and mtime,
# never read or hashed.
RULE_TEXT_MAX_BYTES = MAX_COPY_BYTES
MEMORY_INDEX_LINES = 40  # Claude Code itself loads the first 200 lines; the head is what orients
HANDOFF_LINES = 60  # a handoff is written to be read first; its head carries the plan


def head(path, lines, inside=None):
    """The first `lines` lines of a regular text file (BOM dropped, newlines normalised), None
    if absent or not a regular file (a FIFO or device in its place is never waited on) or, with
    `inside` (the folders it may lie in), a symlink that leads out of its own."""
    text = read_text_head(path, lines, SECTION_MAX_CHARS, inside) if path else None
    return text.rstrip() if text is not None else None


# Codex reads, in its home and in each folder from the project root down, the first non-empty of
# these (developers.openai.com/codex/guides/agents-md; both names are in the 0.171 binary).
CODEX_RULE_NAMES = ("AGENTS.override.md", "AGENTS.md")


# The rule files a session also loads from each folder between the one it started in and the
# workspace root (Claude Code reads CLAUDE.md upward from its folder: docs).
NESTED_RULE_FILES = ("CLAUDE.md", "CLAUDE.local.md")
MAX_NESTED_FOLDERS = 16  # a start this deep below its checkout is not a real layout


def folders_below(workspace_root, start):
    """The folders from `start` up to, not including, the workspace root, nearest first; none when
    start is the root or not inside it."""
    found = []
    current = os.path.normpath(start) if start else None
    root = os.path.normpath(workspace_root)
    while current and current != root and current.startswith(root.rstrip(os.sep) + os.sep):
        found.append(current)
        if len(found) >= MAX_NESTED_FOLDERS:
            break
        current = os.path.dirname(current)
    return found


def rule_places(workspace_root, home, codex_home=None, start=None):
    """[(file or None, folder or None)] in load order: the rule files every session loads, and
    the folders whose **/*.md it loads (one list, read by the gatherer and the quiet path): the
    workspace root's and the home's, after those of the folders a session that started in a
    subfolder (start) also loads. Under Codex (codex_home set) its own instruction files, never
    CLAUDE.md."""
    if codex_home:
        return [(os.path.join(folder, name), None)
                for folder in (workspace_root, codex_home) for name in CODEX_RULE_NAMES]
    nested = [(os.path.join(folder, name), None)
              for folder in reversed(folders_below(workspace_root, start)) for name in NESTED_RULE_FILES]
    return nested + claude_rule_places(workspace_root, home)


def codex_rule_files(workspace_root, codex_home):
    """The instruction files Codex loads at start: per folder (workspace root, then Codex's home)
    the first non-empty of CODEX_RULE_NAMES."""
    found = []
    for folder in (workspace_root, codex_home):
        for name in CODEX_RULE_NAMES:
            path = os.path.join(folder, name)
            try:
                loaded = os.path.isfile(path) and os.path.getsize(path) > 0
            except OSError:  # removed between the two looks
                loaded = False
            if loaded:
                found.append(path)
                break
    return found


def rule_files(workspace_root, home, codex_home=None, start=None):
    """The rule files every session (of Codex, when codex_home is set) loads, in a fixed order."""
    if codex_home:
        return codex_rule_files(workspace_root, codex_home)
    paths = []
    for file, folder in rule_places(workspace_root, home, start=start):
        paths += [file] if file else rule_tree(folder)[1]
    return [p for p in paths if os.path.isfile(p)][:MAX_RULE_FILES]


def rule_section(path, roots, stat_result=None):
    """One rule file as a section: its text (for a later diff) with its SHA-256, or, over
    RULE_TEXT_MAX_BYTES, no text and a digest of its size and mtime, so a huge file is never
    read or hashed on a start; None when it is not a readable regular file inside its root (one
    of roots: a workspace's `CLAUDE.md -> ~/.aws/credentials` is neither read nor listed)."""
    title = peertext.clean(path)  # a folder's name is the repository's to choose
    try:
        info = stat_result or regular_stat(path, roots)
        if info is None:
            return None
        if info.st_size > RULE_TEXT_MAX_BYTES:
            stamp = "size %d mtime %d" % (info.st_size, info.st_mtime_ns)
            return section(RULE_PREFIX + path, "", title)._replace(digest=fingerprint(stamp))
        raw = read_regular(path, RULE_TEXT_MAX_BYTES + 1, inside=roots)
    except (OSError, ValueError):
        return None
    if len(raw) > RULE_TEXT_MAX_BYTES:  # grew since the stat
        return rule_section(path, roots, regular_stat(path, roots))
    return Section(RULE_PREFIX + path, title, raw.decode("utf-8", "replace"),
                   hashlib.sha256(raw).hexdigest())


def gather_rules(workspace_root, home, codex_home=None, start=None):
    roots = (workspace_root, codex_home or home)  # a nested folder's rules lie inside the workspace
    found = []
    for path in rule_files(workspace_root, home, codex_home, start):
        ruled = rule_section(path, roots)
        if ruled is not None:
            found.append(ruled)
    return found


def gather_memory_index(memory):
    if memory is None:
        return section("memory_index", "")
    path = os.path.join(memory, MEMORY_INDEX)
    text = head(path, MEMORY_INDEX_LINES, inside=(memory,))
    if not text:
        return section("memory_index", "")
    return section("memory_index", cap("%s (first %d lines):\n%s"
                                       % (path, MEMORY_INDEX_LINES, text)))


def gather_handoff(workspace, memory):
    """The head of HANDOFF.md: the newer of the repo root's and the memory folder's (the same
    choice peers.py makes); outside a repository, the workspace root's. Neither is read through a
    link that leads out of its folder (a committed `HANDOFF.md -> ~/.aws/credentials`)."""
    roots = (workspace.toplevel or workspace.root, memory)
    if workspace.toplevel:
        found = find_handoff(workspace.toplevel, memory, None)
        path = found.path if found else None
    else:
        path = os.path.join(workspace.root, HANDOFF_NAME)
    text = head(path, HANDOFF_LINES, inside=roots) if path else None
    if not text:
        return section("handoff", "")
    return section("handoff", cap("%s (first %d lines):\n%s" % (path, HANDOFF_LINES, text)))
