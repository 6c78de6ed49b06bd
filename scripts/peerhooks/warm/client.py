"""The front door's side of the warm guard: hand a judged line to this install's server and wait
for its answer, or say None at once so that the door judges the line itself.

It runs on every judged `git …` line before the library loads, so it uses built-in modules only
(posix, _signal, time, sys) and costs little where it saves nothing: two lstats and one open when
no server runs, then a start of one (a spawn, ~1 ms) at most once per START_AGAIN_S. Nothing here
blocks: every open is non-blocking, and the one read that waits, for the answer, is ended by a
timer.
"""
import sys
import time

import _signal  # built in (the `signal` module imports enum)
import posix

from . import place, wire

# The server hands the name to its spare child at once, which reads the request and accepts within
# a millisecond or two; a server that has not in this long is stopped, swapped or overloaded.
ACCEPT_S = 1.0
# Once accepted the child judges under the guard's own bounds (each git call 0.4 s, each read
# bounded), as the door itself would: past this something is wrong, and the door judges again.
ANSWER_S = 10.0
READ_BYTES = 65536
# A front door that finds no server starts one unless another did so this recently: the start is
# under way (loading the library takes ~50 ms), or it failed and is not retried on every line.
START_AGAIN_S = 10.0
# The server, started with the door's interpreter: argv is [-c, scripts folder, server folder].
SERVER_CODE = ("import sys; sys.path.insert(0, sys.argv[1]); from peerhooks.warm import server; "
               "raise SystemExit(server.main(sys.argv[1], sys.argv[2]))")
_FLAGS = getattr(posix, "O_NOFOLLOW", 0) | getattr(posix, "O_CLOEXEC", 0)


# What a hook process has loaded of the library when its door hands a line over; a process that
# loaded more (a test, a simulated platform, a caller that set the library up its own way) judges
# the line itself: a server's library is the one on disk, as it loads.
DOOR_MODULES = frozenset(["peerhooks", "peerhooks.doors", "peerhooks.guard_readonly", "peerhooks.warm",
                          "peerhooks.warm.client", "peerhooks.warm.place", "peerhooks.warm.wire"])


def wanted(environ, flags, xoptions, loaded):
    """Whether a judged line goes to the server: not under PEERHOOKS_WARM=off, not in a run that
    reports its imports (-X importtime, PYTHONPROFILEIMPORTTIME), which tests and bench/run.py count
    to see what a judged line loads in its own process, and only from a process that has loaded
    nothing of the library but its door (loaded: the names in sys.modules)."""
    if environ.get(b"PEERHOOKS_WARM", b"").strip().lower() in (b"off", b"0", b"no", b"false"):
        return False
    if any(name.startswith("peerhooks") and name not in DOOR_MODULES for name in loaded):
        return False
    if xoptions.get("importtime") or (environ.get(b"PYTHONPROFILEIMPORTTIME") and not flags.ignore_environment):
        return False
    return all(hasattr(posix, call) for call in ("mkfifo", "fork", "posix_spawn"))


def folder_of(scripts_folder, environ, uid):
    """(the user's folder of servers, this install's folder in it)."""
    user_root = place.root(environ.get(b"TMPDIR"), uid)
    return user_root, user_root + "/" + place.key(scripts_folder, sys.executable, sys.hexversion)


def answer(raw, argv, scripts_folder):
    """(exit code, stdout bytes, stderr bytes) from this install's server, or None: the caller then
    judges the line itself (and a server is started for the next line when none is running)."""
    uid = posix.getuid()
    user_root, folder = folder_of(scripts_folder, posix.environ, uid)
    if not (place.private_folder(user_root, uid, posix.lstat) and place.private_folder(folder, uid, posix.lstat)):
        start(user_root, folder, scripts_folder, uid)
        return None
    try:
        requests = posix.open(folder + "/" + place.REQUESTS, posix.O_WRONLY | posix.O_NONBLOCK | _FLAGS)
    except OSError:  # no pipe, or no server reading it (ENXIO): none is running
        start(user_root, folder, scripts_folder, uid)
        return None
    try:
        if not place.is_own_pipe(posix.fstat(requests), uid):
            return None
        return _asked(requests, folder, raw, argv)
    except OSError:
        return None
    finally:
        posix.close(requests)


