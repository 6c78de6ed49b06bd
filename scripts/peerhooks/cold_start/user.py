"""The user's own cold-start sections: `.claude/cold-start.json`, a list of
`{"key": "notes", "file": "docs/NOTES.md", "lines": 40}`, each the head of a file inside the
workspace. A problem anywhere in the file voids the whole of it, in one stderr line.
"""
import os
from typing import NamedTuple

from .files import head
from .sections import TITLES, cap, section
from ..state.safefiles import read_regular
from ..state.statefiles import UnusableJSON, parse_json

CONFIG_PATH = os.path.join(".claude", "cold-start.json")
MAX_USER_SECTIONS = 20  # keeps the "left out" line short enough that one section always fits
MAX_USER_KEY_CHARS = 64
DEFAULT_USER_LINES = 40
MAX_USER_LINES = 500


class UserSection(NamedTuple):
    key: str
    path: str  # realpath, inside the workspace
    lines: int


def parse_user_config(raw, workspace_root):
    """The text of .claude/cold-start.json -> (entries, problem). A problem voids the whole file."""
    try:
        value = parse_json(raw)
    except UnusableJSON as error:
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
        if any(ord(c) < 0x20 or 0xD800 <= ord(c) <= 0xDFFF for c in key):
            return [], "entry %d: 'key' contains control characters or a lone surrogate" % number
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


def gather_user_config_paths(workspace_root):
    """The files .claude/cold-start.json names (for the quiet path), and its problem line."""
    config = os.path.join(workspace_root, CONFIG_PATH)
    try:
        raw = read_regular(config, 1 << 20)
    except (OSError, ValueError):
        return [], None
    entries, problem = parse_user_config(raw, workspace_root)
    return [entry.path for entry in entries], problem


def gather_user_sections(workspace_root):
    """Sections named in .claude/cold-start.json: (sections, problem line or None)."""
    config = os.path.join(workspace_root, CONFIG_PATH)
    try:
        raw = read_regular(config, 1 << 20)
    except FileNotFoundError:
        return [], None
    except (OSError, ValueError) as error:
        return [], "ignored %s: %s" % (CONFIG_PATH, error)
    entries, problem = parse_user_config(raw, workspace_root)
    if problem:
        return [], "ignored %s: it %s" % (CONFIG_PATH, problem)
    found, inside = [], (os.path.realpath(workspace_root),)  # entries are resolved already: a race
    for entry in entries:
        text = head(entry.path, entry.lines, inside)
        body = "%s (first %d lines):\n%s" % (entry.path, entry.lines, text) if text else ""
        found.append(section(entry.key, cap(body), title=entry.key))
    return found, None
