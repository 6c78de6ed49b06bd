"""Registry names of sessions, and the process each ran in, remembered after the sessions end.

A live session is known to its peers by its registry `name` (the address SendMessage uses), but
Claude Code deletes the registry file when the session exits, so a finished session would be shown
by a bare id nobody saw before. peers.py remembers every name it reads from the registry in
peerhooks' own folder; finished sessions are then shown under the name their peers knew.

The process is remembered too (pid and its start time): `/clear` gives a running session a new id
and rewrites its registry entry, so its old id looks like a finished session. An id whose process
is still live is the earlier context of that live session, not a session that ended (issue 14:
a session was shown itself as "Last session ... ended 21s ago" after /clear).

Each entry also says when peerhooks last saw the session live (its registry entry, its process
running): refreshed at every SessionStart on the machine, it is the best evidence of a session's
life its transcript does not give (an idle session writes nothing; a killed one never writes its
end), which the last finished session's "last seen" and `peers.py --stats` read.

A session can start before its registry entry exists: 2.1.332 at times writes it only after
SessionStart:startup has run (seen in about one start in six in the e2e runs), so peers.py saw no
process for its own id, and after /clear that id read as an ended session. Then peers.py
remembers its id with the processes it may run in (its own ancestors that are no other session's),
until a later read of the registry gives the one process.
"""

from .home import state_dir
from ..startup import oscalls
from ..state.statefiles import read_json_object, write_json
from .formats import DAY_MS

NAMES_FILE = "session-names.json"
KEEP_DAYS = 30  # ended sessions are shown for 7 days; a month leaves room for the other readers


def _path(home):
    return oscalls.path.join(state_dir(home), NAMES_FILE)


def _valid(entry):
    """[name, seen ms] (before processes were kept), [name, seen ms, pid, process start], or
    [name, seen ms, [[pid, process start], ...]] (a session seen before its registry entry)."""
    return (isinstance(entry, list) and len(entry) in (2, 3, 4) and isinstance(entry[0], str)
            and isinstance(entry[1], int) and not isinstance(entry[1], bool)
            and (len(entry) != 3 or _valid_processes(entry[2])))


def _valid_processes(processes):
    return isinstance(processes, list) and all(
        isinstance(p, list) and len(p) == 2 and isinstance(p[0], int) and isinstance(p[1], str)
        for p in processes)


def load_table(home):
    """{session id: entry} of every remembered session; empty when the file is missing or bad."""
    data = read_json_object(_path(home)) or {}
    return {k: v for k, v in data.items() if isinstance(k, str) and _valid(v)}


def load(home):
    """{session id: name} of every remembered session whose name is known."""
    return {k: v[0] for k, v in load_table(home).items() if v[0]}


def process_of(entry):
    """The process a remembered session ran in, as (pid, process start), or None."""
    if len(entry) == 4 and isinstance(entry[2], int):
        return entry[2], entry[3]
    return None


def session_process(session):
    return session.pid, session.proc_start


def possible_processes(ancestors, registered_pids):
    """The processes a session without a registry entry may run in: its hook's ancestors, as
    [pid, process start], nearest first, up to the first that is another session's (a session
    started from inside another's shell must not pass for that one's earlier context).
    ancestors: [(pid, process start or None)] nearest first; those without a start are left out."""
    processes = []
    for pid, start in ancestors:
        if pid in registered_pids:
            break
        if start is not None:
            processes.append([pid, start])
    return processes


def with_unregistered(known, session_id, processes, now_ms):
    """The table with a session that has no registry entry yet remembered by its possible
    processes; None when nothing changes (already known, or no process to remember)."""
    if not processes or session_id in known:
        return None
    table = dict(known)
    table[session_id] = ["", now_ms, processes]
    return table


def merged(known, sessions, now_ms, live_ids=None):
    """The remembered table ({id: [name, last seen live ms, pid, process start]}) with these
    registry sessions added and old ones dropped, those live (live_ids; None: all of them) seen
    now; None when nothing changed. A session whose process is gone (its entry left behind by a
    crash) keeps the time it was last seen live, or, new here, its entry's own last update."""
    table = {k: v for k, v in known.items() if _valid(v) and now_ms - v[1] <= KEEP_DAYS * DAY_MS}
    changed = len(table) != len(known)
    for session in sessions:
        entry = table.get(session.session_id)
        live = live_ids is None or session.session_id in live_ids
        seen = now_ms if live else (entry[1] if entry else session.updated_at_ms or session.started_at_ms or now_ms)
        wanted = [session.name, seen, session.pid, session.proc_start]
        if entry != wanted:
            table[session.session_id] = wanted
            changed = True
    return table if changed else None


def last_seen_ms(entry):
    """When peerhooks last saw a remembered session live (epoch ms), or None."""
    return entry[1] if entry else None


def remember(home, sessions, now_ms, live_ids=None):
    """Add the names of registry sessions and when each live one was seen; best effort (a lost name
    only costs a bare id later)."""
    _save(home, merged(read_json_object(_path(home)) or {}, sessions, now_ms, live_ids))


def remember_unregistered(home, session_id, processes, now_ms):
    """Remember a session that has no registry entry yet by the processes it may run in."""
    _save(home, with_unregistered(read_json_object(_path(home)) or {}, session_id, processes, now_ms))


def _save(home, table):
    if table is None:
        return
    try:
        write_json(_path(home), table)
    except OSError:
        pass
