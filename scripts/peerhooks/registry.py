"""The live-session registry: `sessions/<pid>.json` under the Claude home, one file per session.

A file outlives its session after a crash, and pids get reused, so a registry entry is live only if
its pid runs *and* (where Linux tells us) the process started when the registry says it did.
A pid means something only in the pid namespace it was read in: since 2.1.332 an entry says which
(`pidDomain`, `linux:<machine id>:pid:[<namespace inode>]`), and an entry written from another
namespace (a container sharing ~/.claude) is judged without its pid: alive while its messaging
socket accepts a connection, else while its `updatedAt` is recent (see docs/clients.md).
A session must never count itself as a peer: after `/clear` older builds keep the old session id in
the registry, so besides the payload's id we recognise our own entry by its pid being an ancestor of
the hook process.
"""
import os
import sys

from . import gitrepo
from .claude_formats import (MAX_REGISTRY_BYTES, MESSAGING_SOCKET_VARIABLE, REGISTRY_FOLDER, REGISTRY_SUFFIX,
                             is_registry_name, short_id)
from .jsonfast import loads
from .records import record
from .safefiles import read_regular

PROC = "/proc"
MACHINE_ID = "/etc/machine-id"  # 2.1.332's pidDomain names the machine by this id
# A foreign entry without a reachable socket counts as live this long after its last registry
# write: the client rewrites `updatedAt` on every status change (busy, idle), not while idle.
FOREIGN_FRESH_MINUTES = 10
FOREIGN_FRESH_MS = FOREIGN_FRESH_MINUTES * 60 * 1000
SOCKET_TIMEOUT_S = 0.2  # a listening socket answers connect() at once; a stale one is refused at once


# pid (int), session_id, cwd and name (str) are always there; every other field may be None.
_SessionFields = record("Session", [
    "pid", "session_id", "cwd", "name",
    "status", "started_at_ms", "updated_at_ms", "kind", "entrypoint", "version",
    "proc_start",  # a str of /proc/<pid>/stat's start time, to tell a reused pid
    # 2.1.332+: the socket another session's SendMessage reaches; absent where messaging does not work
    "messaging_socket",
    # 2.1.332+: `linux:<boot id>:pid:[<pid namespace>]`, the namespace the pid means something in
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
    cwd = _str_or_none(data.get("cwd"))
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
    return os.path.join(home, REGISTRY_FOLDER, "%d%s" % (pid, REGISTRY_SUFFIX))


def read_sessions(home):
    """Every well-formed registry entry, live or not. Each file costs only itself: one that is
    not a regular file (a FIFO named `<pid>.json` would block a plain open until a writer came)
    or is a symlink (the client writes none) is not opened for reading, and one that is too big,
    not UTF-8, not JSON or nested too deep (jsonfast.TooDeep) is skipped."""
    folder = os.path.join(home, REGISTRY_FOLDER)
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    sessions = []
    for name in sorted(names):
        if not is_registry_name(name):
            continue
        try:
            raw = read_regular(os.path.join(folder, name), MAX_REGISTRY_BYTES + 1, follow_symlinks=False)
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


def _proc_stat_fields(pid):
    """Fields 3.. of /proc/<pid>/stat (after the parenthesised command name), or None."""
    try:
        with open("%s/%d/stat" % (PROC, pid), "rb") as handle:
            raw = handle.read().decode("ascii", errors="replace")
    except OSError:
        return None
    close = raw.rfind(")")
    if close < 0:
        return None
    return raw[close + 2:].split()


def proc_start_of(pid):
    """The start time of a process as Claude Code writes it in `procStart` (field 22 of
    /proc/<pid>/stat), or None where there is no /proc or the process is gone."""
    fields = _proc_stat_fields(pid)
    return fields[19] if fields is not None and len(fields) >= 20 else None


def _alive_windows(pid):
    """Windows: ask the kernel; os.kill(pid, 0) would send Ctrl+C to the process there."""
    import ctypes  # only reached on Windows

    process_query_limited_information = 0x1000
    still_active = 259
    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    handle = kernel32.OpenProcess(process_query_limited_information, False, pid)
    if not handle:
        return False
    try:
        code = ctypes.c_ulong()
        if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
            return False
        return code.value == still_active
    finally:
        kernel32.CloseHandle(handle)


_OWN_DOMAIN = []  # computed once per process: [domain or None]


def own_pid_domain():
    """This process's pidDomain in the client's format, or None where it cannot be told (not Linux)."""
    if not _OWN_DOMAIN:
        try:
            with open(MACHINE_ID, encoding="ascii") as handle:
                machine = handle.read().strip()
            _OWN_DOMAIN.append("linux:%s:%s" % (machine, os.readlink(PROC + "/self/ns/pid")) if machine else None)
        except (OSError, ValueError):
            _OWN_DOMAIN.append(None)
    return _OWN_DOMAIN[0]


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
    if session.pid_domain is not None and is_foreign(session, own_pid_domain()):
        if now_ms is None:
            import time  # only for entries from another namespace

            now_ms = int(time.time() * 1000)
        return socket_listens(session.messaging_socket) or is_fresh(session, now_ms)
    if os.path.isdir(PROC):
        fields = _proc_stat_fields(session.pid)
        if fields is None:
            return False
        if fields[0] in ("Z", "X"):  # exited but not yet reaped
            return False
        if session.proc_start is not None and session.proc_start.isdigit() and len(fields) >= 20:
            return fields[19] == session.proc_start
        return True
    if sys.platform == "win32":
        return _alive_windows(session.pid)
    try:
        os.kill(session.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by someone else
    except OSError:
        return False
    return True


def live_sessions(home):
    return [session for session in read_sessions(home) if is_alive(session)]


def _parent_pid(pid):
    fields = _proc_stat_fields(pid)
    if fields is None or len(fields) < 2:
        return None
    try:
        return int(fields[1])
    except ValueError:
        return None


# A hook runs a few processes below its session (claude -> sh -> python); the bound only stops a loop.
MAX_ANCESTRY = 64


def ancestor_pids():
    """Pids of this process's ancestors (not itself). Linux reads /proc; elsewhere only the parent
    and, through `ps`, its ancestors."""
    return frozenset(ancestor_chain())


def ancestor_chain():
    """This process's ancestors' pids, nearest (the parent) first."""
    if os.path.isdir(PROC):
        return _walk_up(_parent_pid)
    return _ancestors_from_ps()


def _walk_up(parent_of):
    chain = []
    pid = os.getppid()
    while pid and pid > 1 and pid not in chain and len(chain) < MAX_ANCESTRY:
        chain.append(pid)
        pid = parent_of(pid)
    return chain


def _ancestors_from_ps():
    import subprocess

    try:
        out = subprocess.run(
            ["ps", "-A", "-o", "pid=,ppid="], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL, timeout=2,
        ).stdout.decode("ascii", errors="replace")
    except (OSError, subprocess.SubprocessError):
        return [os.getppid()]
    parents = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
            parents[int(parts[0])] = int(parts[1])
    return _walk_up(lambda pid: parents.get(pid, 0))


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
    case (every peer has another id and is not in our process tree) costs one /proc walk at most.
    """
    if top is None:
        return []
    cache = {}
    candidates = [
        s for s in (sessions if sessions is not None else read_sessions(home))
        if s.session_id != self_session_id and same_checkout(s, top, cache)
    ]
    candidates = [s for s in candidates if is_alive(s)]
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

