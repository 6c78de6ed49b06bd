"""Shared test helpers: run a hook as Claude Code does (a subprocess, payload on stdin), temp homes."""
import contextlib
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(REPO, "scripts")
for path in (REPO, SCRIPTS):
    if path not in sys.path:
        sys.path.insert(0, path)

from fixtures import claudehome, platforms  # noqa: E402
from fixtures.claudehome import ClaudeHome, make_repo  # noqa: E402,F401
import leftovers  # noqa: E402

# Every temporary folder and process of the run is marked and swept at its end, interrupted or
# not (see leftovers); before any test makes one.
leftovers.start()

from peerhooks import platform  # noqa: E402

# The platform whose client the suite plays (PEERHOOKS_SIMULATE_PLATFORM, fixtures/platforms.py):
# the library in this process answers as that platform, hooks run as processes through
# fixtures/simulate.py, and a payload's paths are written as that client writes them.
SIMULATED = platforms.selected()
if SIMULATED != "linux":
    platform.install(platforms.simulated(SIMULATED))

SCRIPT_TIMEOUT = 60
# As install.py registers the hooks: `-S` skips site, whose .pth files cost more here than a hook.
PYTHON = [sys.executable, "-S"]
# Hook runs happen in this process unless PEERHOOKS_TEST_PROCESSES=1: a process costs ~20 ms of
# start-up and imports per run, most of the unit suite's time. The front door's own main() runs
# either way, on the same stdin bytes, environment and folder; test_front_doors, the e2e tests and
# CI's second pass (.ci/run) run every script as the real process Claude Code starts.
IN_PROCESS = os.environ.get("PEERHOOKS_TEST_PROCESSES") != "1"


@contextlib.contextmanager
def playing(name):
    """The suite as the client of `name` (linux, darwin, win32) for the block, whatever the run's
    PEERHOOKS_SIMULATE_PLATFORM: fixtures write that build's files, the library answers as that
    platform, hooks run through the launcher."""
    global SIMULATED
    saved = SIMULATED, claudehome.CLIENT, platform.current()
    SIMULATED = claudehome.CLIENT = name
    platform.install(platforms.simulated(name))
    try:
        yield
    finally:
        SIMULATED, claudehome.CLIENT = saved[:2]
        platform.install(saved[2])


def payload_bytes(payload):
    if payload is None:
        return b""
    if isinstance(payload, bytes):
        return payload
    if isinstance(payload, str):
        return payload.encode("utf-8")
    return (json.dumps(client_payload(payload)) + "\n").encode("utf-8")


def client_payload(payload):
    """A payload with its paths as the simulated client writes them (native on Windows)."""
    if SIMULATED == "linux" or not isinstance(payload, dict):
        return payload
    spelled = {k: platforms.native(SIMULATED, v) if k in ("cwd", "transcript_path") and isinstance(v, str)
               and v.startswith("/") else v for k, v in payload.items()}
    tool_input = spelled.get("tool_input")
    if isinstance(tool_input, dict):  # an edit tool's file, written natively too
        spelled["tool_input"] = {k: platforms.native(SIMULATED, v) if k in ("file_path", "notebook_path")
                                 and isinstance(v, str) and v.startswith("/") else v for k, v in tool_input.items()}
    return spelled


def shell_path(path):
    """A local folder as a command line in the Bash tool spells it (Git Bash's `/c/tmp/x` on Windows)."""
    return platform.current().paths.shell_spelling(path)


def script_command(script_name):
    """How a hook script of scripts/ is started (see started)."""
    return started(os.path.join(SCRIPTS, script_name))


def started(script):
    """How a hook script is started: `python3 -S <script>`, through the simulation's launcher
    when the suite plays another platform."""
    if SIMULATED == "linux":
        return PYTHON + [script]
    return PYTHON + [os.path.join(REPO, "fixtures", "simulate.py"), SIMULATED, script]


