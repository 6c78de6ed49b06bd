"""The hook contract in one place: the payload in, the outcome out, and the fail-open rule.

Every front door in scripts/ is the same few lines: `serve(name, run, argv)` reads the payload once,
calls `run(payload, argv, environ, now)` from the hook's library module, writes the Outcome it
returns, and gives back the exit code. Only this module writes to stdout and stderr.

Claude Code reads exit code 2 from a hook as "block" (and on UserPromptSubmit it erases the user's
prompt), so nothing here may ever end a process with 2 unless the hook meant to refuse. Any error
becomes exit 0 with one line on stderr; PEERHOOKS_DEBUG=1 shows the whole traceback instead.
The payload is decoded by jsonfast (json's own C scanner without `import json`, which costs about
the interpreter's whole start-up under -S), and only when there is one: the guard's front door reads
the raw line first and returns before any decoding when the command cannot involve git.
"""
import gc
import sys
import time

from .platform import current
from .startup import oscalls
from .startup.jsonfast import loads

# The payload is one JSON line. A cap keeps a runaway producer from making us buffer gigabytes.
MAX_PAYLOAD_BYTES = 8 * 1024 * 1024

EXIT_OK = 0
EXIT_USAGE = 1  # by-hand modes only (peers.py); a hook never returns it
EXIT_REFUSE = 2


class Payload:
    """The fields of a hook payload that peerhooks reads, each None unless a non-empty string.

    Seen on 2.1.197 and 2.1.332: SessionStart has session_id, transcript_path, cwd, source;
    UserPromptSubmit adds prompt; PreToolUse adds tool_name and tool_input (Bash's command, an
    edit tool's file_path), and for a subagent's tool call agent_id and agent_type (the
    session_id and transcript_path stay the parent session's:
    fixtures/samples/*/hook-PreToolUse-Bash-interactive.json). tool_input is the object as sent
    (None when there is none); command is its `command` string (Codex's apply_patch puts the
    patch there: fixtures/samples/codex-0.171/hook-PreToolUse-apply_patch.json). The paths (cwd,
    transcript_path) are kept in this process's spelling, None unless absolute: on Windows the
    client writes them natively (`C:\\Users\\me\\repo`).
    """
    __slots__ = ("session_id", "cwd", "source", "prompt", "transcript_path", "tool_name", "agent_id",
                 "agent_type", "tool_input", "command")

    def __init__(self, data=None):
        data = data if isinstance(data, dict) else {}
        for field in self.__slots__[:-2]:
            setattr(self, field, _text(data.get(field)))
        if self.cwd or self.transcript_path:
            paths = _paths()
            self.cwd, self.transcript_path = paths.local(self.cwd), paths.local(self.transcript_path)
        tool_input = data.get("tool_input")
        self.tool_input = tool_input if isinstance(tool_input, dict) else None
        self.command = _text(tool_input.get("command")) if isinstance(tool_input, dict) else None

    def working_folder(self, environ):
        """Where the session is now: the payload's cwd, else the start folder, else ours."""
        if self.cwd and oscalls.path.isdir(self.cwd):
            return self.cwd
        return project_dir(environ) or oscalls.getcwd()

    def start_folder(self, environ):
        """Where the session started (its workspace): CLAUDE_PROJECT_DIR is fixed at start, the
        payload's cwd follows `cd`; None when neither names a folder."""
        for folder in (project_dir(environ), self.cwd):
            if folder and oscalls.path.isdir(folder):
                return folder
        return None


def project_dir(environ):
    """CLAUDE_PROJECT_DIR in this process's spelling (a Git Bash hook on Windows gets `C:/…`), or
    None when unset or not absolute."""
    value = environ.get("CLAUDE_PROJECT_DIR")
    return _paths().local(value) if value else None


def _paths():
    return current().paths


def _text(value):
    return value if isinstance(value, str) and value else None


class Outcome:
    """What a hook's run() hands back to the front door to write.

    stdout: text for the model (SessionStart, UserPromptSubmit) or a JSON decision (PreToolUse).
    stderr: a refusal's reason when code is EXIT_REFUSE, or usage text by hand.
    warnings: problems for a person, written as one stderr line.
    after_delivery: called with whether stdout was delivered; returns more warnings. State that
    records "this was shown" advances here, so output lost on the way is shown again next time.
    """
    __slots__ = ("code", "stdout", "stderr", "warnings", "after_delivery")

    def __init__(self, code=EXIT_OK, stdout="", stderr="", warnings=(), after_delivery=None):
        self.code, self.stdout, self.stderr = code, stdout, stderr
        self.warnings, self.after_delivery = list(warnings), after_delivery


QUIET = Outcome()

