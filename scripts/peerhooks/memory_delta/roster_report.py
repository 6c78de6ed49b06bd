"""memory_delta.py's roster lines: the peers that joined this checkout since this session last heard
(name, what it works on, what it is editing) and those that ended (how long they ran, what they left
uncommitted), each once. Runs only when roster.unchanged says the registry moved.

A joined peer is described as peers.py describes a live one (activity.describe_checkout: its
prompts from history, its edits from its transcripts, split by git's state now). An ended peer is
described from its transcripts, found by the session id and process the roster kept (its chain
of ids across /clear, its subagents: identity), and git's state of the files they changed: what
it left uncommitted is still its work, for whoever comes next. Names and prompts are shown through
peerhooks.text.peertext, after words of ours (`- joined: `).
"""
import time

from ..claude import activity, editindex, history, identity, messaging, names, registry, transcripts
from ..claude.intent import PROMPT_CHARS
from ..peers import roster
from ..peers.report import edits_line, named
from ..startup.records import record
from ..startup import oscalls
from ..text import peertext
from ..text.timeutil import ago, clock, duration

HEADER = "Peers in this checkout since this session last heard:"
SHOWN_FILES = 5
MAX_EACH = 8  # joined, and ended, peers described on one prompt; the rest are counted

Ended = record("Ended", "name started_ms ended_ms uncommitted settled exited", (None,), """A peer that
    ended: its name, when it started and ended (None when unknown; ended_ms its recorded exit, else
    when it was last known alive: activity.end_of), [Edit] of the files it changed that git holds
    uncommitted now, and of those it changed that git holds unchanged, and whether it exited (True),
    stopped without exiting (False) or cannot be told (None).""")


def joined_line(peer, top, now_ms, zone=time.localtime):
    """One joined peer (an activity.Activity) as one line."""
    status = peertext.name(peer.status)
    facts = [f for f in (status, "up " + ago(now_ms, peer.started_ms) if peer.started_ms else None) if f]
    text = "- joined: %s%s" % (peertext.name(peer.name), " (%s)" % ", ".join(facts) if facts else "")
    if peer.latest:
        text += "; working on: %s" % peertext.one_line(peer.latest, PROMPT_CHARS)
        if peer.direction:
            text += ", then: %s" % peertext.one_line(peer.direction, PROMPT_CHARS)
    editing = edits_line(peer, top, now_ms, "editing", zone)
    return text + ("; " + editing.strip() if editing else "")


def ended_line(ended, top, now_ms, zone=time.localtime):
    """One ended peer as one line: `ended` once its exit is recorded, else when it was last seen, and
    `stopped without exiting` when its client records every exit and recorded none."""
    when = []
    if ended.ended_ms is not None:
        when.append("%s%s, %s ago" % ("" if ended.exited else "last seen ", clock(ended.ended_ms, now_ms, zone),
                                      ago(now_ms, ended.ended_ms)))
    if ended.started_ms is not None and ended.ended_ms is not None:
        when.append("after %s%s" % ("" if ended.exited else "at least ", duration(ended.ended_ms - ended.started_ms)))
    how = "stopped without exiting" if ended.exited is False else "ended"
    text = "- %s: %s%s" % (how, peertext.name(ended.name), " (%s)" % ", ".join(when) if when else "")
    settled = "committed or stashed: %s" % named(ended.settled, top, SHOWN_FILES) if ended.settled else ""
    if ended.uncommitted:
        text += "; left uncommitted: %s" % named(ended.uncommitted, top, SHOWN_FILES)
        return text + ("; " + settled if settled else "")
    if settled:
        return text + "; left nothing uncommitted (%s)" % settled
    return text + "; changed no file here that its transcripts show"


