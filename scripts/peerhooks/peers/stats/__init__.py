"""`peers.py --stats`: do sessions that share a machine see each other and talk?

The claim behind peerhooks is measurable. The baseline that motivated it (30 days, one machine):
297 sessions, a median of 8 alive at once and up to 10 in one checkout, 118 listed other sessions,
and only 7 ever sent one a message. A user runs this before and after installing to see whether
the numbers move.

Three modules, one concern each, composed here:
- stats_scan: the streaming transcript scan (files in, one SessionScan per transcript out);
- stats_figures: the pure arithmetic (daily peaks, lifetimes, the per-day table; time a parameter);
- stats_render: the text and the --json document.
This module holds only what joins them to the world: the Claude home, the registry of live
sessions, and git (which checkout a cwd belongs to). Only `peers.py --stats` imports it, lazily.
"""
import os

from ... import platform
from ...claude import registry
from ...git import gitrepo
from .figures import alive_until_now, summarize, window
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
    alive_until_now(scan.sessions, {s.session_id for s in registry.live_sessions(home)}, now_ms)
    return summarize(scan.sessions, checkout_keys(scan.sessions, toplevel), win, scan.malformed, scan.bytes_read)


def run(home, now_ms, days, as_json=False, tz=None):
    """What `peers.py --stats [--days N] [--json]` prints."""
    rep = report(home, now_ms, days, tz)
    return render_json(rep) if as_json else render_text(rep)
