"""A hooks document's bytes (settings.json, hooks.json): read and checked, and written back in the
file's own style, changing only the hook groups and handlers that change."""
import codecs
import json
from dataclasses import dataclass
from typing import Optional

from installer import InstallError, jsonedit, userfile
from installer.wiring import shape_problem


@dataclass(frozen=True)
class Loaded:
    path: str
    text: Optional[str]  # None: the file does not exist yet
    settings: dict
    bom: bool = False  # the file starts with a UTF-8 byte order mark (kept on writing)


def parse(path, data):
    """Check a file's bytes; a missing (None) or blank file is an empty object. InstallError if the
    file is not UTF-8, not JSON, not an object, or has hooks of the wrong shape."""
    if data is None:
        return Loaded(path, None, {})
    bom = data.startswith(codecs.BOM_UTF8)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InstallError("%s is not UTF-8 (byte %d); nothing was changed" % (path, error.start))
    if not text.strip():
        return Loaded(path, text, {}, bom)
    try:
        settings = json.loads(text)
    except json.JSONDecodeError as error:
        raise InstallError("%s is not valid JSON: line %d, column %d: %s; nothing was changed"
                           % (path, error.lineno, error.colno, error.msg))
    except RecursionError:
        raise InstallError("%s is nested too deeply to read; nothing was changed" % path)
    problem = shape_problem(settings)
    if problem:
        raise InstallError("%s: %s; nothing was changed" % (path, problem))
    return Loaded(path, text, settings, bom)


def load(path):
    """The file at path (through a symlink), checked as parse() does."""
    return parse(path, userfile.snapshot(path).data)


def edited_bytes(loaded, new_settings):
    """The file's bytes with new_settings' hooks. Only what changed is rewritten: the hook groups and
    handlers added, removed or changed (or the whole `"hooks"` member when it appears or goes), in the
    file's indentation, escaping and newline style; every other byte, the user's own hook entries
    among them, stays. (If the text cannot be edited in place, the whole document is rendered in
    that style instead.)"""
    text = loaded.text or ""
    try:
        new_text = jsonedit.edit(text, loaded.settings, new_settings)
        if json.loads(new_text) != new_settings:
            raise ValueError("the edit did not give the intended value")
    except ValueError:
        new_text = jsonedit.render_document(new_settings, jsonedit.detect_style(text))
    return (codecs.BOM_UTF8 if loaded.bom else b"") + new_text.encode("utf-8")
