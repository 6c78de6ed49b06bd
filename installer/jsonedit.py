"""Change a JSON document's text to hold a new value and leave every other byte as its owner wrote it.

Users format settings files by hand (tabs, four spaces, `\\u00e4` escapes, CRLF, no final newline,
a hook entry kept on one line). Re-serialising the whole file on every install would turn an install
and an uninstall into a diff the user never asked for, and re-rendering a whole hook event would
spread the user's one-line entries beside ours over nine lines each. So the installer edits text,
not values: `edit` walks the old and the new value together, and only where they differ does it
touch the text: a member or an array element added, removed, or (a scalar) replaced, rendered in
the file's own style. Every object member and array element equal in both keeps its bytes, and so
does the whitespace around it. Pure: text in, text out.
"""
import difflib
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
    return ObjectLayout(*_container(text, start, "{}", _member))


def _member(text, key_start):
    """A member at key_start and where it ends."""
    key, position = _DECODER.raw_decode(text, key_start)
    if not isinstance(key, str):
        raise ValueError("a key that is not a string at %d" % key_start)
    position = _WHITESPACE.match(text, position).end()
    if text[position:position + 1] != ":":
        raise ValueError("no colon after a key at %d" % position)
    value_start = _WHITESPACE.match(text, position + 1).end()
    _, value_end = _DECODER.raw_decode(text, value_start)
    return Member(key, key_start, value_start, value_end), value_end


def _element(text, position):
    """An array element's span and where it ends."""
    _, end = _DECODER.raw_decode(text, position)
    return (position, end), end


def _container(text, start, brackets, read_item):
    """(index of the opening bracket, index of the closing one, the items read_item found between),
    for the object or array (brackets "{}" or "[]") that begins at `start` after whitespace."""
    opening, closing = brackets
    position = _WHITESPACE.match(text, start).end()
    if text[position:position + 1] != opening:
        raise ValueError("not a JSON %s" % ("object" if opening == "{" else "array"))
    open_at = position
    position = _WHITESPACE.match(text, position + 1).end()
    if text[position:position + 1] == closing:
        return open_at, position, ()
    items = []
    while True:
        item, end = read_item(text, position)
        items.append(item)
        position = _WHITESPACE.match(text, end).end()
        if text[position:position + 1] == ",":
            position = _WHITESPACE.match(text, position + 1).end()
            continue
        if text[position:position + 1] == closing:
            return open_at, position, tuple(items)
        raise ValueError("expected , or %s at %d" % (closing, position))


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
    return _set_member_in(text, found, depth, key, value, style)


def _set_member_in(text, found, depth, key, value, style):
    """set_member for the object laid out as `found`, whose members sit `depth` levels deep."""
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
    return _remove_member_in(text, found.open_at, key)


def _remove_member_in(text, object_start, key):
    found = layout(text, object_start)
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
        members = list(layout(text, object_start).members)
    return text


def _indent_of(text, member, style, depth):
    """The whitespace in front of a member's key on its own line (what a new neighbour gets)."""
    return _indent_before(text, member.key_start, style, depth)


def _indent_before(text, position, style, depth):
    """The whitespace in front of what starts at position, when it starts its line; else `depth`
    levels of the file's indentation."""
    line_start = text.rfind("\n", 0, position) + 1
    leading = text[line_start:position]
    return leading if leading and not leading.strip() else style.indent * depth


# ---------------------------------------------------------------------------------------------------
# Arrays, and a whole value edited in place


@dataclass(frozen=True)
class ArrayLayout:
    """Where an array and each of its elements sit in the text."""

    open_at: int  # index of "["
    close_at: int  # index of "]"
    elements: tuple  # (start, end) of each element


def array_layout(text, start=0):
    """The elements of the array that begins at `start` (after whitespace) and their spans; ValueError
    if there is no well-formed JSON array there."""
    return ArrayLayout(*_container(text, start, "[]", _element))


def edit(text, old, new, style=None):
    """text, which holds the JSON value old, changed to hold new. Object members and array elements
    equal in both keep their bytes; a changed member or element is edited the same way inside;
    what is new is rendered in the file's style (`style`, else detected). A blank text becomes a new
    document. ValueError if the text is not the JSON it should be."""
    style = style or detect_style(text)
    if not text.strip():
        return render_document(new, style)
    start = _WHITESPACE.match(text).end()
    end = _DECODER.raw_decode(text, start)[1]
    return _edit_span(text, start, end, old, new, style, 0)


def _edit_span(text, start, end, old, new, style, depth):
    """text with the value at [start, end), which is old and sits `depth` levels deep, made new."""
    if _canonical(old) == _canonical(new):
        return text
    if isinstance(old, dict) and isinstance(new, dict):
        return _edit_object(text, start, old, new, style, depth + 1)
    if isinstance(old, list) and isinstance(new, list) and old and new:
        return _edit_array(text, start, old, new, style, depth + 1)
    return text[:start] + render_value(new, style, depth) + text[end:]


