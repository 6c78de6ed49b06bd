"""The warm guard's server: the library loaded once, one forked child per judged line.

A child starts from the server as it was when the library had loaded and nothing had run, so no
line sees another's state: it takes the request's folder, umask and whole environment (os.environ,
which peerhooks.oscalls hands out when os is loaded, and the C environment git is spawned with),
runs the guard through hookio.serve exactly as the hook process would, and writes back its exit
code, stdout and stderr. The server:

- answers only from a private folder (peerhooks.warm.place) and only requests written there by this
  user;
- declines (the door judges itself) while MAX_CHILDREN lines are being judged;
- ends when idle for IDLE_S, when its folder or pipe is no longer its own (another server took
  over, a test's temporary folder went), when SIGTERM or SIGHUP comes, and before answering with
  code that changed on disk since it loaded (an update, an edit of the checkout it runs from);
- never writes outside its folder, and removes what it made there when it ends.
"""
import gc
import io
import os
import select
import signal
import sys
import time

from . import pages, place, preload, wire

IDLE_S = 20 * 60.0  # sessions run shell commands every few seconds; a quiet machine frees its memory
CHECK_S = 1.0  # how often an idle server looks whether it should end
MAX_CHILDREN = 16  # judged at once; more is a burst the doors can take themselves
MAX_REQUEST_BYTES = 16 * 1024 * 1024  # an 8 MB payload line (doors.MAX_PAYLOAD_BYTES) and the environment
MAX_NAME_DIGITS = 12
HOOK_NAME = "git_index_guard"


class Ending(Exception):
    """SIGTERM or SIGHUP: unwind, remove what this server made, end."""


def main(scripts_folder, folder):
    """Serve until there is a reason to end; 0 whatever happens (nobody reads this process's
    code, and a failing server only means the doors judge lines themselves)."""
    try:
        os.setsid()  # its own session: the hook that started it, and its process group, end at once
    except OSError:
        pass
    os.chdir("/")
    uid = os.getuid()
    try:
        if not place.private_folder(folder, uid, os.lstat):
            return 0
        signal.signal(signal.SIGTERM, _ending)
        signal.signal(signal.SIGHUP, _ending)
        stamps = code_stamps(preload.load(scripts_folder))
        gc.collect()
        gc.freeze()  # children share the loaded library's pages: a collection would write to all of them
        gc.disable()
        Server(folder, uid, stamps).run()
    except Ending:
        pass
    except Exception:  # noqa: BLE001 - a server that cannot serve only ends
        pass
    finally:
        _remove(os.path.join(folder, place.STARTING))
    return 0


def _ending(signum, frame):
    raise Ending()


def _noted(signum, frame):
    """SIGCHLD: nothing to do in the handler; the wake-up pipe has woken the loop, which reaps."""


def _drain(descriptor):
    try:
        while os.read(descriptor, 4096):
            pass
    except BlockingIOError:
        pass


def code_stamps(module_names):
    """{source file: (mtime ns, size)} of the loaded modules of the package."""
    stamps = {}
    for name in module_names:
        path = getattr(sys.modules.get(name), "__file__", None)
        if path:
            stamps[path] = _stamp(path)
    return stamps


def _stamp(path):
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size


def code_changed(stamps):
    return any(_stamp(path) != stamp for path, stamp in stamps.items())


GO, STALE = b"1", b"0"  # the server's word to a child handed a request: the code on disk is (not) the code loaded


class Spare:
    """A child forked ahead of the next request (a fork of the loaded library costs ~1-2 ms, off
    the line's path this way), waiting on its control pipe for a request's name and then for the
    server's word that the code on disk is still the code loaded."""

    def __init__(self, pid, control):
        self.pid, self.control = pid, control


def fork_spare(folder, uid, touch_pages=True):
    """A child that waits for a request's name on its control pipe; touch_pages: it first takes its
    own copies of the pages a judgement writes (peerhooks.warm.pages), stopping when a name comes."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(write_end)
            _as_child()
            if touch_pages:
                pages.touch(pages.held_objects(list(sys.modules.values())),
                            lambda: bool(select.select([read_end], [], [], 0)[0]))
            name = _read_line(read_end)
            if name is not None:
                answer_request(os.path.join(folder, "a-" + name), os.path.join(folder, "q-" + name), uid,
                               lambda: os.read(read_end, 1) == GO)
        finally:
            os._exit(0)
    os.close(read_end)
    return Spare(pid, write_end)


def _as_child():
    """A child's signals as a hook process has them: the server's handlers and its wake-up pipe
    are the server's alone."""
    signal.set_wakeup_fd(-1)
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD):
        signal.signal(signum, signal.SIG_DFL)


