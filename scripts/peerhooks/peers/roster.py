"""Who is live in this checkout as this session last heard it, and whether that can have changed.

peers.py tells a session its peers once, at SessionStart, but sessions live for hours and peers
come and go all the while. This keeps, per session, the roster it was last told (peers.py records
it at SessionStart, memory_delta.py whenever it tells a change) with the registry's file names as
they were then. On each prompt the quiet path is one small read, one listing of the registry
folder and, on Linux, a stat of `/proc/<pid>` per peer heard of (peerhooks.platform's marker): Claude Code adds a registry file
when a session starts and removes it when it exits, and a peer that crashed leaves its file but
not its process. Only when one of these differs does memory_delta.py read the registry (and the
rest, in roster_report) to say who joined and who ended.

A peer is its process (pid and start time), so a `/clear` in a peer, which rewrites its entry with
a new session id, is neither an end nor a join.

    roster/<session id>.json: {"version": 1, "registry": ["<pid>.json", ...],
                               "peers": {"<pid>:<procStart>": {"id": …, "name": …, "cwd": …, "started": ms}}}
"""
from .. import platform
from ..claude.formats import DAY_MS, REGISTRY_FOLDER, is_registry_name
from ..startup import oscalls
from ..startup.jsonfast import dumps
from ..startup.records import record
from ..state.safefiles import read_regular
from ..state.statefiles import read_state, remove_older_than, versioned_object, write_atomically

FOLDER = "roster"  # under peerhooks' state folder; one file per session
VERSION = 1
MAX_BYTES = 1024 * 1024  # a few hundred registry names and a dozen peers; larger is not ours
LEVELS = 2  # peerhooks/ and roster/: peerhooks' own folders
MAX_AGE_MS = 30 * DAY_MS  # a roster untouched this long belongs to a finished session

Heard = record("Heard", "session_id name cwd started_ms", (None,), """A peer as this session last
    heard of it: its session id then, its registry name, its folder and when it started.""")

Roster = record("Roster", "registry peers", doc="""What a session was last told: the registry's file
    names then (sorted), and {process key: Heard} of the live peers in its checkout.""")

Look = record("Look", "path previous registry", doc="""One prompt's view: the roster file, the
    roster it holds (None when there is none yet) and the registry's file names now.""")


def folder_of(state_folder):
    return oscalls.path.join(state_folder, FOLDER)


def path_of(state_folder, session_id):
    return oscalls.path.join(folder_of(state_folder), session_id + ".json")


def process_key(session):
    """A registry session's process as a roster names it."""
    return "%d:%s" % (session.pid, session.proc_start or "")


def registry_names(home):
    """The registry's entry file names now, sorted ([] when there is no registry folder)."""
    try:
        names = oscalls.listdir(oscalls.path.join(home, REGISTRY_FOLDER))
    except OSError:
        return []
    return sorted(name for name in names if is_registry_name(name))


# -- The file --------------------------------------------------------------------------------------

def encode(roster):
    peers = {key: {"id": h.session_id, "name": h.name, "cwd": h.cwd, "started": h.started_ms}
             for key, h in sorted(roster.peers.items())}
    # ASCII: a name is written by any process, and a lone surrogate in one does not encode as UTF-8
    return dumps({"version": VERSION, "registry": list(roster.registry), "peers": peers}).encode("ascii")


def decode(raw):
    """A Roster from its bytes, or None when they are not one."""
    data = versioned_object(raw, VERSION)
    if data is None:
        return None
    registry, peers = data.get("registry"), data.get("peers")
    if not isinstance(registry, list) or not isinstance(peers, dict):
        return None
    heard = {}
    for key, value in peers.items():
        if isinstance(value, dict) and isinstance(value.get("id"), str) and isinstance(value.get("name"), str):
            started = value.get("started")
            heard[key] = Heard(value["id"], value["name"], value.get("cwd") if isinstance(value.get("cwd"), str)
                               else None, started if isinstance(started, int) and not isinstance(started, bool) else None)
    return Roster(tuple(n for n in registry if isinstance(n, str)), heard)


def read(path):
    """The roster in a file, or None; one that is not (torn, foreign, a link or FIFO in its place)
    is set aside so the next write starts clean."""
    return read_state(path, MAX_BYTES, decode, LEVELS)


def write(path, roster, unless_same=False):
    """Record a roster (atomically, never through a link); unless_same: not when the file already
    holds these bytes (a start after /clear or a resume often finds the roster unchanged)."""
    raw = encode(roster)
    if unless_same:
        try:
            if read_regular(path, len(raw) + 1, follow_symlinks=False) == raw:
                return
        except (OSError, ValueError):
            pass
    write_atomically(path, raw, levels=LEVELS)


# -- The quiet path --------------------------------------------------------------------------------

def look(home, state_folder, session_id):
    path = path_of(state_folder, session_id)
    return Look(path, read(path), registry_names(home))


def unchanged(seen):
    """Whether nobody can have joined or ended since the roster was recorded: the same registry
    files, and (where the platform has a file that stands for a process: Linux's /proc/<pid>)
    every peer heard of still has its process. Elsewhere a peer that crashed is told as ended
    once the registry listing changes (asking macOS' ps on every prompt would cost more than the
    whole quiet path)."""
    previous = seen.previous
    if previous is None or tuple(seen.registry) != tuple(previous.registry):
        return False
    if previous.peers:
        processes = platform.current().processes
        for key in previous.peers:
            pid = key.partition(":")[0]
            if not pid.isdigit():
                return False
            marker = processes.exists_marker(int(pid))
            if marker is not None and not oscalls.path.exists(marker):
                return False
    return True


# -- What changed (pure) ---------------------------------------------------------------------------

def heard_of(live):
    """{process key: Heard} of live registry sessions."""
    return {process_key(s): Heard(s.session_id, s.name, s.cwd, s.started_at_ms) for s in live}


def changes(previous, live):
    """(joined [registry Session], ended [(process key, Heard)]) since the previous roster. Without
    one (peers.py is not wired, or the session began before this was installed) nothing is said:
    the roster starts from what is live now."""
    now = heard_of(live)
    if previous is None:
        return [], []
    joined = [s for s in live if process_key(s) not in previous.peers]
    ended = [(key, heard) for key, heard in sorted(previous.peers.items()) if key not in now]
    return joined, ended


def sweep(folder, now_ms):
    """Delete rosters untouched for MAX_AGE_MS (run on a session's first record)."""
    remove_older_than(folder, (".json",), MAX_AGE_MS, now_ms)
