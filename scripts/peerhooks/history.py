"""What each session typed, from `history.jsonl`, without ever reading the file forward from its start.

The file only grows (a heavy user adds tens of thousands of lines a week), and the existing tool spent
2.4-3 s reading all of it on every start. Here a small index in peerhooks' own state folder
remembers how far the file was read and a summary per session (prompt count, first and last prompt
times, opening and latest substantive prompts); each run reads only the bytes appended since. When
the file shrank, was replaced, or no index exists, the index is rebuilt by reading backwards from
the end until the window. The index is a cache: concurrent writers may race, the last atomic
replace wins, and the loser's lines are simply read again next time.
"""
import mmap
import os

from . import home as homes
from .safefiles import open_regular
from .statefiles import read_json_object, write_json
from .claude_formats import DAY_MS, HISTORY_FILE
from .intent import is_direction_change, is_substantive, one_line
from .jsonfast import loads
from .jsonl import lines_backward, whole_lines_end
from .records import record
from .redact import redact

WINDOW_DAYS = 14  # how far back peers' prompts matter
INDEX_NAME = "history-index.json"
INDEX_VERSION = 3  # 2: /exit and /clear not counted, kept prompts redacted; 3: a later direction change kept
KEPT_PROMPT_CHARS = 300  # enough for one displayed line (160) with room for a different cut later
RECENT_PROMPTS = 2  # `before:` and `now:`
# Typed into the prompt box and written to history, but they end or reset the session rather
# than ask for anything: counted, they made a two-prompt session read as four (issue 14).
SESSION_CONTROL_COMMANDS = frozenset(["/exit", "/quit", "/clear", "/reset", "/new"])
SIGNATURE_BYTES = 64  # bytes before the read offset, to notice a file rewritten in place
INCREMENTAL_LIMIT = 16 * 1024 * 1024  # more new bytes than this: rebuild backwards within the window


class SessionPrompts:
    """What one session typed, folded line by line (mutable: the index grows it in place)."""

    __slots__ = ("session_id", "project", "count", "first_ms", "last_ms", "opening", "recent", "direction")

    def __init__(self, session_id, project=None, count=0, first_ms=None, last_ms=None, opening=None,
                 recent=None, direction=None):
        self.session_id = session_id
        self.project = project
        self.count = count
        self.first_ms = first_ms
        self.last_ms = last_ms
        self.opening = opening
        self.recent = list(recent or [])
        # a short prompt typed after the latest substantive one that changed direction
        # (intent.is_direction_change), or None
        self.direction = direction

    def to_json(self):
        return [self.project, self.count, self.first_ms, self.last_ms, self.opening, self.recent, self.direction]

    @classmethod
    def from_json(cls, session_id, row):
        project, count, first_ms, last_ms, opening, recent, direction = row
        if direction is not None and not isinstance(direction, str):
            raise ValueError("not a prompt: %r" % (direction,))
        return cls(session_id, project, int(count), first_ms, last_ms, opening, list(recent), direction)


HistoryLine = record("HistoryLine", [
    "session_id",  # str
    "project",  # str or None
    "timestamp_ms",  # int
    "display",  # str
])


def parse_line(raw):
    """A HistoryLine from one raw line, or None (garbage, binary, old lines without sessionId)."""
    try:
        record = loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(record, dict):
        return None
    session_id, stamp, display = record.get("sessionId"), record.get("timestamp"), record.get("display")
    if not isinstance(session_id, str) or not session_id:
        return None
    if isinstance(stamp, bool) or not isinstance(stamp, (int, float)):
        return None
    project = record.get("project")
    return HistoryLine(session_id, project if isinstance(project, str) else None, int(stamp),
                       display if isinstance(display, str) else "")


def apply_lines(summaries, lines):
    """Fold history lines (oldest first) into per-session summaries, in place."""
    for line in lines:
        summary = summaries.get(line.session_id)
        if summary is None:
            summary = summaries[line.session_id] = SessionPrompts(line.session_id)
        if line.project:
            summary.project = line.project
        if line.display.strip().lower() not in SESSION_CONTROL_COMMANDS:
            summary.count += 1
        if summary.first_ms is None or line.timestamp_ms < summary.first_ms:
            summary.first_ms = line.timestamp_ms
        if summary.last_ms is None or line.timestamp_ms > summary.last_ms:
            summary.last_ms = line.timestamp_ms
        if is_substantive(line.display):
            # redacted before it is cut or kept: a secret cut short would no longer match
            text = one_line(redact(line.display), KEPT_PROMPT_CHARS)
            if summary.opening is None:
                summary.opening = text
            summary.recent = (summary.recent + [text])[-RECENT_PROMPTS:]
            summary.direction = None
        elif summary.recent and is_direction_change(line.display):
            summary.direction = one_line(redact(line.display), KEPT_PROMPT_CHARS)


