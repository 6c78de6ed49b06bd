"""The peers report: what a new session is told about the last finished session and its live peers.

Plain text, meant for the model's context (SessionStart stdout) and for a person running peers.py by
hand. It is read for minutes after it was printed, so each moment is given on the clock with how
long ago it was (`14:02 (2m ago)`), in the user's local time (zone: a parameter, fixed by tests).
What the peers wrote (names, prompts, file names) is shown through peerhooks.text.peertext, and every
line opens with words of ours: a peer's line is `- <name>  …`, never the name alone.
"""
import time

from ..claude import messaging
from ..claude.intent import PROMPT_CHARS
from ..startup import oscalls
from ..text import peertext, render
from ..text.timeutil import ago, at, clock, duration

HOOK_BUDGET = 4000  # the whole SessionStart block; 12 peers must fit (Claude Code cuts at 10,000)
SHOWN_EDITS = 5  # files per session; the newest matter, the rest is noise
# Said before how to reach the peers (peerhooks.claude.messaging: SendMessage by name where both ends have
# a messaging socket, else through the user, naming the socket that is missing).
WHEN_TO_COORDINATE = "Coordinate before editing a file a peer is editing, or committing while a peer is busy."


def message_advice(peer_names, messageable_names, can_send=True):
    """What to tell the model about reaching its peers, given which of them can receive messages
    and whether this session can send any."""
    if not peer_names:
        return ""
    peers = [(name, name in messageable_names, messaging.SESSION) for name in peer_names]
    return WHEN_TO_COORDINATE + " " + messaging.advice(peers, can_send, listed=True)


def display_path(path, top):
    """A path relative to the checkout when inside it; home-relative or absolute otherwise; cleaned
    (peertext): a file name is the peer's to choose."""
    return peertext.clean(_shortened(path, top))


def _shortened(path, top):
    if top:
        inside = top + oscalls.sep
        if (len(path) > len(inside) and path.startswith(inside) and oscalls.path.normpath(path) == path
                and oscalls.path.normpath(top) == top):
            relative = path[len(inside):]  # what relpath answers here, for a tenth of its cost
        else:
            try:
                relative = oscalls.path.relpath(path, top)
            except ValueError:  # another drive on Windows
                relative = None
        if relative is not None and not relative.startswith(".."):
            return relative.replace(oscalls.sep, "/")
    home = oscalls.path.expanduser("~")
    if path.startswith(home + oscalls.sep):
        return "~" + path[len(home):]
    return path


SHOWN_SETTLED = 3  # files whose change git no longer holds uncommitted: named briefly after the others
SETTLED_LABEL = "committed or stashed since"


def named(edits, top, limit):
    """Up to `limit` files, shown relative to the checkout, then how many more."""
    shown = edits[:limit]
    names = ", ".join(display_path(e.path, top) for e in shown)
    return names + (" +%d" % (len(edits) - len(shown)) if len(edits) > len(shown) else "")


def _when(now_ms, then_ms, zone):
    """` (14:02, 2m ago)` after a list of files, or '' when the moment is unknown."""
    return " (%s, %s ago)" % (clock(then_ms, now_ms, zone), ago(now_ms, then_ms)) if then_ms is not None else ""


def edits_line(activity, top, now_ms, label, zone=time.localtime):
    """The files a session changed: those git still holds uncommitted first (newest first, with
    when), then those whose change was committed, stashed or reverted since (activity.settled)."""
    settled = "%s: %s" % (SETTLED_LABEL, named(activity.settled, top, SHOWN_SETTLED)) if activity.settled else ""
    if not activity.edits:
        if settled:
            return "  %s: nothing uncommitted now; %s%s" % (label, settled,
                                                             _when(now_ms, activity.settled[0].at_ms, zone))
        if activity.edits_truncated:
            return "  %s: none in the last part of its transcript read (older edits not read)" % label
        return None
    when = _when(now_ms, activity.edits[0].at_ms, zone)
    return "  %s: %s%s%s" % (label, named(activity.edits, top, SHOWN_EDITS), when, "; " + settled if settled else "")


def _quoted(label, text):
    return "  %s: %s" % (label, peertext.one_line(text, PROMPT_CHARS)) if text else None


def peer_header(activity, now_ms, zone=time.localtime):
    facts = []
    if activity.status:
        facts.append(peertext.name(activity.status))
    if activity.started_ms:
        facts.append("up " + ago(now_ms, activity.started_ms))
    if activity.prompt_count is not None:
        facts.append("%d prompt%s" % (activity.prompt_count, "" if activity.prompt_count == 1 else "s"))
    if activity.last_active_ms:
        facts.append("last " + at(now_ms, activity.last_active_ms, zone))
    name = "- " + peertext.name(activity.name)  # a line of ours: a name cannot pass for one
    head = "%s  %s" % (name, facts[0]) if activity.status else name
    rest = facts[1:] if activity.status else facts
    return head + ("".join(" · " + f for f in rest) if rest else "")


