"""Memory and rule files: which are watched, and which changed since a session last looked.

Auto memory and rule files (`CLAUDE.md`, `.claude/rules/`) are read when a session starts; a
long-lived session never sees the correction a peer wrote at noon. memory_delta.py tells it on the
next prompt. It runs on every prompt and almost always has nothing to say, so this module is the
whole of that silent path and is kept small (it is compiled on every run where no .pyc can be
written): a stat of each watched file and one small read of the session's stamp, which records
the previous listing. Everything else (report.py) runs only when the two differ.

The memory folder is listed within a fixed budget: with 100,000 notes, stat'ing them all took 0.8 s
and the first prompt's notice was killed at 5 s, on every prompt (issue 21). At most WATCHED_NOTES
notes are watched, the first the folder lists; a folder holding more is told once, in one line.
"""
import os

from ..claude.formats import DAY_MS, MEMORY_INDEX, rule_places, rule_tree
from ..startup.jsonfast import dumps
from ..startup.records import record
from ..state.statefiles import read_state, versioned_object, write_atomically

# A file that appears after a listing may carry an mtime a little before the clock reading taken
# just ahead of that listing (the kernel stamps files with a coarse clock; FAT keeps 2 s).
CLOCK_SLACK_MS = 2000
STAMP_FOLDER = "memory-delta"  # under peerhooks' state folder; one stamp per session
STAMP_LEVELS = 2  # `peerhooks/memory-delta`: the folders under the Claude home that are ours
STAMP_VERSION = 1
STAMP_MAX_AGE_MS = 30 * DAY_MS  # a stamp untouched for 30 days belongs to a finished session
# Real memory folders hold tens of notes (Claude Code loads MEMORY.md's first 200 lines); 500 stats
# cost ~4 ms here. Entries that are not notes (folders, other files) count too, up to twice that.
WATCHED_NOTES = 500
LISTED_ENTRIES = 2 * WATCHED_NOTES

Stamp = record("Stamp", "listed_at_ms files overflow_told", defaults=(False,),
               doc="""What a session's hook listed last: when, {path: (mtime_ns, size)}, and whether
               it has told that the memory folder holds more notes than are watched.""")

Change = record("Change", "path mtime_ns previous_ms",
                doc="""A watched file that is new or different; writes before previous_ms are history.""")

Removal = record("Removal", "path previous_ms")


# -- Listing (the hot path: stats only) ----------------------------------------------------------

def _regular(path):
    """(mtime_ns, size) of a regular file, following symlinks; None for anything else."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    if (info.st_mode & 0o170000) != 0o100000:  # not S_IFREG: a folder, FIFO or socket is never read
        return None
    return info.st_mtime_ns, info.st_size


def list_watched(memory_folder, checkout, claude_home):
    """({path: (mtime_ns, size)} of every watched file, overflow): the memory notes (*.md but the
    index: at most WATCHED_NOTES of them, among at most LISTED_ENTRIES entries read), the checkout's
    rule files and the Claude home's; overflow is True when the folder holds more."""
    listing, overflow = {}, False
    if memory_folder:
        notes, read = [], 0
        try:
            with os.scandir(memory_folder) as entries:
                for entry in entries:
                    read += 1
                    if entry.name.endswith(".md") and entry.name != MEMORY_INDEX:
                        notes.append(entry.path)
                    if len(notes) > WATCHED_NOTES or read > LISTED_ENTRIES:
                        overflow = True
                        break
        except (OSError, ValueError):
            pass
        for path in notes[:WATCHED_NOTES]:
            state = _regular(path)
            if state is not None:
                listing[path] = state
    for file, folder in rule_places(checkout, claude_home):
        for path in [file] if file else rule_tree(folder)[1]:
            state = _regular(path)
            if state is not None:
                listing[path] = state
    return listing, overflow


# -- The stamp ----------------------------------------------------------------------------------

def stamp_folder(state_folder):
    return os.path.join(state_folder, STAMP_FOLDER)


def encode_stamp(stamp):
    files = {path: [mtime_ns, size] for path, (mtime_ns, size) in sorted(stamp.files.items())}
    body = {"version": STAMP_VERSION, "listedAtMs": stamp.listed_at_ms, "files": files}
    if stamp.overflow_told:
        body["overflowTold"] = True
    # ASCII: a file name that is not UTF-8 is listed with surrogates, which do not encode as UTF-8
    return dumps(body).encode("ascii")