def _read_line(descriptor):
    """A request's name from the control pipe (blocking: the server writes it whole), or None at
    its end (the server ended)."""
    data = b""
    while not data.endswith(b"\n") and len(data) <= MAX_NAME_DIGITS:
        chunk = os.read(descriptor, 1)
        if not chunk:
            return None
        data += chunk
    name = data[:-1]
    return name.decode() if name.isdigit() else None


class Server:
    def __init__(self, folder, uid, stamps):
        self.folder, self.uid, self.stamps = folder, uid, stamps
        self.pipe_path = os.path.join(folder, place.REQUESTS)
        self.children = set()  # handed a request, not yet reaped
        self.spare = None

    def run(self):
        reader, keeper, identity = self._listen()
        wake_reader, wake_writer = os.pipe()  # SIGCHLD writes here: a finished child wakes the loop
        for descriptor in (wake_reader, wake_writer):
            os.set_blocking(descriptor, False)
        signal.set_wakeup_fd(wake_writer)
        signal.signal(signal.SIGCHLD, _noted)
        pid_path = os.path.join(self.folder, place.PID)
        _write_file(pid_path, b"%d\n" % os.getpid())
        _remove(os.path.join(self.folder, place.STARTING))
        pending, last_request, last_check = b"", time.monotonic(), 0.0
        try:
            self._keep_spare()
            while True:
                ready = select.select([reader, wake_reader], [], [], CHECK_S)[0]
                now = time.monotonic()
                if wake_reader in ready:
                    _drain(wake_reader)
                if reader in ready:
                    data = os.read(reader, 65536)
                    names = (pending + data).split(b"\n")
                    pending = names.pop()[:MAX_NAME_DIGITS + 1]
                    for name in names:
                        if not self._serve(name):
                            return
                    last_request = now
                self._reap()
                if not self.children:  # a spare's touching would slow a line being judged
                    self._keep_spare()
                if now - last_check >= CHECK_S:
                    last_check = now
                    if now - last_request > IDLE_S or not self._still_ours(identity) or code_changed(self.stamps):
                        return
        finally:
            signal.set_wakeup_fd(-1)
            if self._still_ours(identity):
                _remove(self.pipe_path)
            _remove(pid_path)
            if self.spare is not None:
                os.close(self.spare.control)  # it reads the end and exits
            for descriptor in (reader, keeper, wake_reader, wake_writer):
                os.close(descriptor)

    def _listen(self):
        """The requests pipe, made under a name of its own and then put in place: a door that
        finds it finds a reader. The second descriptor keeps a writer open, so the pipe does not
        read as ended between two doors."""
        made = os.path.join(self.folder, "%s.%d" % (place.REQUESTS, os.getpid()))
        _remove(made)
        os.mkfifo(made, 0o600)
        reader = os.open(made, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
        keeper = os.open(made, os.O_WRONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
        status = os.fstat(reader)
        os.rename(made, self.pipe_path)
        return reader, keeper, (status.st_dev, status.st_ino)

    def _still_ours(self, identity):
        try:
            status = os.lstat(self.pipe_path)
        except OSError:
            return False
        return (status.st_dev, status.st_ino) == identity and place.private_folder(self.folder, self.uid, os.lstat)

    def _keep_spare(self, touch_pages=True):
        if self.spare is None and len(self.children) < MAX_CHILDREN:
            try:
                self.spare = fork_spare(self.folder, self.uid, touch_pages)
            except OSError:
                self.spare = None

    def _serve(self, name):
        """Hand the request `name` to the spare child (forked now if there is none); False when this
        server must end: its code changed on disk, so the child declines (the door judges the line,
        and starts a server with the new code)."""
        if not name.isdigit() or len(name) > MAX_NAME_DIGITS:
            return True
        if len(self.children) >= MAX_CHILDREN:
            _decline(os.path.join(self.folder, "a-" + name.decode()), self.uid)
            return True
        self._keep_spare(touch_pages=False)  # a line while another is judged: forked for it now
        spare, self.spare = self.spare, None
        if spare is None:
            _decline(os.path.join(self.folder, "a-" + name.decode()), self.uid)
            return True
        try:
            os.write(spare.control, name + b"\n")
            stale = code_changed(self.stamps)  # while the child reads the request
            os.write(spare.control, STALE if stale else GO)
        except OSError:  # the spare is gone (it can only have crashed): the door judges the line
            stale = False
            _decline(os.path.join(self.folder, "a-" + name.decode()), self.uid)
        finally:
            os.close(spare.control)
        self.children.add(spare.pid)
        return not stale

    def _reap(self):
        for pid in list(self.children):
            try:
                done, _status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done = pid
            if done:
                self.children.discard(pid)


def _open_answer_pipe(path, uid):
    """The door's answer pipe, opened without blocking (ENXIO: the door is gone), or None."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    if not place.is_own_pipe(os.fstat(descriptor), uid):
        os.close(descriptor)
        return None
    return descriptor


def _decline(answer_path, uid):
    descriptor = _open_answer_pipe(answer_path, uid)
    if descriptor is not None:
        try:
            os.write(descriptor, wire.DECLINED)
        except OSError:
            pass
        os.close(descriptor)


def answer_request(answer_path, request_path, uid, go):
    """In the child: read the request, and once go() says the code is current, accept, judge it as
    its hook process would and write the answer; decline whatever stops that before the accept (the
    door holds its pipe open, so it would otherwise wait for ACCEPT_S)."""
    descriptor = _open_answer_pipe(answer_path, uid)
    if descriptor is None:
        return
    try:
        request = read_request(request_path, uid)
        hook = _guard_hook()
        streams = taken_on(request) if request is not None and hook is not None else None
        if streams is None or not go():
            os.write(descriptor, wire.DECLINED)
            return
        os.write(descriptor, wire.ACCEPTED)
        code, stdout, stderr = judged(hook, request, streams)
        os.set_blocking(descriptor, True)
        view = memoryview(wire.encode_answer(code, stdout, stderr))
        while view:
            view = view[os.write(descriptor, view):]
    except Exception:  # noqa: BLE001 - after the accept: the door waits ANSWER_S, then judges itself
        pass
    finally:
        os.close(descriptor)


def read_request(path, uid):
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        status = os.fstat(descriptor)
        if not place.is_own_file(status, uid) or status.st_size > MAX_REQUEST_BYTES:
            return None
        chunks, size = [], 0
        while size <= MAX_REQUEST_BYTES:
            chunk = os.read(descriptor, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(descriptor)
    return wire.decode_request(b"".join(chunks)) if size <= MAX_REQUEST_BYTES else None


def taken_on(request):
    """Make this child the request's process: its folder, umask, environment and clock zone, and
    stdout and stderr that encode as its did; the two byte buffers they write to, or None when the
    request cannot be taken on (its folder is gone, an encoding this Python lacks)."""
    try:
        out, err = io.BytesIO(), io.BytesIO()
        stdout = io.TextIOWrapper(out, encoding=request.stdout_encoding, errors=request.stdout_errors,
                                  write_through=True)
        stderr = io.TextIOWrapper(err, encoding=request.stderr_encoding, errors=request.stderr_errors,
                                  write_through=True)
        os.chdir(request.cwd)
    except (OSError, LookupError, ValueError):
        return None
    os.umask(request.umask)
    os.environ.clear()
    os.environ.update(request.environ)
    if hasattr(time, "tzset"):
        time.tzset()  # the hook's clock zone, as its TZ says
    sys.stdout, sys.stderr = stdout, stderr
    sys.argv = [sys.argv[0]] + request.argv
    return out, err


def _guard_hook():
    """(hookio, hook_git_guard), or None when the library does not load: the door then says so in
    its own words (doors.cannot_load), as it would have without a server."""
    try:
        from .. import hook_git_guard, hookio
    except Exception:  # noqa: BLE001 - whatever it is, the door's own load reports it
        return None
    return hookio, hook_git_guard


def judged(hook, request, streams):
    """(code, stdout bytes, stderr bytes) of the guard run as the request's process would run it
    (hookio.serve: fail-open, it never raises)."""
    hookio, hook_git_guard = hook
    code = hookio.serve(HOOK_NAME, hook_git_guard.run, request.argv, raw=request.raw)
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    out, err = streams
    return code, out.getvalue(), err.getvalue()


def _write_file(path, data):
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        os.write(descriptor, data)
    finally:
        os.close(descriptor)


def _remove(path):
    try:
        os.unlink(path)
    except OSError:
        pass