def as_started(words):
    """A `<python> -S <script> …` command line a hook printed, started as this suite starts hooks
    (through the simulation's launcher when it plays another platform)."""
    if SIMULATED == "linux" or len(words) < 3 or words[1] != "-S":
        return list(words)
    return PYTHON + [os.path.join(REPO, "fixtures", "simulate.py"), SIMULATED] + list(words[2:])


def run_script(script_name, payload, env, cwd=None, args=(), timeout=SCRIPT_TIMEOUT, process=False):
    """Run scripts/<script_name> with the payload as one stdin line; stdout/stderr as text.

    process=True always starts a real process: for a run that may block (a FIFO) and must be
    bounded by `timeout`, or whose subject is the process itself (locale, exit, start-up)."""
    if IN_PROCESS and not process:
        return _run_in_process(script_name, payload_bytes(payload), env, cwd, list(args))
    completed = subprocess.run(
        script_command(script_name) + list(args),
        input=payload_bytes(payload), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=env, cwd=cwd, timeout=timeout,
    )
    completed.stdout = completed.stdout.decode("utf-8", errors="replace")
    completed.stderr = completed.stderr.decode("utf-8", errors="replace")
    return completed


_loaded_scripts = {}


def load_script(path):
    """A script loaded once as a module (not as __main__, so its main() returns its exit code)."""
    if path not in _loaded_scripts:
        saved_path = list(sys.path)  # install.py puts its checkout on sys.path when loaded
        name = "script_%d_%s" % (len(_loaded_scripts), os.path.basename(path)[:-3])
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        finally:
            sys.path[:] = saved_path
        _loaded_scripts[path] = module
    return _loaded_scripts[path]


def _set_environment(wanted):
    """os.environ made equal to `wanted`, touching only the variables that differ (each change is
    a putenv: clearing and refilling the whole environment cost ~1 s over the suite)."""
    for name in [name for name in os.environ if name not in wanted]:
        del os.environ[name]
    for name, value in wanted.items():
        if os.environ.get(name) != value:
            os.environ[name] = value


def run_main_in_process(main, args, env, cwd, stdin_bytes=b""):
    """main(args) with this process's stdin, stdout, stderr, environment, folder and sys.path
    swapped for the run's and given back after it, as a CompletedProcess with text output."""
    saved = (sys.stdin, sys.stdout, sys.stderr, dict(os.environ), os.getcwd(), list(sys.path))
    out, err = io.BytesIO(), io.BytesIO()
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin_bytes), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    _set_environment(env if env is not None else saved[3])
    try:
        if cwd:
            os.chdir(cwd)
        code = main(args)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        stdout, stderr = out.getvalue(), err.getvalue()  # before the wrappers, collected, close them
        sys.stdin, sys.stdout, sys.stderr = saved[:3]
        _set_environment(saved[3])
        os.chdir(saved[4])
        sys.path[:] = saved[5]
    return subprocess.CompletedProcess(args, code, stdout.decode("utf-8", "replace"), stderr.decode("utf-8", "replace"))


def _run_in_process(script_name, stdin_bytes, env, cwd, args):
    return run_main_in_process(load_script(os.path.join(SCRIPTS, script_name)).main, args, env, cwd, stdin_bytes)


class HomeTestCase(unittest.TestCase):
    """A temporary HOME with a Claude home, a scratch folder, and cleanup of live processes."""

    def setUp(self):
        self.tmp = os.path.realpath(tempfile.mkdtemp(prefix="peerhooks-test-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.claude = ClaudeHome(os.path.join(self.tmp, "userhome"))
        self.addCleanup(self.claude.close)

    def repo(self, name="repo", files=None):
        return make_repo(os.path.join(self.tmp, name), files)

    def run_hook(self, script, payload, args=(), cwd=None, process=False, **env):
        return run_script(script, payload, self.claude.env(**env), cwd=cwd or self.tmp, args=args,
                          process=process)