def render(joined, ended, top, now_ms, can_send, more=0, zone=time.localtime):
    """The roster lines ('' when nobody joined or ended), then how to reach those that joined.
    joined: [(activity.Activity, whether it can receive messages)]; ended: [Ended]; more: how many
    others joined or ended that are not described; zone: the clock moments are shown on."""
    if not joined and not ended:
        return ""
    lines = [HEADER] + [joined_line(p, top, now_ms, zone) for p, _can in joined]
    lines += [ended_line(e, top, now_ms, zone) for e in ended]
    if more:
        lines.append("- and %d more that joined or ended" % more)
    advice = messaging.advice([(p.name, can, messaging.SESSION) for p, can in joined], can_send)
    return "\n".join(lines + ([advice] if advice else [])) + "\n"


# -- The reads (I/O) -------------------------------------------------------------------------------

Found = record("Found", "text roster", doc="""The lines to print and the roster to record once they
    are delivered.""")


def describe_ended(home, top, key, heard, table, now_ms, heard_at_ms=None):
    """An Ended from what the roster kept of a peer: its transcripts (its chain of ids across
    /clear, its subagents), the files they show it changed, git's state of those now, and its end
    (activity.end_of: its recorded exit, else the last moment it was known alive: its last record,
    peerhooks' last sight of it, or heard_at_ms, when this session's roster last heard it live)."""
    pid, _sep, start = key.partition(":")
    processes = [(int(pid), start or None)] if pid.isdigit() else []
    found = identity.identity(home, heard.session_id, heard.cwd or top, heard.name, processes, table)
    paths = identity.all_transcripts(found)
    scans = editindex.recent_edits_of(home, paths, now_ms)
    edits = activity.kept_edits(activity.merged_scan([scans[p] for p in paths if p in scans]).edits, top)
    tail = transcripts.read_tail(found.transcripts[0]) if found.transcripts else transcripts.Tail(None, None)
    seen = [t for t in (names.last_seen_ms(table.get(heard.session_id)), heard_at_ms) if t is not None]
    ended_ms, exited = activity.end_of(tail, tail.ended_at_ms, max(seen) if seen else None)
    ended_ms = ended_ms or now_ms  # nothing tells when it was alive (no record, never seen): now bounds its end
    shell = activity.Activity(heard.session_id, heard.name, heard.cwd, None, heard.started_ms, ended_ms, None,
                              None, None, None, edits, False)
    [split] = activity.settled_by_git([shell], top)
    return Ended(heard.name, heard.started_ms, ended_ms, split.edits, split.settled, exited)


def report(home, seen, session_id, top, environ, now_ms):
    """Found: the roster lines for this prompt and the roster to record (I/O: the registry, the
    joined peers' history and transcripts, the ended peers' transcripts, git's state)."""
    sessions = registry.read_sessions(home)
    ancestors = registry.ancestor_pids()
    live = registry.peers_in_checkout(home, top, session_id, ancestors, sessions) if top else []
    own = registry.own_entry(sessions, session_id, ancestors)
    can_send = registry.can_send(own, environ)
    joined, ended = roster.changes(seen.previous, live)
    new = roster.Roster(tuple(seen.registry), roster.heard_of(live))
    if not joined and not ended:
        return Found("", new)
    more = max(0, len(joined) - MAX_EACH) + max(0, len(ended) - MAX_EACH)
    joined, ended = joined[:MAX_EACH], ended[:MAX_EACH]  # a bounded description, whatever the churn
    described, gone = [], []
    if joined:
        checkout = activity.describe_checkout(home, top, joined, {session_id}, now_ms, history.load(home, now_ms),
                                              with_ended=False)
        described = [(a, s.can_message) for a, s in zip(checkout.peers, joined)]
    if ended:
        table = names.load_table(home)
        heard_at_ms = _modified_ms(seen.path)
        gone = [describe_ended(home, top, key, heard, table, now_ms, heard_at_ms) for key, heard in ended]
    return Found(render(described, gone, top, now_ms, can_send, more), new)


def _modified_ms(path):
    """When a file was last written (epoch ms), or None."""
    try:
        return oscalls.stat(path).st_mtime_ns // 1000000
    except (OSError, ValueError):
        return None