def decode_stamp(raw):
    """A Stamp from its bytes, or None when they are not one (a torn or foreign file)."""
    data = versioned_object(raw, STAMP_VERSION)
    if data is None:
        return None
    listed_at, files = data.get("listedAtMs"), data.get("files")
    if not isinstance(listed_at, int) or not isinstance(files, dict):
        return None
    decoded = {}
    for path, state in files.items():
        if (isinstance(state, list) and len(state) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in state)):
            decoded[path] = (state[0], state[1])
    return Stamp(listed_at, decoded, data.get("overflowTold") is True)


MAX_STAMP_BYTES = 4 * 1024 * 1024  # a listing of a few hundred files; larger is not a stamp


def read_stamp(path):
    """The session's stamp, or None; a stamp that is not one (torn, foreign, a FIFO or symlink in
    its place) is set aside, so the next write starts clean and nothing blocks. Under a state
    folder that is a link nothing is read or set aside (and write_stamp refuses to write)."""
    return read_state(path, MAX_STAMP_BYTES, decode_stamp, STAMP_LEVELS)


def write_stamp(path, stamp):
    write_atomically(path, encode_stamp(stamp), levels=STAMP_LEVELS)


def expired_stamps(entries, now_ms, live_ids):
    """Paths of stamps to delete, from (path, session_id, mtime_ms): untouched for 30 days and
    not a live session's (a quiet session never rewrites its stamp)."""
    return [path for path, session_id, mtime_ms in entries
            if now_ms - mtime_ms > STAMP_MAX_AGE_MS and session_id not in live_ids]


# -- What changed (pure) ------------------------------------------------------------------------

def changes(listing, previous, since_ms, gone):
    """Files to consider and files removed, given this listing and the previous stamp.

    First run (no stamp): files modified after the session started. Later: files whose mtime or
    size differ from the stamp's, files that appeared since the stamp's listing, and stamp paths
    that no longer exist (`gone`: a predicate, so a file merely no longer watched, after the
    session moved to another checkout, is not called removed).
    """
    changed, removed = [], []
    for path, (mtime_ns, size) in listing.items():
        mtime_ms = mtime_ns // 1000000
        if previous is None:
            if since_ms is not None and mtime_ms > since_ms:
                changed.append(Change(path, mtime_ns, since_ms))
            continue
        before = previous.files.get(path)
        if before is not None:
            if before != (mtime_ns, size):
                changed.append(Change(path, mtime_ns, before[0] // 1000000))
        elif mtime_ms > previous.listed_at_ms - CLOCK_SLACK_MS:
            changed.append(Change(path, mtime_ns, previous.listed_at_ms - CLOCK_SLACK_MS))
    if previous is not None:
        for path in sorted(previous.files):
            if path not in listing and gone(path):
                removed.append(Removal(path, previous.listed_at_ms - CLOCK_SLACK_MS))
    changed.sort(key=lambda change: (-change.mtime_ns, change.path))
    return changed, removed


# -- One run's view -----------------------------------------------------------------------------

Look = record("Look", "stamp_path previous listed_at_ms listing overflow",
              doc="""One run's view: the stamp, and the listing with the time taken just before it
              (overflow: the memory folder holds more notes than are watched).""")


def look(home, state_folder, session_id, memory_folder, checkout, now_ms):
    """The stamp and the listing: all the silent path needs (stats and one small read)."""
    stamp_path = os.path.join(stamp_folder(state_folder), session_id + ".json")
    previous = read_stamp(stamp_path)
    listing, overflow = list_watched(memory_folder, checkout, home)
    return Look(stamp_path, previous, now_ms, listing, overflow)


def unchanged(seen):
    return (seen.previous is not None and seen.previous.files == seen.listing
            and (seen.previous.overflow_told or not seen.overflow))


def stamp_of(seen):
    """The stamp to record after this run's notice was delivered."""
    return Stamp(seen.listed_at_ms, seen.listing, seen.overflow)  # an overflow is told in that notice