# The human's off switch for the hooks that speak before a tool runs (the git guard, the edit
# notice), set in the environment the client is launched with: a hook never sees an assignment
# made inside a command line (`PEERHOOKS_GUARD=off git add -A` changes nothing).
OFF_SWITCH = "PEERHOOKS_GUARD"
OFF_VALUES = ("off", "0", "false", "no")


def host(argv):
    """The client a hook was wired for: `--host codex` (install.py --codex adds it), else "claude"."""
    argv = list(argv or ())
    for index, arg in enumerate(argv):
        if arg == "--host" and index + 1 < len(argv):
            return "codex" if argv[index + 1] == "codex" else "claude"
        if arg.startswith("--host="):
            return "codex" if arg.partition("=")[2] == "codex" else "claude"
    return "claude"


def switched_off(environ):
    """Whether the human turned the tool hooks off for this session."""
    return environ.get(OFF_SWITCH, "").strip().lower() in OFF_VALUES


def decode_payload(raw):
    """Decode one payload line; anything that is not a JSON object gives an empty Payload."""
    try:
        value = loads(raw.decode("utf-8", errors="replace"))
    except ValueError:  # not JSON, or nested too deep (jsonfast.TooDeep)
        return Payload()
    return Payload(value)


def read_raw(stream=None):
    """One line of stdin's bytes, read without waiting for EOF (Codex sends no newline, and Claude
    Code may keep the pipe open); b"" when there is none."""
    stream = stream if stream is not None else sys.stdin.buffer
    try:
        return stream.readline(MAX_PAYLOAD_BYTES)
    except (OSError, ValueError, AttributeError):
        return b""


def _write_bytes(stream, text):
    data = text.encode("utf-8", errors="replace")
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        buffer.write(data)
        buffer.flush()
    else:  # a text stream without a buffer (tests capturing output)
        stream.write(text)
        stream.flush()


def _write(stream, text):
    if text:
        _write_bytes(stream, text if text.endswith("\n") else text + "\n")


def warn(text):
    """One line on stderr, UTF-8; never raises."""
    try:
        _write_bytes(sys.stderr, " ".join(str(text).split()) + "\n")
    except Exception:  # noqa: BLE001 - stderr itself is gone; nothing left to tell
        pass


def debug_enabled(environ=None):
    return (environ if environ is not None else oscalls.environ).get("PEERHOOKS_DEBUG") == "1"


def serve(name, run, argv=None, raw=None, read_stdin=True, end_process=False):
    """Run one hook under the fail-open rule and return the code to exit with.

    raw: the payload line when the front door already read it; read_stdin=False for by-hand modes,
    where stdin is a terminal and must not be waited on. end_process=True (a front door run as a
    script) ends the process with that code instead of returning it.
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    # A hook lives for milliseconds and makes no reference cycles worth collecting: the cycle
    # collector would only walk the objects an index or a transcript decodes into (~0.4 ms of
    # peers.py on the benchmark's large home). Turned back on for callers that live on (tests).
    collecting = gc.isenabled()
    gc.disable()
    try:
        if raw is None:
            raw = read_raw() if read_stdin else b""
        payload = decode_payload(raw) if raw.strip() else Payload()
        outcome = run(payload, argv, oscalls.environ, time.time())
        code = _deliver(name, outcome)
    except BaseException as error:  # noqa: BLE001 - fail open is the contract
        _report_failure(name, error)
        code = EXIT_OK
    finally:
        if collecting:
            gc.enable()
    if end_process:
        _end_process(code)
    return code


def _end_process(code):
    """Exit now, without the interpreter's teardown (finalizing every module, a last collection):
    ~1.5 ms of each hook under -S, and a hook leaves nothing that needs it (its files are closed,
    it starts no threads and registers no atexit work). What was written is flushed first."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - a closed pipe: nothing more can be said there
            pass
    oscalls._exit(code)


def _deliver(name, outcome):
    delivered = False
    try:
        _write(sys.stdout, outcome.stdout)
        delivered = True
    finally:
        warnings = list(outcome.warnings)
        if outcome.after_delivery is not None:
            warnings.extend(outcome.after_delivery(delivered) or ())
    if outcome.code == EXIT_OK or not outcome.stderr:
        if warnings:
            warn("peerhooks %s: %s" % (name, "; ".join(warnings)))
    else:
        _write(sys.stderr, outcome.stderr)
    return outcome.code if outcome.code in (EXIT_OK, EXIT_USAGE, EXIT_REFUSE) else EXIT_OK


def _report_failure(name, error):
    if isinstance(error, KeyboardInterrupt):
        return
    if debug_enabled():
        try:
            import traceback  # only when asked: it costs ~5 ms of every hook's start-up

            sys.stderr.write(traceback.format_exc())
        except Exception:  # noqa: BLE001
            pass
    else:
        warn("peerhooks %s: %s: %s" % (name, type(error).__name__, error))
