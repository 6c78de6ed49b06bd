"""Registry names of sessions, remembered after the sessions end.

A live session is known to its peers by its registry `name` (the address SendMessage uses), but
Claude Code deletes the registry file when the session exits, so a finished session would be shown
by a bare id nobody saw before. peers.py remembers every name it reads from the registry in
peerhooks' own folder; finished sessions are then shown under the name their peers knew.
"""
import os

from . import home as homes
from .atomic import read_json_object, write_json

NAMES_FILE = "session-names.json"
KEEP_DAYS = 30  # ended sessions are shown for 7 days; a month leaves room for the other readers
DAY_MS = 86400 * 1000


def _path(home):
    return os.path.join(homes.state_dir(home), NAMES_FILE)


def load(home):
    """{session id: name} of every remembered session; empty when the file is missing or bad."""
    data = read_json_object(_path(home)) or {}
    return {k: v[0] for k, v in data.items()
            if isinstance(k, str) and isinstance(v, list) and v and isinstance(v[0], str)}


def merged(known, sessions, now_ms):
    """The remembered table ({id: [name, last seen ms]}) with these sessions added and old ones
    dropped; None when nothing changed (so the common start writes nothing)."""
    table = {k: v for k, v in known.items() if isinstance(v, list) and len(v) == 2
             and isinstance(v[1], int) and now_ms - v[1] <= KEEP_DAYS * DAY_MS}
    changed = len(table) != len(known)
    for session in sessions:
        entry = table.get(session.session_id)
        if entry is None or entry[0] != session.name:
            table[session.session_id] = [session.name, now_ms]
            changed = True
    return table if changed else None


def remember(home, sessions, now_ms):
    """Add the names of registry sessions; best effort (a lost name only costs a bare id later)."""
    table = merged(read_json_object(_path(home)) or {}, sessions, now_ms)
    if table is None:
        return
    try:
        write_json(_path(home), table)
    except OSError:
        pass
