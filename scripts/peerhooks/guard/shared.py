"""Files this session and a live peer both changed: this session's own hunks as a patch file, so a
suggestion can stage them without the peer's (peerhooks.git.hunks says why and when they cannot be told
apart). The I/O: the index's version of the file (one `git show :<path>`), the file now, this
session's edit records, and the patch written under peerhooks' own folder.
"""
import hashlib

from ..git import gitrepo, hunks
from ..startup import oscalls
from ..claude import transcripts
from ..claude.home import state_dir
from ..git.reach import relative
from ..startup.records import record
from ..state.safefiles import is_private_folder, read_regular
from ..state.statefiles import write_atomically

PATCH_FOLDER = "patches"
MAX_FILE_BYTES = 1024 * 1024  # a file shared hunk by hunk is source, not data
KEEP_PATCHES = 32  # the newest are kept: a suggestion is retried within minutes


Split = record("Split", "all_own none_own patch own", (None, None), """What this session's edit records say of a file
    both sessions changed: all_own, every uncommitted change in it is this session's (the peer's
    were committed or undone); none_own, none is (this session's were committed); patch, the path of
    a patch holding only this session's hunks, and own, its text (which hunks of `git add -p` are
    this session's); all None/False when they cannot be told apart.""")
CANNOT_TELL = Split(False, False, None)


def split(claude, top, path, own_transcripts, timeout):
    """The Split of `path` (a realpath under top)."""
    rel = relative(path, top)  # as git names it: `/`-separated on every platform
    shown = gitrepo.run_git_code(top, ["show", ":" + rel], timeout=timeout)
    if shown is None:
        return CANNOT_TELL
    new_file = shown[0] != 0  # not in the index: the patch creates it
    base = "" if new_file else _text(shown[1])
    current = _read(path, top)
    if base is None or current is None:
        return CANNOT_TELL
    edits = []
    for transcript in own_transcripts:
        found = transcripts.edit_inputs(transcript, path)
        if found is None:
            return CANNOT_TELL
        edits.extend(found)
    own = hunks.own_text(base, current, [edit for tool, tool_input in edits for edit in _own_edits(tool, tool_input)])
    if own is None:
        return CANNOT_TELL
    if own == current:
        return Split(True, False)
    if own == base:
        return Split(False, True)
    text = hunks.patch(rel, base, own, new_file)
    saved = _saved(claude, text) if text else None
    return Split(False, False, saved, text) if saved else CANNOT_TELL


def _own_edits(tool, tool_input):
    if tool == "MultiEdit":
        parts = tool_input.get("edits")
        if not isinstance(parts, list) or not parts:
            return [hunks.OwnEdit("MultiEdit")]
        return [hunks.OwnEdit("Edit", _str(p.get("old_string")), _str(p.get("new_string")), p.get("replace_all") is True)
                if isinstance(p, dict) else hunks.OwnEdit("MultiEdit") for p in parts]
    if tool == "Edit":
        return [hunks.OwnEdit("Edit", _str(tool_input.get("old_string")), _str(tool_input.get("new_string")),
                              tool_input.get("replace_all") is True)]
    return [hunks.OwnEdit(tool)]


def _str(value):
    return value if isinstance(value, str) else None


def _text(raw):
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _read(path, top):
    try:
        raw = read_regular(path, MAX_FILE_BYTES + 1, inside=(top,))  # never a link out of the checkout
    except OSError:
        return None
    return None if raw is None or len(raw) > MAX_FILE_BYTES else _text(raw)


def _saved(claude, text):
    folder = oscalls.path.join(state_dir(claude), PATCH_FOLDER)
    data = text.encode("utf-8")
    path = oscalls.path.join(folder, hashlib.sha1(data).hexdigest()[:16] + ".patch")
    try:
        if not oscalls.path.isfile(path):
            write_atomically(path, data, levels=2)  # peerhooks/patches: both ours, neither a link
        _prune(folder)
    except OSError:
        return None
    return path


def _prune(folder):
    if not is_private_folder(folder, 2):
        return  # a link in our place: nothing is removed through it
    try:
        entries = sorted(oscalls.scandir(folder), key=lambda e: e.stat(follow_symlinks=False).st_mtime, reverse=True)
    except OSError:
        return
    for entry in entries[KEEP_PATCHES:]:
        if entry.name.endswith(".patch"):
            try:
                oscalls.unlink(entry.path)
            except OSError:
                pass
