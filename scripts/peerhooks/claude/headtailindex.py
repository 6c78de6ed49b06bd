"""What each transcript's head and tail said, kept between runs so an unchanged transcript is not read again.

Choosing the last finished session in a checkout reads the head (start, folder, entrypoint, opening
prompt) and the tail (end, latest prompt) of each candidate transcript. With 30 ended sessions whose
files were touched after their last record (copied, synced) every one was read at every start: 6x the
interpreter's start-up on the benchmark's large home (issue 21). A transcript only grows: its head
never changes, and the same inode, size and mtime mean the same tail, so a remembered transcript costs
one stat. Prompts are kept as the byte offsets of their records (transcripts.prompt_at reads them
back), so this file holds no prompt text. A lost or stale index only costs reading the files again.
"""
from .home import state_dir
from ..startup import oscalls
from . import transcripts
from .formats import DAY_MS
from ..state.statefiles import read_json_object, write_json

INDEX_NAME = "transcript-index.json"
INDEX_VERSION = 2  # 2: a tail also says how the session ended
MAX_ENTRIES = 256  # transcripts remembered; the least recently used go first
KEEP_DAYS = 7  # a transcript nobody asked about for a week is dropped (ended sessions older are not shown)


def _path(home):
    return oscalls.path.join(state_dir(home), INDEX_NAME)


def _version(info):
    return [info.st_ino, info.st_size, info.st_mtime_ns]


def _encode(version, head, tail, used_ms):
    return [version, used_ms, [head.started_at_ms, head.cwd, head.entrypoint, head.opening_at],
            [tail.ended_at_ms, tail.latest_at, tail.exited, tail.exited_ms]]


def _decode(row):
    """(version, Head, Tail, used_ms) from a stored row, or None. Texts are not stored: Head.opening
    and Tail.latest are None, their offsets tell where to read them."""
    try:
        version, used_ms, (started, cwd, entrypoint, opening_at), (ended, latest_at, exited, exited_ms) = row
        head = transcripts.Head(started, cwd, None, entrypoint, opening_at)
        tail = transcripts.Tail(ended, None, latest_at, exited, exited_ms)
        return [int(v) for v in version], head, tail, int(used_ms)
    except (TypeError, ValueError):
        return None


class HeadTails:
    """The index for one run: `facts(path)` answers from memory for an unchanged transcript and reads
    the others (one unit of the caller's budget each); `save()` writes what changed, once."""

    def __init__(self, home, now_ms):
        self.home, self.now_ms = home, now_ms
        data = read_json_object(_path(home)) or {}
        rows = data.get("transcripts") if data.get("version") == INDEX_VERSION else None
        self.rows = rows if isinstance(rows, dict) else {}
        self.updated = {}

    def facts(self, path, budget=None):
        """(Head, Tail) of a transcript, or None when it cannot be read or the budget is spent."""
        try:
            version = _version(oscalls.stat(path))
        except (OSError, ValueError):
            return None
        row = self.updated.get(path) or self.rows.get(path)
        known = _decode(row) if row is not None else None
        if known is not None and known[0] == version:
            if self.now_ms - known[3] > DAY_MS:
                self.updated[path] = _encode(version, known[1], known[2], self.now_ms)
            return known[1], known[2]
        if budget is not None and budget.spent():
            return None
        if budget is not None:
            budget.spend(1)
        same_file = known is not None and known[0][0] == version[0]
        head = known[1] if same_file else transcripts.read_head(path)  # a head never changes
        tail = transcripts.read_tail(path)
        self.updated[path] = _encode(version, head, tail, self.now_ms)
        return head, tail

    def save(self):
        if not self.updated:
            return
        rows = dict(self.rows)
        rows.update(self.updated)
        fresh = []
        for path, row in rows.items():
            decoded = _decode(row)
            if decoded is not None and self.now_ms - decoded[3] <= KEEP_DAYS * DAY_MS:
                fresh.append((decoded[3], path, row))
        fresh.sort(key=lambda item: item[0], reverse=True)
        body = {"version": INDEX_VERSION, "transcripts": {path: row for _, path, row in fresh[:MAX_ENTRIES]}}
        try:
            write_json(_path(self.home), body)
        except OSError:
            pass  # a cache we could not save is read again next time
        self.rows, self.updated = body["transcripts"], {}


def opening_of(path, head):
    """The opening prompt's text: as read, or read back from where the index remembers it."""
    if head.opening is not None or head.opening_at is None:
        return head.opening
    return transcripts.prompt_at(path, head.opening_at)


def latest_of(path, tail):
    """The latest prompt's text: as read, or read back from where the index remembers it."""
    if tail.latest is not None or tail.latest_at is None:
        return tail.latest
    return transcripts.prompt_at(path, tail.latest_at)
