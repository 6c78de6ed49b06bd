"""The arithmetic of `peers.py --stats`: sessions' lifetimes and events in, the report's figures out.

Pure: no files, no clock. The window's end (`now_ms`) and its time zone are parameters, and a
session is anything with the fields of stats_scan.SessionScan, so every figure (daily peaks of
sessions alive at once, overall and within one checkout; lifetimes; the per-day table; sessions that
listed, messaged, received, handed off) is tested on plain numbers.
"""
import bisect
import math
import statistics
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Tuple

BROADCAST_RECIPIENTS = ("*",)  # a team broadcast goes to the session's own teammates


# ---------------------------------------------------------------------------------------------
# The report


@dataclass(frozen=True)
class Window:
    """The last N calendar days ending at `end_ms`; day i runs from day_starts[i] to the next start
    (the last day to end_ms)."""

    labels: Tuple[str, ...]
    day_starts: Tuple[int, ...]
    end_ms: int

    @property
    def start_ms(self):
        return self.day_starts[0]

    def day_bounds(self):
        ends = self.day_starts[1:] + (self.end_ms,)
        return list(zip(self.labels, self.day_starts, ends))


@dataclass(frozen=True)
class DayRow:
    day: str
    peak: int
    checkout_peak: int
    messages: int
    refusals: int


@dataclass(frozen=True)
class Report:
    days: int
    sessions: int
    checkouts: int
    active_days: int
    peak_median: float
    peak_max: int
    checkout_peak_median: float
    checkout_peak_max: int
    lifetime_median_ms: float
    lifetime_p90_ms: int
    lifetime_max_ms: int
    listing_sessions: int
    listing_calls: int
    messaging_sessions: int
    peer_messages: int
    subagent_messaging_sessions: int
    subagent_messages: int
    receiving_sessions: int
    received_messages: int
    refusals: int
    handoff_sessions: int
    per_day: Tuple[DayRow, ...]
    malformed: int
    bytes_read: int


# ---------------------------------------------------------------------------------------------
# Arithmetic


def peak_concurrency(intervals):
    """Most intervals alive at one instant; intervals are closed, so touching ones overlap."""
    events = []
    for start, end in intervals:
        events.append((start, 0))  # 0 sorts before 1: at a tie, starts count before ends
        events.append((end, 1))
    events.sort()
    alive = peak = 0
    for _, kind in events:
        if kind == 0:
            alive += 1
            peak = max(peak, alive)
        else:
            alive -= 1
    return peak


def clip(intervals, lo, hi):
    """The parts of closed intervals that fall within [lo, hi)."""
    clipped = []
    for start, end in intervals:
        if end < lo or start >= hi:
            continue
        clipped.append((max(start, lo), min(end, hi - 1)))
    return clipped


def daily_peaks(intervals, bounds):
    """The peak concurrency within each (lo, hi) day."""
    return [peak_concurrency(clip(intervals, lo, hi)) for lo, hi in bounds]


def median(values):
    return statistics.median(values) if values else 0


def percentile(values, fraction):
    """Nearest-rank percentile: a value that occurred, never an interpolation."""
    if not values:
        return 0
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def is_own_subagent(recipient, own_agents):
    """A SendMessage goes to the session's own subagent when it names one the session spawned."""
    if not isinstance(recipient, str):
        return False
    return recipient in own_agents or recipient in BROADCAST_RECIPIENTS


def window(now_ms, days, tz=None):
    """The last `days` calendar days ending at now, with day starts at midnight in tz (local time,
    daylight saving included, when tz is None)."""
    if days < 1:
        raise ValueError("days must be at least 1")
    today = datetime.fromtimestamp(now_ms / 1000.0, tz).date()
    labels, starts = [], []
    for back in range(days - 1, -1, -1):
        day = today - timedelta(days=back)
        midnight = datetime(day.year, day.month, day.day, tzinfo=tz)
        labels.append(day.isoformat())
        starts.append(int(midnight.timestamp() * 1000))
    return Window(tuple(labels), tuple(starts), now_ms)


def _in(at_ms, lo, hi):
    return lo <= at_ms < hi


