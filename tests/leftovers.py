"""Nothing a test run makes outlives it: no temporary files, no processes, no tmux servers, also
when a test fails or the run is interrupted (Ctrl-C, SIGTERM, SIGHUP) or killed (SIGKILL).

Runs of the e2e tests once left tmux servers with live Claude Code sessions for 22 to 85 minutes,
and an interrupted unit run left its `sleep` peers and temporary homes behind: a test's cleanups
run only when the test ends by itself (unittest lets KeyboardInterrupt through without them), and
a tmux server detaches from the run by design. So the run as a whole is guarded here, by one mark
that everything it starts carries:

- `start()` gives the run its own temporary folder and points TMPDIR (and `tempfile`) at it, so
  every temporary folder of the run, and of every process it starts, lies inside it, and every
  process it starts (hooks, git, the fixtures' `sleep` peers, Claude Code, Codex, tmux servers and
  the sessions in them) carries that folder in its environment;
- at exit, `sweep()` ends each process of this user whose environment or working folder names the
  run's folder (SIGTERM, then SIGKILL after a grace), ends this run's tmux servers (their sockets
  are named `peerhooks-e2e-<runner pid>-…`, tests/e2e/claude_cli.py) and removes the folder;
- SIGTERM and SIGHUP are turned into KeyboardInterrupt, so that a terminated run unwinds as an
  interrupted one does and reaches the exit sweep;
- a watchdog process (this file run as a script, in a session of its own, so that Ctrl-C in the
  terminal does not end it first) polls for the runner's end and sweeps after a runner that could
  not: one killed with SIGKILL.

Processes are found through /proc (Linux, where the suite runs in CI); elsewhere only the tmux
servers and the folder are swept, and the tests' own cleanups end their processes.
"""
import atexit
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

RUN_PREFIX = "peerhooks-tests-"
TMUX_SOCKET_PREFIX = "peerhooks-e2e-%d-"  # % the runner's pid: claude_cli.Sandbox names its servers so
GRACE_S = 5.0  # after SIGTERM, how long a process gets before SIGKILL
POLL_S = 0.1
WATCH_POLL_S = 0.5  # how often the watchdog looks whether the runner is still there

_run = {}  # folder, watchdog: set once by start()


def start():
    """Guard this run (idempotent): its own TMPDIR, the exit sweep, the signals, the watchdog."""
    if _run:
        return _run["folder"]
    outer = tempfile.gettempdir()
    folder = os.path.realpath(tempfile.mkdtemp(prefix=RUN_PREFIX, dir=outer))
    _run["folder"] = folder
    atexit.register(_end)  # before anything is made in it
    os.environ["TMPDIR"] = folder
    tempfile.tempdir = folder
    for signum in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if signum is not None and signal.getsignal(signum) == signal.SIG_DFL:
            signal.signal(signum, _interrupt)
    if os.path.isdir("/proc"):
        _run["watchdog"] = subprocess.Popen(
            [sys.executable, "-S", os.path.abspath(__file__), str(os.getpid()), folder],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=dict(os.environ, TMPDIR=outer),
            start_new_session=True)
    return folder


def _interrupt(signum, frame):
    raise KeyboardInterrupt("signal %d" % signum)


def _end():
    """The exit sweep in the runner itself, then the watchdog is told it has nothing left to do."""
    watchdog = _run.get("watchdog")
    spared = {watchdog.pid} if watchdog is not None else set()
    sweep(os.getpid(), _run["folder"], spared)
    if watchdog is not None:
        watchdog.terminate()
        watchdog.wait()


# -- the sweep (the runner at exit, or the watchdog after it) ------------------------------------

def sweep(runner, folder, spared=()):
    """End this run's tmux servers and processes and remove its folder; what was ended, counted."""
    servers = _end_tmux_servers(runner)
    ended = _end_processes(folder, set(spared) | {os.getpid(), runner})
    shutil.rmtree(folder, ignore_errors=True)
    return servers, ended


def _tmux_socket_folder():
    return os.path.join(os.environ.get("TMUX_TMPDIR") or "/tmp", "tmux-%d" % os.getuid())


def _end_tmux_servers(runner):
    folder = _tmux_socket_folder()
    try:
        names = [n for n in os.listdir(folder) if n.startswith(TMUX_SOCKET_PREFIX % runner)]
    except OSError:
        return 0
    for name in names:
        try:
            subprocess.run(["tmux", "-L", name, "kill-server"], stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=10)
        except (OSError, subprocess.SubprocessError):
            pass
        try:
            os.unlink(os.path.join(folder, name))  # tmux 3.3 leaves a killed server's socket
        except OSError:
            pass
    return len(names)


def marked_processes(folder, spared):
    """Pids of this user's processes whose environment or working folder names `folder`."""
    mark = folder.encode()
    found = []
    try:
        pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return found
    for pid in pids:
        if pid in spared or not running(pid):
            continue
        try:
            with open("/proc/%d/environ" % pid, "rb") as handle:
                environment = handle.read()
            cwd = os.readlink("/proc/%d/cwd" % pid)
        except OSError:  # gone, or another user's
            continue
        if mark in environment or cwd == folder or cwd.startswith(folder + os.sep):
            found.append(pid)
    return found


def _end_processes(folder, spared):
    pids = marked_processes(folder, spared)
    for pid in pids:
        _signal(pid, signal.SIGTERM)
    deadline = time.monotonic() + GRACE_S
    while any(running(pid) for pid in pids) and time.monotonic() < deadline:
        _reap()
        time.sleep(POLL_S)
    for pid in pids:
        if running(pid):
            _signal(pid, signal.SIGKILL)
    _reap()
    return len(pids)


def _signal(pid, signum):
    try:
        os.kill(pid, signum)
    except OSError:
        pass


def _reap():
    """Collect our own children that ended (a zombie is gone for every purpose but the table)."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


def running(pid):
    """Whether pid runs (a zombie, ended but not yet collected, does not)."""
    try:
        with open("/proc/%d/stat" % pid, "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] not in (b"Z", b"X")
    except (OSError, IndexError):
        return False


def watch(runner, folder):
    """The watchdog: wait until the runner is gone (it is our parent), then sweep after it."""
    while os.getppid() == runner:
        time.sleep(WATCH_POLL_S)
    servers, ended = sweep(runner, folder)
    if servers or ended:
        sys.stderr.write("peerhooks tests: the run %d ended without its cleanup; ended %d processes and "
                         "%d tmux servers it left, removed %s\n" % (runner, ended, servers, folder))


if __name__ == "__main__":
    watch(int(sys.argv[1]), sys.argv[2])
