"""The live-session registry: `sessions/<pid>.json` under the Claude home, one file per session.

A file outlives its session after a crash, and pids get reused, so a registry entry is live only if
its pid runs *and* the process started when the entry's `procStart` says it did, compared in the
client's own format for the platform (peerhooks/platform: /proc on Linux, ps on macOS, the kernel's
creation time on Windows). A pid means something only in the pid namespace it was read in: since
2.1.332 an entry says which (`pidDomain`: `linux:<machine id>:pid:[<namespace inode>]`, `darwin`,
`win32:<host>`), and an entry written from another namespace (a container sharing ~/.claude) is
judged without its pid: alive while its messaging socket accepts a connection, else while its
`updatedAt` is recent (see docs/clients.md). Its `cwd` is read as the client wrote it (a native
path on Windows) and kept in this process's spelling.
A session must never count itself as a peer: after `/clear` older builds keep the old session id in
the registry, so besides the payload's id we recognise our own entry by its pid being an ancestor of
the hook process.
"""

from ..git import gitrepo
from ..startup import oscalls
from .. import platform
from .formats import MAX_REGISTRY_BYTES, MESSAGING_SOCKET_VARIABLE, REGISTRY_FOLDER, REGISTRY_SUFFIX, is_registry_name, short_id
from ..startup.jsonfast import loads
from ..startup.records import record
from ..state.safefiles import read_regular

# A foreign entry without a reachable socket counts as live this long after its last registry
# write: the client rewrites `updatedAt` on every status change (busy, idle), not while idle.
FOREIGN_FRESH_MINUTES = 10
FOREIGN_FRESH_MS = FOREIGN_FRESH_MINUTES * 60 * 1000
SOCKET_TIMEOUT_S = 0.2  # a listening socket answers connect() at once; a stale one is refused at once


# pid (int), session_id, cwd and name (str) are always there; every other field may be None.
_SessionFields = record("Session", [
    "pid", "session_id", "cwd", "name",
    "status", "started_at_ms", "updated_at_ms", "kind", "entrypoint", "version",
    "proc_start",  # the process's start time in the client's format for the platform, to tell a reused pid
    # 2.1.332+: the socket another session's SendMessage reaches; absent where messaging does not work
    "messaging_socket",
    # 2.1.332+: the namespace the pid means something in (`linux:<machine id>:pid:[<pid namespace>]`)
    "pid_domain",
], defaults=(None, None))


class Session(_SessionFields):
    """One registry entry."""
    __slots__ = ()

    @property
    def can_message(self):
        """Whether a peer can receive SendMessage by name (2.1.197 answers `not addressable`)."""
        return self.messaging_socket is not None

    @property
    def short_id(self):
        return short_id(self.session_id)