def peer_variants(activity, top, now_ms, zone=time.localtime):
    """An Activity's block as text variants, fullest first: drop `opened`, then `before`, then all but the header."""
    header = peer_header(activity, now_ms, zone)
    opened = _quoted("opened", activity.opening)
    before = _quoted("before", activity.before)
    latest = _quoted("now", activity.latest)
    then = _quoted("then", activity.direction)
    editing = edits_line(activity, top, now_ms, "editing", zone)
    full = [header, opened, before, latest, then, editing]
    variants = [
        full,
        [header, before, latest, then, editing],
        [header, latest, then, editing],
        [header, then, editing],
        [header],
    ]
    seen, result = set(), []
    for variant in variants:
        text = "\n".join(line for line in variant if line)
        if text not in seen:
            seen.add(text)
            result.append(text)
    return result


def how_it_ended(exited, when):
    """How a finished session's end is told, `when` its moment: `ended <when>` once its exit is
    recorded; else only when it was last known alive, `stopped without exiting` when its client
    records every exit and recorded none (the process was killed), plain `ended` when that cannot
    be told (activity.end_of)."""
    if exited:
        return "ended " + when
    return "%s, last seen %s" % ("stopped without exiting" if exited is False else "ended", when)


def ran_for(ended):
    """How long a finished session ran: exactly once its exit is recorded, else at least until it was
    last seen; '' when its start is unknown."""
    if ended.activity.started_ms is None:
        return ""
    return "ran %s%s" % ("" if ended.exited else "at least ", duration(ended.ended_ms - ended.activity.started_ms))


def ended_block(ended, handoff, top, now_ms, zone=time.localtime):
    """An Ended session's block as text variants, fullest first (with its Handoff, or None)."""
    activity = ended.activity
    ran = ran_for(ended)
    header = "Last session in this checkout: %s %s%s, %d prompt%s" % (
        peertext.name(activity.name), how_it_ended(ended.exited, at(now_ms, ended.ended_ms, zone)),
        ", " + ran if ran else "",
        activity.prompt_count, "" if activity.prompt_count == 1 else "s")
    lines = [header, _quoted("opened", activity.opening), _quoted("latest", activity.latest),
             edits_line(activity, top, now_ms, "edited", zone)]
    if handoff is not None:
        note = " (stale: that session worked on after it was written)" if handoff.stale else ""
        lines.append("  handoff: %s, written %s%s" % (
            display_path(handoff.path, top), clock(handoff.modified_ms, now_ms, zone), note))
    full = "\n".join(line for line in lines if line)
    return [full, "\n".join(line for line in (lines[0], lines[2]) if line), lines[0]]


def _megabytes(size):
    megabytes = size / (1024.0 * 1024.0)
    return "%.1f MB" % megabytes if megabytes < 10 else "%d MB" % round(megabytes)


def unread_line(unread):
    """One line for what this start's budget did not reach (activity.Unread), or ''."""
    parts = []
    if unread is not None and unread.history_bytes:
        parts.append("up to %s of history.jsonl, so prompt counts may be low" % _megabytes(unread.history_bytes))
    if unread is not None and unread.transcripts:
        parts.append("%d transcript%s that may hold a later finished session" % (
            unread.transcripts, "" if unread.transcripts == 1 else "s"))
    if not parts:
        return ""
    return "Not read within this start's budget (later starts go on from there): %s." % "; ".join(parts)


def hook_report(ended, handoff, peers, top, now_ms, budget=HOOK_BUDGET, messageable=frozenset(),
                can_send=True, unread=None, zone=time.localtime):
    """The SessionStart text from the last Ended session (or None), its Handoff (or None) and the
    live peers' Activity records, or '' when there is nothing to tell. `messageable`: the session
    ids of the peers that can receive SendMessage (registry.Session.can_message); `can_send`:
    whether this session's own client can send one (False where its registry entry has no
    messaging socket); `unread`: what the budget did not reach (activity.Unread), said last;
    `zone`: the clock moments are shown on (the user's local time)."""
    not_read = unread_line(unread)
    if ended is None and not peers:
        return not_read
    blocks = []
    if ended is not None:
        blocks.append(ended_block(ended, handoff, top, now_ms, zone))
    header = ""
    if peers:
        ordered = sorted(peers, key=lambda a: a.last_active_ms or 0, reverse=True)
        header_line = "Live sessions in this checkout (%d):" % len(ordered)
        # The header sits on the first peer's block so that it goes or stays with the peers.
        first = [header_line + "\n" + v for v in peer_variants(ordered[0], top, now_ms, zone)]
        blocks.append(first)
        blocks += [peer_variants(a, top, now_ms, zone) for a in ordered[1:]]
    footer = message_advice([a.name for a in peers],
                            {a.name for a in peers if a.session_id in messageable}, can_send)
    footer = "\n".join(line for line in (footer, not_read) if line)
    return render.fit(blocks, budget, more_line=lambda n: "+%d more live sessions" % n,
                      header=header, footer=footer)
