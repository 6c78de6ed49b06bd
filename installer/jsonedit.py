"""Change members of a JSON object's text and leave every other byte as its owner wrote it.

Users format settings files by hand (tabs, four spaces, `\\u00e4` escapes, CRLF, no final newline).
Re-serialising the whole file on every install would turn an install and an uninstall into a diff
the user never asked for. So the installer edits text, not values: it finds where a member sits
(`"hooks"`, or one event inside it), replaces only that span, renders the new value in the file's own
style, and keeps everything around it byte for byte. Pure: text in, text out.
"""
import json
import re
from dataclasses import dataclass
from typing import Optional

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NON_ASCII_ESCAPE = re.compile(r"\\u(?:00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})")
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class Style:
    """How a JSON file is written, as far as a re-rendered member needs to match it."""

    indent: Optional[str]  # one level of indentation ("\t", "    "); None: everything on one line
    key_separator: str  # between a key and its value: ": " or ":"
    item_separator: str  # between members on one line: ", " or ","; multi-line files use ","
    ensure_ascii: bool  # non-ASCII written as \uXXXX escapes
    newline: str  # "\n" or "\r\n"
    final_newline: bool


# What a new file gets: what Claude Code itself writes (2-space JSON, characters as they are).
DEFAULT_STYLE = Style("  ", ": ", ", ", False, "\n", True)


@dataclass(frozen=True)
class Member:
    key: str
    key_start: int
    value_start: int
    value_end: int


@dataclass(frozen=True)
class ObjectLayout:
    """Where an object and each of its members sit in the text."""

    open_at: int  # index of "{"
    close_at: int  # index of "}"
    members: tuple


def layout(text, start=0):
    """The members of the object that begins at `start` (after whitespace) and their spans; ValueError
    if there is no well-formed JSON object there."""
    position = _WHITESPACE.match(text, start).end()
    if text[position:position + 1] != "{":
        raise ValueError("not a JSON object")
    open_at = position
    position = _WHITESPACE.match(text, position + 1).end()
    members = []
    if text[position:position + 1] == "}":
        return ObjectLayout(open_at, position, ())
    while True:
        key_start = position
        key, position = _DECODER.raw_decode(text, position)
        if not isinstance(key, str):
            raise ValueError("a key that is not a string at %d" % key_start)
        position = _WHITESPACE.match(text, position).end()
        if text[position:position + 1] != ":":
            raise ValueError("no colon after a key at %d" % position)
        value_start = _WHITESPACE.match(text, position + 1).end()
        _, value_end = _DECODER.raw_decode(text, value_start)
        members.append(Member(key, key_start, value_start, value_end))
        position = _WHITESPACE.match(text, value_end).end()
        if text[position:position + 1] == ",":
            position = _WHITESPACE.match(text, position + 1).end()
            continue
        if text[position:position + 1] == "}":
            return ObjectLayout(open_at, position, tuple(members))
        raise ValueError("expected , or } at %d" % position)


def detect_style(text):
    """The style a text is written in; DEFAULT_STYLE for what a blank or empty-object file cannot tell."""
    newline = "\r\n" if "\r\n" in text else "\n"
    final_newline = text.endswith("\n") if text.strip() else DEFAULT_STYLE.final_newline
    has_raw_non_ascii = any(ord(character) > 127 for character in text)
    ensure_ascii = bool(_NON_ASCII_ESCAPE.search(text)) and not has_raw_non_ascii
    try:
        found = layout(text)
    except ValueError:
        found = None
    if found is None or not found.members:
        return Style(DEFAULT_STYLE.indent, DEFAULT_STYLE.key_separator, DEFAULT_STYLE.item_separator,
                     ensure_ascii, newline, final_newline)
    first = found.members[0]
    before_key = text[found.open_at + 1:first.key_start]
    key_end = _DECODER.raw_decode(text, first.key_start)[1]
    key_separator = text[key_end:first.value_start].replace("\r", "").replace("\n", "") or ":"
    if "\n" in before_key:
        indent = before_key.rsplit("\n", 1)[1] or DEFAULT_STYLE.indent
        item_separator = ","
    else:
        indent = None
        after_value = text[first.value_end:found.members[1].key_start] if len(found.members) > 1 else ", "
        item_separator = ", " if after_value.endswith(" ") else ","
    return Style(indent, key_separator, item_separator, ensure_ascii, newline, final_newline)


def render_value(value, style, depth=0):
    """value as JSON text in style, for a place `depth` levels deep (its first line not indented)."""
    if style.indent is None:
        return json.dumps(value, ensure_ascii=style.ensure_ascii,
                          separators=(style.item_separator, style.key_separator))
    text = json.dumps(value, ensure_ascii=style.ensure_ascii, indent=style.indent,
                      separators=(",", style.key_separator))
    return text.replace("\n", style.newline + style.indent * depth)


def render_document(value, style=DEFAULT_STYLE):
    """A whole file holding value, written in style."""
    return render_value(value, style) + (style.newline if style.final_newline else "")


def object_at(text, path):
    """The layout of the object reached through the member keys in path (() is the top level), and
    how deep its members sit; ValueError if a key is missing or does not hold an object."""
    found = layout(text)
    for key in path:
        existing = [member for member in found.members if member.key == key]
        if not existing:
            raise ValueError("no member %r" % key)
        found = layout(text, existing[-1].value_start)  # JSON readers keep the last of duplicate keys
    return found, len(path) + 1


def set_member(text, key, value, style=None, path=()):
    """text with the member `key` of the object at path set to value (added at the end when absent).

    The member's old value is replaced by value rendered in the file's style; every other character of
    text stays. A blank text becomes a new document."""
    style = style or detect_style(text)
    if not text.strip() and not path:
        return render_document({key: value}, style)
    found, depth = object_at(text, path)
    existing = [member for member in found.members if member.key == key]
    rendered = render_value(value, style, depth=depth)
    if existing:
        member = existing[-1]
        return text[:member.value_start] + rendered + text[member.value_end:]
    pair = json.dumps(key, ensure_ascii=style.ensure_ascii) + style.key_separator + rendered
    if not found.members:
        if style.indent is None:
            return text[:found.open_at + 1] + pair + text[found.close_at:]
        inner = style.newline + style.indent * depth + pair + style.newline + style.indent * (depth - 1)
        return text[:found.open_at + 1] + inner + text[found.close_at:]
    last = found.members[-1]
    if style.indent is None:
        insertion = style.item_separator + pair
    else:
        insertion = "," + style.newline + _indent_of(text, found.members[0], style, depth) + pair
    return text[:last.value_end] + insertion + text[last.value_end:]


def remove_member(text, key, path=()):
    """text without the member `key` (and its comma) of the object at path; unchanged when it has none."""
    found, _ = object_at(text, path)
    members = list(found.members)
    for index in range(len(members) - 1, -1, -1):
        member = members[index]
        if member.key != key:
            continue
        if index > 0:
            start, end = members[index - 1].value_end, member.value_end
        elif len(members) > 1:
            start, end = member.key_start, members[1].key_start
        else:
            start, end = found.open_at + 1, found.close_at
        text = text[:start] + text[end:]
        found, _ = object_at(text, path)
        members = list(found.members)
    return text


def _indent_of(text, member, style, depth):
    """The whitespace in front of a member's key on its own line (what a new neighbour gets)."""
    line_start = text.rfind("\n", 0, member.key_start) + 1
    leading = text[line_start:member.key_start]
    return leading if leading and not leading.strip() else style.indent * depth
