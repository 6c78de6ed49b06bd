"""Copies of rule files (and of the memory index and recent commits, which the client shows itself)
as a cold start last showed or recorded them, so the next start can say what changed.

Claude Code loads CLAUDE.md and the other rule files whole at start, so printing them again (or
their hashes) tells a session nothing; what it needs is the diff since this agent last started
(issue 14). Each version shown is kept once, named by its SHA-256, in peerhooks' folder under the
Claude home; a copy is checked against its name when read, so a damaged one is never diffed
against. Copies not shown for 90 days are removed (the state file forgets such agents too).
"""
import hashlib
import os

from ..state.statefiles import write_atomically
from ..claude.home import state_dir
from ..state.safefiles import is_private_folder, read_regular

FOLDER = "rule-copies"
LEVELS = 2  # `peerhooks/rule-copies`: the folders under the Claude home that are ours
KEEP_SECONDS = 90 * 86400  # as long as a partition that refers to them is kept
MAX_COPY_BYTES = 256 * 1024  # rule files larger than this are never read on a start, nor copied


def _folder(home):
    return os.path.join(state_dir(home), FOLDER)


def _is_digest(text):
    return len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def load(home, digests):
    """{digest: text} of the kept copies among digests (absent or damaged ones left out; one whose
    newlines became CRLF on the way is the same text)."""
    found = {}
    for digest in digests:
        if not _is_digest(digest):
            continue
        try:
            raw = read_regular(os.path.join(_folder(home), digest), MAX_COPY_BYTES + 1,
                               follow_symlinks=False)
        except (OSError, ValueError):
            continue
        if hashlib.sha256(raw).hexdigest() != digest:
            raw = raw.replace(b"\r\n", b"\n")  # a copy an older version wrote in text mode on Windows
        if hashlib.sha256(raw).hexdigest() == digest:
            found[digest] = raw.decode("utf-8", "replace")
    return found


def keep(home, rule_sections, now_seconds):
    """Keep a copy of each shown section that has text and a digest (rule files; the client-loaded
    sections, given their body's fingerprint as digest); refresh the age of those already kept
    and remove the ones nobody was shown for KEEP_SECONDS. Best effort: a missing copy only
    means the next change is named without a diff."""
    folder = _folder(home)
    if os.path.lexists(folder) and not is_private_folder(folder, LEVELS):
        return  # a link in our place: nothing is refreshed, written or removed through it
    for s in rule_sections:
        if not s.body or not s.digest or not _is_digest(s.digest):
            continue
        path = os.path.join(folder, s.digest)
        try:
            if os.path.lexists(path):
                os.utime(path, (now_seconds, now_seconds), follow_symlinks=False)
            else:
                write_atomically(path, s.body.encode("utf-8", "surrogateescape"), levels=LEVELS)
        except (OSError, NotImplementedError, UnicodeEncodeError):
            continue
    _remove_old(folder, now_seconds)


def _remove_old(folder, now_seconds):
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            if now_seconds - entry.stat(follow_symlinks=False).st_mtime > KEEP_SECONDS:
                os.unlink(entry.path)
        except OSError:
            continue

