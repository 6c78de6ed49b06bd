"""`peers.py --stats`: do sessions that share a machine see each other and talk?

The claim behind peerhooks is measurable. The baseline that motivated it (30 days, one machine):
297 sessions, a median of 8 alive at once and up to 10 in one checkout, 118 listed other sessions,
and only 7 ever sent one a message. A user runs this before and after installing to see whether
the numbers move.

Four modules, one concern each, composed here:
- scan: the streaming transcript scan (files in, one SessionScan per transcript out);
- records: what one decoded record says (a listing, a delivered message, a refusal, a handoff);
- figures: the pure arithmetic (daily peaks, lifetimes, the per-day table; time a parameter);
- render: the text and the --json document.
This module holds only what joins them to the world: the Claude home, the registry of live
sessions, peerhooks' own record of when it saw each session live, and git (which checkout a cwd
belongs to). Only `peers.py --stats` imports it (peers.by_hand, itself loaded only by hand).
"""
import os

from ... import platform
from ...claude import names, registry
from ...claude.home import state_dir
from ...git import gitrepo
from ...state.safefiles import read_regular
from .. import roster
from .figures import alive_at_least, summarize, window
from .render import render_json, render_text
from .scan import scan_home


def checkout_keys(sessions, toplevel=gitrepo.toplevel):
    """Session id -> the checkout it ran in: the git toplevel of its cwd, else the cwd itself
    (outside git, or a folder since deleted), else its project folder. One lookup per cwd."""
    cache = {}
    keys = {}
    for s in sessions:
        if s.cwd is None:
            keys[s.session_id] = "project:" + s.project
            continue
        if s.cwd not in cache:
            local = platform.current().paths.local(s.cwd) or s.cwd  # the client's spelling: native on Windows
            top = toplevel(local) if os.path.isdir(local) else None
            cache[s.cwd] = top or local
        keys[s.session_id] = cache[s.cwd]
    return keys


def report(home, now_ms, days, tz=None, toplevel=gitrepo.toplevel):
    """Scan a Claude home and summarize the last `days` days ending at now_ms."""
    win = window(now_ms, days, tz)
    scan = scan_home(home, win.start_ms)
    seen = sightings(home)
    seen.update((s.session_id, now_ms) for s in registry.live_sessions(home))
    alive_at_least(scan.sessions, seen)
    return summarize(scan.sessions, checkout_keys(scan.sessions, toplevel), win, scan.malformed, scan.bytes_read)


def sightings(home):
    """{session id: the latest moment (epoch ms) peerhooks saw it live}: a process's life is
    known best from the outside, since an idle session writes nothing and a killed one never
    writes its end. peers.py records at each SessionStart when it saw each live registry entry
    (claude.names); memory_delta.py's roster of a session, when it was written (its file's time),
    heard that session and its peers live. Read only: a file that is not what it should be is
    skipped, never set aside."""
    seen = {}

    def saw(session_id, at_ms):
        if at_ms is not None and at_ms > seen.get(session_id, -1):
            seen[session_id] = at_ms

    for session_id, entry in names.load_table(home).items():
        saw(session_id, names.last_seen_ms(entry))
    folder = roster.folder_of(state_dir(home))
    try:
        entries = [e for e in os.scandir(folder) if e.name.endswith(".json")]
    except OSError:
        return seen
    for entry in entries:
        try:
            written_ms = entry.stat(follow_symlinks=False).st_mtime_ns // 1000000
            heard = roster.decode(read_regular(entry.path, roster.MAX_BYTES, follow_symlinks=False))
        except (OSError, ValueError):
            continue
        if heard is not None:
            saw(entry.name[:-len(".json")], written_ms)
            for peer in heard.peers.values():
                saw(peer.session_id, written_ms)
    return seen


def run(home, now_ms, days, as_json=False, tz=None):
    """What `peers.py --stats [--days N] [--json]` prints."""
    rep = report(home, now_ms, days, tz)
    return render_json(rep) if as_json else render_text(rep)
