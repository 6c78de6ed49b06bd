"""A hooks document's bytes (settings.json, hooks.json): read and checked, and written back in the
file's own style, changing only the hook events that change."""
import codecs
import json
from dataclasses import dataclass
from typing import Optional

from installer import InstallError, jsonedit, userfile
from installer.wiring import shape_problem

HOOKS_KEY = "hooks"


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
    """The file's bytes with new_settings' hooks. Only what changed is rewritten: the events whose
    groups differ (or the whole `"hooks"` member when it appears or goes), in the file's indentation,
    escaping and newline style; every other byte stays. (If the text cannot be edited in place, the
    whole document is rendered in that style instead.)"""
    text = loaded.text or ""
    try:
        new_text = _edited_text(text, loaded.settings, new_settings)
        if json.loads(new_text) != new_settings:
            raise ValueError("the edit did not give the intended value")
    except ValueError:
        new_text = jsonedit.render_document(new_settings, jsonedit.detect_style(text))
    return (codecs.BOM_UTF8 if loaded.bom else b"") + new_text.encode("utf-8")


def _edited_text(text, old_settings, new_settings):
    old_hooks, new_hooks = old_settings.get(HOOKS_KEY), new_settings.get(HOOKS_KEY)
    if new_hooks is None:
        return jsonedit.remove_member(text, HOOKS_KEY)
    if not isinstance(old_hooks, dict):
        return jsonedit.set_member(text, HOOKS_KEY, new_hooks)
    style = jsonedit.detect_style(text)
    for event in old_hooks:
        if event not in new_hooks:
            text = jsonedit.remove_member(text, event, path=(HOOKS_KEY,))
    for event, groups in new_hooks.items():
        if old_hooks.get(event) != groups or event not in old_hooks:
            text = jsonedit.set_member(text, event, groups, style, path=(HOOKS_KEY,))
    return text
