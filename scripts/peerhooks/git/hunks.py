"""This session's own hunks of a file a live peer changed too, as a patch git can stage. Pure.

Why: when both sessions changed one file, `git add <file>` ships the peer's hunks with ours
(public incidents: anthropics/claude-code #88862, dos-kernel #207), so staging the file is no narrow
form. A session's Edit records say exactly what it changed: each replaced `old_string` with
`new_string`. Replaying them, in order, on the file as the index holds it gives the file with only
this session's changes; the diff from the index to that is a patch `git apply --cached` stages,
leaving the peer's hunks in the working tree, unstaged.

They cannot be told apart (and the human is asked instead) when a record is a Write of the whole
file (it may hold the peer's lines), when an edit's old text is not found exactly once in what the
replay has so far (it overlapped the peer's change, or the file changed since), or when the file
no longer holds an edit's new text.
"""
import difflib

from ..startup.records import record

OwnEdit = record("OwnEdit", "tool old new replace_all", ("", "", False), """One of this session's changes
    to the file, oldest first: the tool (Edit, MultiEdit's parts as Edit, Write), the text replaced,
    the text put in its place, whether every occurrence was replaced.""")

MAX_EDITS = 200  # edits of one file replayed; more than this is not a file two sessions share by hunks


def own_text(base, current, edits):
    """The file as the index holds it (base, "" for a file not in the index) with only this
    session's uncommitted edits replayed, or None when they cannot be told apart from the peer's.
    An edit whose new text the index already holds and whose old text it no longer does was
    committed: it is skipped. base itself comes back when nothing of this session's is uncommitted."""
    if not edits or len(edits) > MAX_EDITS:
        return None
    text, replayed = base, []
    for edit in edits:
        if edit.tool != "Edit" or not edit.old or edit.new is None:
            return None  # a Write holds the whole file; an empty old text is a file created by Edit
        count = text.count(edit.old)
        if count == 0 and edit.new and edit.new in text:
            continue  # already in the index: committed (or staged) since
        if count == 0 or count > 1 and not edit.replace_all:
            return None
        text = text.replace(edit.old, edit.new) if edit.replace_all else text.replace(edit.old, edit.new, 1)
        replayed.append(edit)
    if any(edit.new and edit.new not in current for edit in replayed):
        return None  # the file changed since this session's edit
    return text


def patch(path, base, own, new_file=False):
    """A unified diff `git apply --cached` takes, from the index's version of path to own."""
    before, after = _lines(base), _lines(own)
    body = list(difflib.unified_diff(before, after, "a/" + path if not new_file else "/dev/null", "b/" + path, n=3))
    if not body:
        return None
    header = "diff --git a/%s b/%s\n" % (path, path) + ("new file mode 100644\n" if new_file else "")
    return header + "".join(_terminated(line) for line in body)


def _lines(text):
    return text.splitlines(True)


def _terminated(line):
    """A diff line with its newline; one for a last line without one gets git's marker."""
    if line.endswith("\n"):
        return line
    return line + "\n\\ No newline at end of file\n"