def _asked(requests, folder, raw, argv):
    name = "%d" % posix.getpid()
    answer_path, request_path = folder + "/a-" + name, folder + "/q-" + name
    for stale in (answer_path, request_path):  # a process of this pid that died asking
        _unlink(stale)
    posix.mkfifo(answer_path, 0o600)
    try:
        reply = posix.open(answer_path, posix.O_RDONLY | posix.O_NONBLOCK | _FLAGS)
        # A writer of our own: the pipe never reads as ended before the child opens it, so the read
        # below can block (and wake the moment the answer comes) rather than poll.
        keeper = posix.open(answer_path, posix.O_WRONLY | posix.O_NONBLOCK | _FLAGS)
        try:
            _write_request(request_path, raw, argv)
            try:
                posix.write(requests, name.encode() + b"\n")  # under PIPE_BUF: whole or not at all
            except BlockingIOError:  # the server is behind by a pipe's worth of names
                return None
            posix.set_blocking(reply, True)
            return _awaited(reply)
        finally:
            posix.close(keeper)
            posix.close(reply)
    finally:
        _unlink(answer_path)
        _unlink(request_path)


def _write_request(path, raw, argv):
    umask = posix.umask(0o077)
    posix.umask(umask)
    streams = tuple((getattr(s, "encoding", None) or "utf-8", getattr(s, "errors", None) or "strict")
                    for s in (sys.stdout, sys.stderr))
    data = wire.encode_request(posix.getcwd(), umask, streams, argv, posix.environ, raw)
    descriptor = posix.open(path, posix.O_WRONLY | posix.O_CREAT | posix.O_EXCL | _FLAGS, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[posix.write(descriptor, view):]
    finally:
        posix.close(descriptor)


class _Late(Exception):
    """The interval timer rang: the server has not accepted, or its child has not answered, in time."""


def _ring(signum, frame):
    raise _Late()


def _awaited(reply):
    """The answer on the pipe, or None: declined, not accepted within ACCEPT_S or not whole within
    ANSWER_S. The reads block; SIGALRM from an interval timer ends a wait that is too long (the
    hook's process is ours alone: nothing else sets that timer)."""
    previous = _signal.signal(_signal.SIGALRM, _ring)
    try:
        _signal.setitimer(_signal.ITIMER_REAL, ACCEPT_S)
        received, accepted = bytearray(), False
        while True:
            chunk = posix.read(reply, READ_BYTES)
            if not chunk:
                return None
            received += chunk
            if not accepted:
                if received[:1] != wire.ACCEPTED:
                    return None
                accepted = True
                del received[:1]
                _signal.setitimer(_signal.ITIMER_REAL, ANSWER_S)
            whole = wire.decode_answer(bytes(received))
            if whole is not None:
                return whole
    except (_Late, ValueError):
        return None
    finally:
        _signal.setitimer(_signal.ITIMER_REAL, 0)
        _signal.signal(_signal.SIGALRM, previous)


def start(user_root, folder, scripts_folder, uid):
    """Start this install's server in the background, unless one was started in the last
    START_AGAIN_S or its folders cannot be made private. Its stdio is /dev/null: Claude Code waits
    for the hook's stdout to close, and the server outlives the hook."""
    for path in (user_root, folder):
        try:
            posix.mkdir(path, 0o700)
        except FileExistsError:
            pass
        except OSError:
            return
        if not place.private_folder(path, uid, posix.lstat):
            return
    if not _claim_start(folder + "/" + place.STARTING):
        return
    null = posix.open("/dev/null", posix.O_RDWR | getattr(posix, "O_CLOEXEC", 0))
    argv = [sys.executable, "-S", "-c", SERVER_CODE, scripts_folder, folder]
    actions = [(posix.POSIX_SPAWN_DUP2, null, 0), (posix.POSIX_SPAWN_DUP2, null, 1), (posix.POSIX_SPAWN_DUP2, null, 2)]
    try:
        try:  # a session of its own from the start: a client that ends the hook's process group spares it
            posix.posix_spawn(sys.executable, argv, posix.environ, file_actions=actions, setsid=True)
        except NotImplementedError:  # no POSIX_SPAWN_SETSID here: the server calls setsid itself
            posix.posix_spawn(sys.executable, argv, posix.environ, file_actions=actions)
    except (OSError, AttributeError, NotImplementedError):
        pass
    finally:
        posix.close(null)


def _claim_start(marker):
    """Whether this door is the one to start a server now (it made the marker, or took over one
    older than START_AGAIN_S)."""
    for _attempt in range(2):
        try:
            posix.close(posix.open(marker, posix.O_WRONLY | posix.O_CREAT | posix.O_EXCL | _FLAGS, 0o600))
            return True
        except FileExistsError:
            try:
                if time.time() - posix.lstat(marker).st_mtime < START_AGAIN_S:
                    return False
                posix.unlink(marker)
            except OSError:
                return False
        except OSError:
            return False
    return False


def _unlink(path):
    try:
        posix.unlink(path)
    except OSError:
        pass