def prune(summaries, now_ms, window_days=WINDOW_DAYS):
    cutoff = now_ms - window_days * DAY_MS
    return {k: v for k, v in summaries.items() if v.last_ms is not None and v.last_ms >= cutoff}


def _lines_forward(data, start, end):
    position = start
    while position < end:
        newline = data.find(b"\n", position, end)
        if newline < 0:
            return
        if newline > position:
            yield data[position:newline]
        position = newline + 1


def read_backward_within(data, end, cutoff_ms):
    """History lines ending at `end`, read backwards until one is older than cutoff_ms; returned
    oldest first."""
    collected = []
    for start, stop in lines_backward(data, 0, end):
        raw = data[start:stop].strip()
        if not raw:
            continue
        line = parse_line(raw)
        if line is None:
            continue
        if line.timestamp_ms < cutoff_ms:
            break
        collected.append(line)
    collected.reverse()
    return collected


_Index = record("_Index", [
    "device", "inode", "offset",  # ints: the file the index read, and how far
    "signature",  # hex of the bytes before offset
    "rows",  # {session id: the stored row of its SessionPrompts}, decoded only when asked for
])


class IndexedSummaries:
    """{session id: SessionPrompts} within the window, built from the index's rows only for the
    sessions asked about: a start asks about its peers and one finished session, and a large home's
    index holds hundreds (building them all was most of what peers.py's cost grew by with the home).
    A row that is not one reads as no summary."""

    __slots__ = ("_rows", "_cutoff_ms", "_built")

    def __init__(self, rows, cutoff_ms):
        self._rows, self._cutoff_ms, self._built = rows, cutoff_ms, {}

    def get(self, session_id, default=None):
        if session_id not in self._built:
            row = self._rows.get(session_id)
            try:
                summary = SessionPrompts.from_json(session_id, row) if row is not None else None
            except (ValueError, TypeError):
                summary = None
            if summary is not None and (summary.last_ms is None or summary.last_ms < self._cutoff_ms):
                summary = None
            self._built[session_id] = summary
        built = self._built[session_id]
        return default if built is None else built

    def __getitem__(self, session_id):
        summary = self.get(session_id)
        if summary is None:
            raise KeyError(session_id)
        return summary

    def __iter__(self):
        return iter(self.materialized())

    def materialized(self):
        """Every summary in the window, as a dict."""
        found = {sid: self.get(sid) for sid in self._rows}
        return {sid: summary for sid, summary in found.items() if summary is not None}


def _index_path(home):
    return os.path.join(homes.state_dir(home), INDEX_NAME)


def _load_index(home):
    data = read_json_object(_index_path(home))
    if data is None or data.get("version") != INDEX_VERSION:
        return None
    try:
        rows = data["sessions"]
        if not isinstance(rows, dict):
            return None
        return _Index(int(data["device"]), int(data["inode"]), int(data["offset"]),
                      str(data["signature"]), rows)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def _save_index(home, device, inode, offset, signature, summaries):
    body = {
        "version": INDEX_VERSION, "device": device, "inode": inode, "offset": offset,
        "signature": signature, "sessions": {sid: s.to_json() for sid, s in summaries.items()},
    }
    try:
        write_json(_index_path(home), body)
    except OSError:
        pass  # a cache we could not save is read again next time


def _signature(data, offset):
    return data[max(0, offset - SIGNATURE_BYTES):offset].hex()


def load(home, now_ms, window_days=WINDOW_DAYS):
    """Per-session prompt summaries for the window, reading only what is new since the last run."""
    path = os.path.join(home, HISTORY_FILE)
    try:
        handle = open_regular(path, follow_symlinks=False)  # never a FIFO, nor a link out of the home
    except (OSError, ValueError):
        return {}
    with handle:
        stat = os.fstat(handle.fileno())  # the file mapped, so the index names the file it read
        if stat.st_size == 0:
            return {}
        data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    try:
        complete = whole_lines_end(data)  # a last line without newline may still be being written
        index = _load_index(home)
        reusable = (
            index is not None and index.device == stat.st_dev and index.inode == stat.st_ino
            and index.offset <= complete and complete - index.offset <= INCREMENTAL_LIMIT
            and _signature(data, index.offset) == index.signature
        )
        if reusable and index.offset == complete:
            return IndexedSummaries(index.rows, now_ms - window_days * DAY_MS)
        if reusable:
            summaries = IndexedSummaries(index.rows, 0).materialized()
            new_lines = (parse_line(raw) for raw in _lines_forward(data, index.offset, complete))
            apply_lines(summaries, [line for line in new_lines if line is not None])
        else:
            summaries = {}
            apply_lines(summaries, read_backward_within(data, complete, now_ms - window_days * DAY_MS))
        summaries = prune(summaries, now_ms, window_days)
        _save_index(home, stat.st_dev, stat.st_ino, complete, _signature(data, complete), summaries)
        return summaries
    finally:
        data.close()