def _int_or_none(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    return None


def _str_or_none(value):
    return value if isinstance(value, str) and value else None


def parse_entry(data):
    """A Session from one registry file's decoded JSON, or None when a required field is missing."""
    if not isinstance(data, dict):
        return None
    pid = _int_or_none(data.get("pid"))
    session_id = _str_or_none(data.get("sessionId"))
    cwd = platform.current().paths.local(data.get("cwd"))
    if pid is None or pid <= 0 or session_id is None or cwd is None:
        return None
    proc_start = data.get("procStart")
    return Session(
        pid=pid,
        session_id=session_id,
        cwd=cwd,
        name=_str_or_none(data.get("name")) or short_id(session_id),
        status=_str_or_none(data.get("status")),
        started_at_ms=_int_or_none(data.get("startedAt")),
        updated_at_ms=_int_or_none(data.get("updatedAt")),
        kind=_str_or_none(data.get("kind")),
        entrypoint=_str_or_none(data.get("entrypoint")),
        version=_str_or_none(data.get("version")),
        proc_start=str(proc_start) if isinstance(proc_start, (str, int)) else None,
        messaging_socket=_str_or_none(data.get("messagingSocketPath")),
        pid_domain=_str_or_none(data.get("pidDomain")),
    )


def entry_path(home, pid):
    """The registry file of the session running as pid."""
    return oscalls.path.join(home, REGISTRY_FOLDER, "%d%s" % (pid, REGISTRY_SUFFIX))


def read_sessions(home):
    """Every well-formed registry entry, live or not. Each file costs only itself: one that is
    not a regular file (a FIFO named `<pid>.json` would block a plain open until a writer came)
    or is a symlink (the client writes none) is not opened for reading, and one that is too big,
    not UTF-8, not JSON or nested too deep (jsonfast.TooDeep) is skipped."""
    folder = oscalls.path.join(home, REGISTRY_FOLDER)
    try:
        names = oscalls.listdir(folder)
    except OSError:
        return []
    sessions = []
    for name in sorted(names):
        if not is_registry_name(name):
            continue
        try:
            raw = read_regular(oscalls.path.join(folder, name), MAX_REGISTRY_BYTES + 1, follow_symlinks=False)
        except (OSError, ValueError):
            continue
        if len(raw) > MAX_REGISTRY_BYTES:
            continue
        try:
            data = loads(raw.decode("utf-8"))
        except ValueError:  # UnicodeDecodeError and jsonfast.TooDeep are ValueErrors
            continue
        session = parse_entry(data)
        if session is not None:
            sessions.append(session)
    return sessions


def own_pid_domain():
    """This process's pidDomain in the client's format, or None where it cannot be told."""
    return platform.current().processes.pid_domain()


def is_foreign(session, own_domain):
    """Whether the entry was written in another pid namespace (or on another machine), where its
    pid says nothing about a process here."""
    return session.pid_domain is not None and own_domain is not None and session.pid_domain != own_domain


def socket_listens(path):
    """Whether a process accepts connections on the unix socket at path (a stale file is refused)."""
    import socket  # only for entries from another namespace: kept off every hook's start-up

    if not path or not hasattr(socket, "AF_UNIX"):
        return False
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(SOCKET_TIMEOUT_S)
    try:
        probe.connect(path)
        return True
    except OSError:
        return False
    finally:
        probe.close()


def is_fresh(session, now_ms, fresh_ms=FOREIGN_FRESH_MS):
    """Whether the entry was rewritten within fresh_ms of now."""
    return session.updated_at_ms is not None and now_ms - session.updated_at_ms <= fresh_ms


def is_alive(session, now_ms=None):
    """True when the session's process runs and, where it can be checked, is the same process.
    An entry from another pid namespace is judged by its socket and its last write instead."""
    return bool(alive([session], now_ms))


def alive(sessions, now_ms=None):
    """The live ones among sessions, asking the platform once about all their pids (on macOS one
    `ps` for every candidate)."""
    own_domain = own_pid_domain() if any(s.pid_domain is not None for s in sessions) else None
    foreign = [s for s in sessions if is_foreign(s, own_domain)]
    local = [s for s in sessions if not is_foreign(s, own_domain)]
    processes = platform.current().processes
    running = processes.running([s.pid for s in local]) if local else {}
    live = set()
    for session in local:
        if session.pid not in running:
            continue
        observed = running[session.pid]
        if session.proc_start is None or observed is None or processes.same_start(session.proc_start, observed):
            live.add(session)
    if foreign and now_ms is None:
        import time  # only for entries from another namespace

        now_ms = int(time.time() * 1000)
    live.update(s for s in foreign if socket_listens(s.messaging_socket) or is_fresh(s, now_ms))
    return [s for s in sessions if s in live]


def process_starts(pids):
    """{pid: start time in the client's procStart format, or None} of those pids that run."""
    return platform.current().processes.running(pids)


def live_sessions(home):
    return alive(read_sessions(home))


def ancestor_pids():
    """Pids of this process's ancestors (not itself)."""
    return frozenset(ancestor_chain())


def ancestor_chain():
    """This process's ancestors' pids, nearest (the parent) first."""
    return platform.ancestors()


def is_self(session, session_id, ancestors):
    """This hook's own session: the payload's id, or the registry entry of an ancestor process (a
    pid from another namespace is no ancestor of ours, whatever its number)."""
    if session_id is not None and session.session_id == session_id:
        return True
    return session.pid in ancestors and not is_foreign(session, own_pid_domain())


def own_ids(sessions, session_id, ancestors):
    """Every id this session goes by: the payload's, and its registry entry's (after /clear older
    builds keep the old one there)."""
    ids = {session_id} if session_id else set()
    ids.update(s.session_id for s in sessions if is_self(s, session_id, ancestors))
    return ids


def same_checkout(session, top, toplevel_cache):
    """Whether a session's cwd resolves to the given checkout toplevel (cached per cwd)."""
    if session.cwd not in toplevel_cache:
        toplevel_cache[session.cwd] = gitrepo.toplevel(session.cwd)
    return toplevel_cache[session.cwd] == top


def peers_in_checkout(home, top, self_session_id, ancestors=None, sessions=None):
    """Live sessions other than this one whose cwd lies in the checkout `top`.

    Ancestors are only looked up when some candidate is not already excluded by id, so the common
    case (every peer has another id and is not in our process tree) costs one ancestry lookup at most.
    """
    if top is None:
        return []
    cache = {}
    candidates = [
        s for s in (sessions if sessions is not None else read_sessions(home))
        if s.session_id != self_session_id and same_checkout(s, top, cache)
    ]
    candidates = alive(candidates)
    if not candidates:
        return []
    if ancestors is None:
        ancestors = ancestor_pids()
    return [s for s in candidates if not is_self(s, self_session_id, ancestors)]


def can_send(own, environ):
    """Whether this session can send SendMessage: its client says so in the hook's environment, or
    its registry entry (`own`) has a messaging socket. Before its entry exists (a late registry
    write), a client that sets no socket variable cannot (2.1.197 was told to message a peer it could
    not reach, in 3 of 8 e2e runs, while its entry was still unwritten)."""
    return bool(environ.get(MESSAGING_SOCKET_VARIABLE)) or (own is not None and own.can_message)


def own_entry(sessions, session_id, ancestors):
    """This session's registry entry, if any (by ancestry first: after /clear the id may be stale)."""
    for session in sessions:
        if session.pid in ancestors and not is_foreign(session, own_pid_domain()):
            return session
    for session in sessions:
        if session.session_id == session_id:
            return session
    return None

