"""What each session typed, from `history.jsonl`, in bounded slices read newest first.

The file only grows (the benchmark's large home holds 400,000 lines, 68 MB). An index in peerhooks'
own folder remembers which byte ranges of it were read and a summary per session (prompt count,
first and last prompt times, where its opening and two latest substantive prompts are). Each run
reads the uncovered ranges newest first (lines appended since the last run, then older ones back to
the 14-day window) until its budget is spent, folds them in and saves the index, so a run that stops
early costs no progress and the next one continues. Before issue 21 a first start read the whole
window in one go and redacted every line: 10.4 s on a heavy home, killed by the client before it
could save anything, so every later start began again and was killed again.

Prompts are kept as byte offsets, not text: peerhooks' files hold no prompt, and only the few shown
are read back (and redacted by their reader, activity). The index is a cache: concurrent writers
may race, the last atomic replace wins, and the loser's lines are read again next time.
"""
import mmap

from .home import state_dir
from ..startup import oscalls
from .budget import Budget
from .formats import DAY_MS, HISTORY_FILE
from .intent import is_direction_change, is_substantive
from ..startup.jsonfast import loads
from .jsonl import line_at, lines_backward, whole_lines_end
from ..startup.records import record
from ..state.safefiles import open_regular
from ..state.statefiles import read_json_object, write_json

WINDOW_DAYS = 14  # how far back peers' prompts matter
INDEX_NAME = "history-index.json"
INDEX_VERSION = 4  # 3: covered ranges read newest first, prompts kept as offsets; 4: a change of direction kept
RECENT_PROMPTS = 2  # `before:` and `now:`
# Typed into the prompt box and written to history, but they end or reset the session rather
# than ask for anything: counted, they made a two-prompt session read as four (issue 14).
SESSION_CONTROL_COMMANDS = frozenset(["/exit", "/quit", "/clear", "/reset", "/new"])
SIGNATURE_BYTES = 64  # bytes before the read offset, to notice a file rewritten in place
# One run's share: 16 MB is twice the 14-day window of the benchmark's large home (8 MB, ~47,000
# lines) and takes ~0.7 s here (6-7 us a line); the clock stops a much slower machine at 1.5 s.
SLICE_BYTES = 16 * 1024 * 1024
SLICE_SECONDS = 1.5
CLOCK_EVERY_LINES = 512  # the clock is read once per this many lines
MAX_RANGES = 32  # more holes than this (appends outrunning every run) and the index starts over
PROMPT_READ_BYTES = 64 * 1024  # of a shown prompt's line; a longer line's display is read cut


class SessionPrompts:
    """One session's lines folded (mutable: a run grows it in place). Prompts are byte offsets of
    their lines, so lines folded in any order (newest slice first) give the same summary."""

    __slots__ = ("session_id", "project", "count", "first_ms", "last_ms", "opening_at", "recent_at",
                 "direction_at")

    def __init__(self, session_id, project=None, count=0, first_ms=None, last_ms=None, opening_at=None,
                 recent_at=(), direction_at=None):
        self.session_id = session_id
        self.project = project
        self.count = count
        self.first_ms = first_ms
        self.last_ms = last_ms
        self.opening_at = opening_at
        self.recent_at = list(recent_at)  # ascending, at most RECENT_PROMPTS
        # the latest short prompt that changed direction (intent.is_direction_change); shown only
        # when it came after the latest substantive one, which offsets tell in any order of folding
        self.direction_at = direction_at

    def to_json(self):
        return [self.project, self.count, self.first_ms, self.last_ms, self.opening_at, self.recent_at,
                self.direction_at]

    @classmethod
    def from_json(cls, session_id, row):
        project, count, first_ms, last_ms, opening_at, recent_at, direction_at = row
        if opening_at is not None:
            opening_at = int(opening_at)
        return cls(session_id, project, int(count), first_ms, last_ms, opening_at,
                   sorted(int(offset) for offset in recent_at)[-RECENT_PROMPTS:],
                   int(direction_at) if direction_at is not None else None)

    def direction_after(self):
        """The offset of a change of direction typed after the latest substantive prompt, or None."""
        if self.direction_at is None or not self.recent_at or self.direction_at < self.recent_at[-1]:
            return None
        return self.direction_at