def _edit_object(text, start, old, new, style, depth):
    """Members gone are removed, changed ones edited inside, new ones added at the end; `depth` is
    the members' depth."""
    for key in old:
        if key not in new:
            text = _remove_member_in(text, start, key)
    for key, value in new.items():
        if key in old and _canonical(old[key]) != _canonical(value):
            member = [m for m in layout(text, start).members if m.key == key][-1]
            text = _edit_span(text, member.value_start, member.value_end, old[key], value, style, depth)
    for key, value in new.items():
        if key not in old:
            text = _set_member_in(text, layout(text, start), depth, key, value, style)
    return text


# The steps of an array's edit, by old element index; at one index they run in this order, highest
# first: edit that element, remove the elements from it on, insert before it.
_INSERT, _REMOVE, _EDIT = 0, 1, 2


def _edit_array(text, start, old, new, style, depth):
    """Elements kept stay as they are; a changed element is edited inside (paired with the old element
    it resembles most); others are removed or inserted. `depth` is the elements' depth. The steps run
    from the end of the array back, so each one's positions are still those of the old text."""
    steps = []  # (old index, step, argument)
    old_keys, new_keys = [_canonical(v) for v in old], [_canonical(v) for v in new]
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old_keys, new_keys, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        i, j = i1, j1
        for paired_old, paired_new in _pairs(old, new, i1, i2, j1, j2) + [(i2, j2)]:
            if j < paired_new:
                steps.append((i, _INSERT, new[j:paired_new]))
            if i < paired_old:
                steps.append((i, _REMOVE, paired_old))  # old elements i .. paired_old - 1
            if paired_old < i2:
                steps.append((paired_old, _EDIT, paired_new))
            i, j = paired_old + 1, paired_new + 1
    for index, step, argument in sorted(steps, key=lambda s: (s[0], s[1]), reverse=True):
        if step == _EDIT:
            element_start, element_end = array_layout(text, start).elements[index]
            text = _edit_span(text, element_start, element_end, old[index], new[argument], style, depth)
        elif step == _REMOVE:
            text = _remove_elements(text, start, index, argument)
        else:
            text = _insert_elements(text, start, index, argument, style, depth)
    return text


SIMILAR_ENOUGH = 0.5  # a changed element is edited inside when it resembles an old one this much


def _pairs(old, new, i1, i2, j1, j2):
    """(old index, new index) of the elements of a changed stretch that are the same element changed:
    for each new one in order, the old one after the last paired that it resembles most."""
    pairs, last = [], i1 - 1
    for j in range(j1, j2):
        best, best_score = None, SIMILAR_ENOUGH
        for i in range(last + 1, i2):
            score = _resemblance(old[i], new[j])
            if score >= best_score and (best is None or score > best_score):
                best, best_score = i, score
        if best is not None:
            pairs.append((best, j))
            last = best
    return pairs


def _resemblance(a, b):
    """How much of two JSON values is the same, from 0 to 1: objects by their members (a member in
    one only counts as different), arrays by the elements they share, anything else equal or not."""
    if _canonical(a) == _canonical(b):
        return 1.0
    if isinstance(a, dict) and isinstance(b, dict):
        keys = set(a) | set(b)
        return sum(_resemblance(a[key], b[key]) for key in keys if key in a and key in b) / len(keys)
    if isinstance(a, list) and isinstance(b, list):
        left = [_canonical(value) for value in a]
        shared = 0
        for value in b:
            text = _canonical(value)
            if text in left:
                left.remove(text)
                shared += 1
        return 2.0 * shared / (len(a) + len(b))
    return 0.0


def _remove_elements(text, start, first, stop):
    """text without the elements first .. stop - 1 of the array at start, and their commas."""
    found = array_layout(text, start)
    elements = found.elements
    if first > 0:
        cut = elements[first - 1][1], elements[stop - 1][1]
    elif stop < len(elements):
        cut = elements[first][0], elements[stop][0]
    else:
        cut = found.open_at + 1, found.close_at
    return text[:cut[0]] + text[cut[1]:]


def _insert_elements(text, start, before, values, style, depth):
    """text with values inserted into the array at start, before its element `before` (at the end
    when it has no such element), rendered in style as elements `depth` levels deep."""
    found = array_layout(text, start)
    elements = found.elements
    if not elements:
        rendered = render_value(list(values), style, depth - 1)
        return text[:found.open_at] + rendered + text[found.close_at + 1:]
    if style.indent is None:
        pieces = [render_value(value, style) for value in values]
        if before < len(elements):
            at, insertion = elements[before][0], "".join(piece + style.item_separator for piece in pieces)
        else:
            at, insertion = elements[-1][1], "".join(style.item_separator + piece for piece in pieces)
        return text[:at] + insertion + text[at:]
    indent = _indent_before(text, elements[0][0], style, depth)
    pieces = [render_value(value, style, depth) for value in values]
    if before < len(elements):
        at, insertion = elements[before][0], "".join(piece + "," + style.newline + indent for piece in pieces)
    else:
        at, insertion = elements[-1][1], "".join("," + style.newline + indent + piece for piece in pieces)
    return text[:at] + insertion + text[at:]


def _canonical(value):
    """One text per JSON value: equal values, equal texts (key order aside)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
