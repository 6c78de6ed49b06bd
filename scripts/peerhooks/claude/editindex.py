"""What each transcript's tail said about edits, kept between runs so only appended lines are read.

peers.py reads a dozen peers' transcript tails at every session start and the guard reads them for a
folder-wide add or a plain commit. Transcripts only grow, so a scan remembered with the offset it
reached (and the file's inode) is resumed there: an unchanged peer costs one stat, a busy one the
bytes it wrote since. Kept in peerhooks' own folder; a lost or stale index only costs a full scan.
"""

from .home import state_dir
from ..startup import oscalls
from ..state.statefiles import read_json_object, write_json
from .formats import DAY_MS
from .editscan import Edit, EditScan, unchanged_since

INDEX_NAME = "edit-index.json"
INDEX_VERSION = 3  # 2: edits include the files Bash commands wrote; 3: and what `git rm` removed
MAX_ENTRIES = 256  # transcripts remembered; the least recently used go first
KEEP_DAYS = 7  # a transcript nobody asked about for a week is dropped


def _path(home):
    return oscalls.path.join(state_dir(home), INDEX_NAME)


def _decode(row):
    """(EditScan, last used ms) from a stored row, or None."""
    try:
        inode, scanned_to, truncated, edits, used_ms = row
        scan = EditScan([Edit(str(p), at if isinstance(at, int) else None) for p, at in edits],
                        bool(truncated), int(scanned_to), int(inode))
        return scan, int(used_ms)
    except (TypeError, ValueError):
        return None


def _encode(scan, used_ms):
    return [scan.inode, scan.scanned_to, scan.truncated, [[e.path, e.at_ms] for e in scan.edits], used_ms]


# {index path: ((inode, mtime ns, size), rows)}: a peers.py start asks twice (its live peers, then
# its last finished session), and the index is parsed once for each version of the file; a file
# replaced (every write is a rename) or edited has another inode, time or size and is read anew.
_parsed = {}


def _rows(home):
    """{transcript path: stored row}, undecoded: a run decodes only the rows it asks about (a
    start asks about a dozen of up to MAX_ENTRIES)."""
    path = _path(home)
    try:
        stat = oscalls.lstat(path)
        version = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
    except OSError:
        version = None
    known = _parsed.get(path)
    if version is not None and known is not None and known[0] == version:
        return known[1]
    data = read_json_object(path) or {}
    rows = data.get("transcripts") if data.get("version") == INDEX_VERSION else None
    rows = rows if isinstance(rows, dict) else {}
    if version is not None:
        _parsed[path] = (version, rows)
    return rows


def _decoded(rows, updated=None):
    """{path: (EditScan, last used ms)} of the well-formed rows, in stored order, with `updated`
    entries in place of theirs and new paths last."""
    updated = updated or {}
    entries = {}
    for path, row in rows.items():
        entry = _decode(row)
        if entry is not None:
            entries[path] = updated.get(path, entry)
    for path, entry in updated.items():
        entries.setdefault(path, entry)
    return entries


def load(home):
    """{path: (EditScan, last used ms)} of every well-formed stored row."""
    return _decoded(_rows(home))


def kept(entries, now_ms):
    """The entries worth keeping: used within a week, at most MAX_ENTRIES, newest use first."""
    fresh = [(path, e) for path, e in entries.items() if now_ms - e[1] <= KEEP_DAYS * DAY_MS]
    fresh.sort(key=lambda item: item[1][1], reverse=True)
    return dict(fresh[:MAX_ENTRIES])


def recent_edits_of(home, paths, now_ms):
    """{path: EditScan} for transcripts, resuming each remembered scan; saves what changed."""
    rows = _rows(home)
    scans, updated = {}, {}
    for path in paths:
        if not path or path in scans:
            continue
        known = _decode(rows[path]) if path in rows else None
        if known is not None and unchanged_since(path, known[0]):
            scan = known[0]
        else:
            from . import transcripts  # seam: only a transcript that grew since its scan needs the parser (~0.7 ms)

            scan = transcripts.recent_edits(path, known=known[0] if known else None)
        scans[path] = scan
        if known is None or scan is not known[0] or now_ms - known[1] > DAY_MS:
            updated[path] = (scan, now_ms)
    if updated:
        entries = _decoded(rows, updated)
        body = {"version": INDEX_VERSION,
                "transcripts": {p: _encode(*e) for p, e in kept(entries, now_ms).items()}}
        try:
            write_json(_path(home), body)
        except OSError:
            pass  # a cache we could not save is a full scan next time
    return scans