Summary = record("Summary", [
    "session_id", "project", "count", "first_ms", "last_ms",
    "opening",  # the first substantive prompt (raw text) or None
    "recent",  # [raw text], the latest RECENT_PROMPTS substantive prompts, oldest first
    "direction",  # a later short prompt that changed direction (raw text), or None
], defaults=(None,), doc="""What one session typed, as history tells it: texts read back from the file, not redacted.""")

HistoryLine = record("HistoryLine", [
    "session_id",  # str
    "project",  # str or None
    "timestamp_ms",  # int
    "display",  # str
])


def parse_line(raw):
    """A HistoryLine from one raw line, or None (garbage, binary, old lines without sessionId)."""
    try:
        parsed = loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(parsed, dict):
        return None
    session_id, stamp, display = parsed.get("sessionId"), parsed.get("timestamp"), parsed.get("display")
    if not isinstance(session_id, str) or not session_id:
        return None
    if isinstance(stamp, bool) or not isinstance(stamp, (int, float)):
        return None
    project = parsed.get("project")
    return HistoryLine(session_id, project if isinstance(project, str) else None, int(stamp),
                       display if isinstance(display, str) else "")


def fold(summaries, line, offset):
    """Fold one history line (at byte `offset`) into the per-session summaries, in place."""
    summary = summaries.get(line.session_id)
    if summary is None:
        summary = summaries[line.session_id] = SessionPrompts(line.session_id)
    if line.project and (summary.last_ms is None or line.timestamp_ms >= summary.last_ms):
        summary.project = line.project
    if line.display.strip().lower() not in SESSION_CONTROL_COMMANDS:
        summary.count += 1
    if summary.first_ms is None or line.timestamp_ms < summary.first_ms:
        summary.first_ms = line.timestamp_ms
    if summary.last_ms is None or line.timestamp_ms > summary.last_ms:
        summary.last_ms = line.timestamp_ms
    if is_substantive(line.display):
        if summary.opening_at is None or offset < summary.opening_at:
            summary.opening_at = offset
        recent = summary.recent_at
        if len(recent) < RECENT_PROMPTS or offset > recent[0]:
            summary.recent_at = sorted(recent + [offset])[-RECENT_PROMPTS:]
    elif is_direction_change(line.display) and (summary.direction_at is None or offset > summary.direction_at):
        summary.direction_at = offset


def prune(summaries, now_ms, window_days=WINDOW_DAYS):
    cutoff = now_ms - window_days * DAY_MS
    return {k: v for k, v in summaries.items() if v.last_ms is not None and v.last_ms >= cutoff}


# -- Coverage: which byte ranges the index holds, which it still lacks (pure) ---------------------

def gaps(ranges, bottom, end):
    """The uncovered parts of [bottom, end) given the covered ranges (sorted, disjoint), newest first."""
    found, top = [], end
    for low, high in reversed(ranges):
        if high < top:
            found.append((max(high, bottom), top))
        top = min(top, low)
        if top <= bottom:
            break
    if top > bottom:
        found.append((bottom, top))
    return [(low, high) for low, high in found if high > low]


def covered(ranges, low, high):
    """The ranges with [low, high) added, merged where they touch."""
    if high <= low:
        return ranges
    merged = []
    for start, end in sorted(ranges + [[low, high]]):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def read_gaps(data, state, summaries, cutoff_ms, budget):
    """Fold the lines of the state's gaps, newest first, until the window's start or the budget;
    the state's ranges and bottom record what was read. Returns the state."""
    lines_read = 0
    for low, high in gaps(state.ranges, state.bottom, state.high):
        reached = high
        for start, end in lines_backward(data, low, high):
            if start < low:
                break
            line = parse_line(data[start:end].strip())
            if line is not None and line.timestamp_ms < cutoff_ms:
                state = state._replace(bottom=reached)  # lines are in time order: older ones do not matter
                break
            if line is not None:
                fold(summaries, line, start)
            reached = start
            budget.spend(end - start + 1)
            lines_read += 1
            if budget.left <= 0 or (lines_read % CLOCK_EVERY_LINES == 0 and budget.spent()):
                break
        state = state._replace(ranges=covered(state.ranges, reached, high))
        if state.bottom > low or budget.left <= 0 or budget.spent():
            break
    return state