def summarize(sessions, checkout_of, win, malformed=0, bytes_read=0):
    """The report for sessions alive within the window. checkout_of maps a session id to the key
    of its checkout (sessions with the same key are counted together)."""
    lo, hi = win.start_ms, win.end_ms + 1  # now itself is inside the window
    alive = [s for s in sessions if s.last_ms >= lo and s.first_ms < hi]
    bounds = [(d_lo, d_hi) for _, d_lo, d_hi in win.day_bounds()]
    bounds[-1] = (bounds[-1][0], hi)
    peaks = daily_peaks([(s.first_ms, s.last_ms) for s in alive], bounds)
    checkout_peaks, checkouts = _checkout_peaks(alive, checkout_of, bounds)
    tally = _tally(alive, lo, hi, bounds)
    active = [i for i, peak in enumerate(peaks) if peak > 0]
    lifetimes = [s.last_ms - s.first_ms for s in alive]
    return Report(
        days=len(win.labels),
        sessions=len(alive),
        checkouts=checkouts,
        active_days=len(active),
        peak_median=median([peaks[i] for i in active]),
        peak_max=max(peaks) if peaks else 0,
        checkout_peak_median=median([checkout_peaks[i] for i in active]),
        checkout_peak_max=max(checkout_peaks) if checkout_peaks else 0,
        lifetime_median_ms=median(lifetimes),
        lifetime_p90_ms=percentile(lifetimes, 0.9),
        lifetime_max_ms=max(lifetimes) if lifetimes else 0,
        per_day=tuple(DayRow(win.labels[i], peaks[i], checkout_peaks[i], tally.day_messages[i], tally.day_refusals[i])
                      for i in active),
        malformed=malformed,
        bytes_read=bytes_read,
        **tally.counts(),
    )


def _checkout_peaks(alive, checkout_of, bounds):
    """([the most sessions alive at once within one checkout, per day], how many checkouts)."""
    by_checkout = {}
    for s in alive:
        by_checkout.setdefault(checkout_of.get(s.session_id, s.project), []).append((s.first_ms, s.last_ms))
    peaks = [0] * len(bounds)
    for group in by_checkout.values():
        for i, peak in enumerate(daily_peaks(group, bounds)):
            peaks[i] = max(peaks[i], peak)
    return peaks, len(by_checkout)


class _Tally:
    """The events of the sessions alive in the window that happened inside it: sessions that did
    each thing and how often, and messages and refusals per day."""

    COUNTS = ("listing_sessions", "listing_calls", "messaging_sessions", "peer_messages",
              "subagent_messaging_sessions", "subagent_messages", "receiving_sessions", "received_messages",
              "refusals", "handoff_sessions")

    def __init__(self, days):
        for name in self.COUNTS:
            setattr(self, name, 0)
        self.day_messages, self.day_refusals = [0] * days, [0] * days

    def counts(self):
        return {name: getattr(self, name) for name in self.COUNTS}


def _tally(alive, lo, hi, bounds):
    starts = [d_lo for d_lo, _ in bounds]

    def day_index(at_ms):
        i = bisect.bisect_right(starts, at_ms) - 1
        return i if i >= 0 and at_ms < bounds[i][1] else None

    tally = _Tally(len(bounds))
    for s in alive:
        _tally_listings_and_handoffs(tally, s, lo, hi)
        _tally_sends(tally, s, day_index)
        for at_ms in s.refusals:
            index = day_index(at_ms)
            if index is not None:
                tally.refusals += 1
                tally.day_refusals[index] += 1
    return tally


def _tally_listings_and_handoffs(tally, s, lo, hi):
    listed = sum(1 for t in s.listings if _in(t, lo, hi))
    tally.listing_sessions += listed > 0
    tally.listing_calls += listed
    arrived = sum(1 for t in s.received if _in(t, lo, hi))
    tally.receiving_sessions += arrived > 0
    tally.received_messages += arrived
    tally.handoff_sessions += any(_in(t, lo, hi) for t in s.handoffs)


def _tally_sends(tally, s, day_index):
    """A session's messages sent inside the window: to its own subagents apart from its peers."""
    sent_peer = sent_sub = False
    for send in s.sends:
        index = day_index(send.at_ms)
        if index is None:
            continue
        if is_own_subagent(send.recipient, s.own_agents):
            tally.subagent_messages += 1
            sent_sub = True
        else:
            tally.peer_messages += 1
            tally.day_messages[index] += 1
            sent_peer = True
    tally.messaging_sessions += sent_peer
    tally.subagent_messaging_sessions += sent_sub


def alive_at_least(sessions, seen):
    """Each session alive at least until the latest moment it was seen live (seen: {session id:
    epoch ms}): its last record is only a lower bound, since an idle session writes nothing. A
    session live now is seen now (issue 14: four live sessions read as "max 2 alive at once";
    issue 32: 6 alive at once read as 5, and 19 minutes as 13)."""
    for s in sessions:
        at_ms = seen.get(s.session_id)
        if at_ms is not None:
            s.last_ms = max(s.last_ms, at_ms)
