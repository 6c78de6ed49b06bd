"""What the edit notice has already said in a session: once per (file, party, the party's latest
change), so ten edits of one file bring one notice and a new change by the peer a new one.

One small file per session under peerhooks' own folder, `edit-notice/<session id>.json`:

    {"version": 1, "keys": {"<key>": [<ms recorded>, "told" | "settled"]}}

"told": the notice was given. "settled": this session saw the file with that change no longer in
the working tree or the index (committed, stashed or reverted); the file may hold other work later
(this session's own), but not that change again, so it is never told. Read and written under a
lock beside it (`<session id>.lock`), replaced atomically, never through a link; at most MAX_KEYS
keys, the oldest dropped; files of sessions untouched for 30 days are swept on a session's first
record.
"""
from ..claude.formats import DAY_MS
from ..startup import oscalls
from ..state.safefiles import private_folder
from ..state.statefiles import FileLock, read_state, remove_older_than, versioned_object, write_json

FOLDER = "edit-notice"  # under peerhooks' state folder
VERSION = 1
TOLD, SETTLED = "told", "settled"
MAX_KEYS = 512  # a session told about this many distinct changes has long forgotten the first
MAX_BYTES = 1024 * 1024  # 512 keys of a path each; larger is not ours
LEVELS = 2  # peerhooks/ and edit-notice/: peerhooks' own folders, never a link
MAX_AGE_MS = 30 * DAY_MS  # a file untouched this long belongs to a finished session
LOCK_TIMEOUT_S = 1.0  # only a session's own concurrent tool calls (subagents) ever wait here
LOCK_SUFFIX = ".lock"


def key(path, party_label, change_ms):
    """The key of one (file, party, change)."""
    return "%s\t%s\t%s" % (party_label, change_ms if change_ms is not None else "", path)


def decode(raw):
    """{key: [ms, kind]} from a record's bytes, or None when they are not one."""
    value = versioned_object(raw, VERSION)
    if value is None or not isinstance(value.get("keys"), dict):
        return None
    return {k: v for k, v in value["keys"].items()
            if isinstance(k, str) and isinstance(v, list) and len(v) == 2 and isinstance(v[0], int)
            and v[1] in (TOLD, SETTLED)}


def read(path):
    """{key: [ms, kind]} of a session's record ({} when there is none, or it was not one)."""
    return read_state(path, MAX_BYTES, decode, LEVELS) or {}


def updated(known, told, settled, now_ms):
    """The keys after recording these; None when nothing changes. Bounded: the oldest go first."""
    fresh = [k for k in told if known.get(k, [0, None])[1] != TOLD]
    fresh += [k for k in settled if k not in known]
    if not fresh:
        return None
    keys = dict(known)
    for k in told:
        keys[k] = [now_ms, TOLD]
    for k in settled:
        keys.setdefault(k, [now_ms, SETTLED])
    if len(keys) > MAX_KEYS:
        keys = dict(sorted(keys.items(), key=lambda item: item[1][0])[-MAX_KEYS:])
    return keys


def path_of(state_folder, session_id):
    return oscalls.path.join(state_folder, FOLDER, session_id + ".json")


def known(state_folder, session_id):
    """{key: [ms, kind]} as last recorded, read without the lock: keys are only ever added, so a
    key found here is known for good (most edits of a shared file end here, before any git)."""
    return read(path_of(state_folder, session_id))


class Record:
    """One session's record, held under its lock for one tool call: `with Record(...) as r:`,
    then r.keys ({key: [ms, kind]}) and r.save(told, settled, now_ms)."""

    def __init__(self, state_folder, session_id):
        self.folder = oscalls.path.join(state_folder, FOLDER)
        self.path = path_of(state_folder, session_id)
        self.lock = FileLock(oscalls.path.join(self.folder, session_id + LOCK_SUFFIX), LOCK_TIMEOUT_S)
        self.keys = {}
        self.existed = False

    def __enter__(self):
        private_folder(self.folder, LEVELS)  # a link there is never written through
        self.lock.acquire()
        try:
            self.existed = oscalls.path.lexists(self.path)
            self.keys = read(self.path)
        except BaseException:
            self.lock.release()
            raise
        return self

    def __exit__(self, *exc):
        self.lock.release()
        return False

    def save(self, told, settled, now_ms):
        """Record keys told and settled (written only when something is new)."""
        keys = updated(self.keys, told, settled, now_ms)
        if keys is None:
            return
        if not self.existed:
            sweep(self.folder, now_ms)
        write_json(self.path, {"version": VERSION, "keys": keys}, levels=LEVELS)
        self.keys, self.existed = keys, True


def sweep(folder, now_ms):
    """Delete records and locks untouched for MAX_AGE_MS (a live session rewrites its record
    whenever it is told something; one told nothing for a month has nothing to lose)."""
    remove_older_than(folder, (".json", LOCK_SUFFIX), MAX_AGE_MS, now_ms)