# -- The index file -----------------------------------------------------------------------------

IndexState = record("IndexState", [
    "device", "inode",  # the file read
    "high",  # the end of the whole lines it had when last read: the newest byte the index knows
    "signature",  # hex of the bytes before `high`, to notice a file rewritten in place
    "ranges",  # [[low, high]] byte ranges read, sorted, disjoint, line-aligned
    "bottom",  # lines below this offset are older than the window (0 until one was met)
])


def _index_path(home):
    return oscalls.path.join(state_dir(home), INDEX_NAME)


def _load_index(home):
    """(IndexState, {session id: stored row}) or None."""
    data = read_json_object(_index_path(home))
    if data is None or data.get("version") != INDEX_VERSION:
        return None
    try:
        rows = data["sessions"]
        ranges = [[int(low), int(high)] for low, high in data["ranges"]]
        if not isinstance(rows, dict):
            return None
        state = IndexState(int(data["device"]), int(data["inode"]), int(data["high"]),
                           str(data["signature"]), ranges, int(data["bottom"]))
        return state, rows
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def _save_index(home, state, summaries):
    body = dict(state._asdict(), version=INDEX_VERSION,
                sessions={sid: s.to_json() for sid, s in summaries.items()})
    try:
        write_json(_index_path(home), body)
    except OSError:
        pass  # a cache we could not save is read again next time


def _signature(data, offset):
    return data[max(0, offset - SIGNATURE_BYTES):offset].hex()


def _reusable(found, stat, data, complete):
    if found is None:
        return False
    state = found[0]
    return (state.device == stat.st_dev and state.inode == stat.st_ino and state.high <= complete
            and _signature(data, state.high) == state.signature and len(state.ranges) <= MAX_RANGES)


def _decoded(rows):
    summaries = {}
    for session_id, row in rows.items():
        try:
            summaries[session_id] = SessionPrompts.from_json(session_id, row)
        except (ValueError, TypeError):
            continue
    return summaries


def load(home, now_ms, window_days=WINDOW_DAYS, budget=None):
    """The sessions' summaries within the window, after reading what this run's budget allows of
    what the index does not cover yet (newest first)."""
    path = oscalls.path.join(home, HISTORY_FILE)
    cutoff_ms = now_ms - window_days * DAY_MS
    try:
        handle = open_regular(path, follow_symlinks=False)  # never a FIFO, nor a link out of the home
    except (OSError, ValueError):
        return History(path, None, {}, cutoff_ms, 0)
    with handle:
        stat = oscalls.fstat(handle.fileno())  # the file mapped, so the index names the file it read
        if stat.st_size == 0:
            return History(path, None, {}, cutoff_ms, 0)
        data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    try:
        complete = whole_lines_end(data)  # a last line without newline may still be being written
        found = _load_index(home)
        if _reusable(found, stat, data, complete):
            state, rows = found
            state = state._replace(high=complete)
        else:
            state, rows = IndexState(stat.st_dev, stat.st_ino, complete, "", [], 0), {}
        if not gaps(state.ranges, state.bottom, complete):
            return History(path, stat.st_ino, rows, cutoff_ms, 0)
        summaries = _decoded(rows)
        budget = budget or Budget(SLICE_BYTES, SLICE_SECONDS)
        state = read_gaps(data, state, summaries, cutoff_ms, budget)
        summaries = prune(summaries, now_ms, window_days)
        state = state._replace(signature=_signature(data, complete), ranges=[
            [max(low, state.bottom), high] for low, high in state.ranges if high > state.bottom])
        _save_index(home, state, summaries)
        unread = sum(high - low for low, high in gaps(state.ranges, state.bottom, complete))
        return History(path, stat.st_ino, summaries, cutoff_ms, unread)
    finally:
        data.close()


# -- Reading back the prompts shown -------------------------------------------------------------

