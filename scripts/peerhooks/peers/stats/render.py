"""How `peers.py --stats` shows its report: the text a user reads, and the --json document."""
import json

from ...text.timeutil import duration


def _count(value):
    return ("%g" % value) if isinstance(value, float) else str(value)


def _plural(number, noun):
    return "%d %s%s" % (number, noun, "" if number == 1 else "s")


def _size(size):
    return "%.1f GB" % (size / 1e9) if size >= 1e9 else "%.0f MB" % (size / 1e6)


def render_text(rep):
    """The report as the text `peers.py --stats` prints."""
    lines = []
    if rep.sessions == 0:
        lines.append("no sessions in the last %d days" % rep.days)
    else:
        lines += [
            "Sessions in the last %d days: %d, in %s (%s of transcripts read)"
            % (rep.days, rep.sessions, _plural(rep.checkouts, "checkout"), _size(rep.bytes_read)),
            "Alive at once, daily peak over the %s with sessions: median %s, max %d"
            % (_plural(rep.active_days, "day"), _count(rep.peak_median), rep.peak_max),
            "  within one checkout: median %s, max %d" % (_count(rep.checkout_peak_median), rep.checkout_peak_max),
            "Session lifetime: median %s, p90 %s, max %s"
            % (duration(int(rep.lifetime_median_ms)), duration(rep.lifetime_p90_ms), duration(rep.lifetime_max_ms)),
            "Listed other sessions (ListAgents or `claude agents`): %s, %s"
            % (_plural(rep.listing_sessions, "session"), _plural(rep.listing_calls, "call")),
            "Messaged another session (SendMessage, delivered): %s, %s"
            % (_plural(rep.messaging_sessions, "session"), _plural(rep.peer_messages, "message")),
            "  apart from that, to their own subagents: %s from %s"
            % (_plural(rep.subagent_messages, "message"), _plural(rep.subagent_messaging_sessions, "session")),
            "Received a message from another session: %s, %s"
            % (_plural(rep.receiving_sessions, "session"), _plural(rep.received_messages, "message")),
            "Git commands refused by the peerhooks guard: %d" % rep.refusals,
            "Wrote a HANDOFF.md: %s" % _plural(rep.handoff_sessions, "session"),
            "",
            "%-10s  %4s  %13s  %8s  %8s" % ("day", "peak", "same checkout", "messages", "refusals"),
        ]
        for row in rep.per_day:
            lines.append("%-10s  %4d  %13d  %8d  %8d" % (row.day, row.peak, row.checkout_peak, row.messages,
                                                         row.refusals))
    if rep.malformed:
        lines += ([""] if rep.sessions else []) + ["skipped %s" % _plural(rep.malformed, "malformed record")]
    return "\n".join(lines) + "\n"


def to_json(rep):
    """The report as a JSON-ready dict (times in milliseconds)."""
    return {
        "days": rep.days,
        "sessions": rep.sessions,
        "checkouts": rep.checkouts,
        "active_days": rep.active_days,
        "alive_at_once": {"median": rep.peak_median, "max": rep.peak_max},
        "alive_at_once_in_one_checkout": {"median": rep.checkout_peak_median, "max": rep.checkout_peak_max},
        "lifetime_ms": {"median": rep.lifetime_median_ms, "p90": rep.lifetime_p90_ms, "max": rep.lifetime_max_ms},
        "listing_sessions": rep.listing_sessions,
        "listing_calls": rep.listing_calls,
        "messaging_sessions": rep.messaging_sessions,
        "peer_messages": rep.peer_messages,
        "subagent_messaging_sessions": rep.subagent_messaging_sessions,
        "subagent_messages": rep.subagent_messages,
        "receiving_sessions": rep.receiving_sessions,
        "received_messages": rep.received_messages,
        "guard_refusals": rep.refusals,
        "handoff_sessions": rep.handoff_sessions,
        "per_day": [
            {
                "day": row.day,
                "peak": row.peak,
                "checkout_peak": row.checkout_peak,
                "messages": row.messages,
                "refusals": row.refusals,
            }
            for row in rep.per_day
        ],
        "malformed_records": rep.malformed,
        "bytes_read": rep.bytes_read,
    }


def render_json(rep):
    return json.dumps(to_json(rep), indent=2, sort_keys=False) + "\n"