class History:
    """{session id: Summary} within the window, built only for the sessions asked about (a start
    asks about its peers and a finished session or two; a large home's index holds hundreds).
    unread_bytes: how much of history.jsonl within the window no run has read yet (an upper bound:
    the oldest gap may reach past the window)."""

    __slots__ = ("path", "inode", "_rows", "_cutoff_ms", "_built", "unread_bytes")

    def __init__(self, path, inode, rows, cutoff_ms, unread_bytes):
        self.path, self.inode, self._rows, self._cutoff_ms = path, inode, rows, cutoff_ms
        self.unread_bytes = unread_bytes
        self._built = {}

    def _prompts(self, session_id):
        """The SessionPrompts of a session within the window, or None."""
        row = self._rows.get(session_id)
        if isinstance(row, SessionPrompts):
            prompts = row
        else:
            try:
                prompts = SessionPrompts.from_json(session_id, row) if row is not None else None
            except (ValueError, TypeError):
                prompts = None
        if prompts is None or prompts.last_ms is None or prompts.last_ms < self._cutoff_ms:
            return None
        return prompts

    def get(self, session_id, default=None):
        if session_id not in self._built:
            self.prefetch([session_id])
        built = self._built[session_id]
        return default if built is None else built

    def prefetch(self, session_ids):
        """Build these sessions' summaries, reading their prompts with one opening of the file (a
        start asks about all its peers at once)."""
        pending = {sid: self._prompts(sid) for sid in session_ids if sid not in self._built}
        offsets = [offset for prompts in pending.values() if prompts is not None
                   for offset in ([prompts.opening_at] if prompts.opening_at is not None else []) + prompts.recent_at
                   + ([prompts.direction_after()] if prompts.direction_after() is not None else [])]
        texts = self._texts_at(offsets)
        for session_id, prompts in pending.items():
            self._built[session_id] = None if prompts is None else self._summary(prompts, texts)

    def __getitem__(self, session_id):
        summary = self.get(session_id)
        if summary is None:
            raise KeyError(session_id)
        return summary

    def __iter__(self):
        return iter([sid for sid in self._rows if self._prompts(sid) is not None])

    @staticmethod
    def _summary(prompts, texts):
        direction = prompts.direction_after()
        return Summary(prompts.session_id, prompts.project, prompts.count, prompts.first_ms,
                       prompts.last_ms, texts.get(prompts.opening_at),
                       [texts[offset] for offset in prompts.recent_at if texts.get(offset)],
                       texts.get(direction) if direction is not None else None)

    def _texts_at(self, offsets):
        """{offset: display text} of the lines at these offsets, read from the file the index read."""
        texts = {}
        if not offsets:
            return texts
        try:
            with open_regular(self.path, follow_symlinks=False) as handle:
                if oscalls.fstat(handle.fileno()).st_ino != self.inode:
                    return texts  # replaced since: its offsets mean nothing
                for offset in set(offsets):
                    texts[offset] = display_of(line_at(handle, offset, PROMPT_READ_BYTES))
        except (OSError, ValueError):
            return {}
        return texts


def display_of(raw):
    """The `display` text of a history line (or of its first bytes, when it was longer than was read):
    the whole line parsed when it fits, else the beginning of its display string (a pasted megabyte
    is not read to show 300 characters)."""
    line = parse_line(raw.strip())
    if line is not None:
        return line.display
    key = raw.find(b'"display"')
    if key < 0:
        return None
    colon = raw.find(b":", key + 9)
    opening = raw.find(b'"', colon + 1) if colon >= 0 else -1
    if opening < 0:
        return None
    body = raw[opening + 1:]
    closing = _string_end(body)
    return _decoded_prefix(body[:closing] if closing >= 0 else body)


def _string_end(body):
    """The index of the quote that closes a JSON string's body, or -1 when the body is cut."""
    at = 0
    while True:
        quote = body.find(b'"', at)
        if quote < 0:
            return -1
        escape = quote
        while escape > 0 and body[escape - 1] == 0x5C:  # backslashes before it: odd escapes it
            escape -= 1
        if (quote - escape) % 2 == 0:
            return quote
        at = quote + 1


def _decoded_prefix(body):
    """A JSON string body decoded; one cut inside an escape or a character loses that tail only."""
    for cut in range(0, 8):
        piece = body[:len(body) - cut] if cut else body
        try:
            value = loads(b'"' + piece + b'"')
        except (ValueError, UnicodeDecodeError):
            continue
        return value if isinstance(value, str) else None
    return None
