"""Payload in, UTF-8 text out, and the fail-open entry wrapper every hook runs under.

Claude Code reads exit code 2 from a hook as "block" (and on UserPromptSubmit it erases the user's
prompt), so nothing here may ever end a process with 2 unless the hook meant to refuse. Any error
becomes exit 0 with one line on stderr; PEERHOOKS_DEBUG=1 shows the whole traceback instead.
"""
import json
import os
import sys

# The payload is one JSON line. A cap keeps a runaway producer from making us buffer gigabytes.
MAX_PAYLOAD_BYTES = 8 * 1024 * 1024

EXIT_OK = 0
EXIT_REFUSE = 2


def parse_payload(raw):
    """Decode one payload line; anything that is not a JSON object gives an empty dict."""
    try:
        value = json.loads(raw.decode("utf-8", errors="replace"))
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def read_payload(stream=None):
    """Read one line from stdin's bytes without waiting for EOF (Codex sends no newline, and
    Claude Code may keep the pipe open)."""
    stream = stream if stream is not None else sys.stdin.buffer
    try:
        raw = stream.readline(MAX_PAYLOAD_BYTES)
    except (OSError, ValueError):
        return {}
    return parse_payload(raw)


def _write_bytes(stream, text):
    data = text.encode("utf-8", errors="replace")
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        buffer.write(data)
        buffer.flush()
    else:  # a text stream without a buffer (tests capturing output)
        stream.write(text)
        stream.flush()


def emit(text):
    """Write text to stdout as UTF-8 whatever the locale, and flush (raises if it could not)."""
    if text:
        _write_bytes(sys.stdout, text if text.endswith("\n") else text + "\n")


def warn(text):
    """One line on stderr, UTF-8; never raises."""
    try:
        _write_bytes(sys.stderr, " ".join(str(text).split()) + "\n")
    except Exception:  # noqa: BLE001 - stderr itself is gone; nothing left to tell
        pass


def debug_enabled(environ=None):
    return (environ if environ is not None else os.environ).get("PEERHOOKS_DEBUG") == "1"


def run_hook(name, body):
    """Run body() -> exit code under the fail-open rule; returns the code to exit with.

    body may return EXIT_REFUSE only for a deliberate refusal. Any exception (including
    SystemExit from code that should not exit) is turned into exit 0.
    """
    try:
        code = body()
    except BaseException as error:  # noqa: BLE001 - fail open is the contract
        if isinstance(error, KeyboardInterrupt):
            return EXIT_OK
        if debug_enabled():
            try:
                import traceback  # only when asked: it costs ~5 ms of every hook's start-up

                sys.stderr.write(traceback.format_exc())
            except Exception:  # noqa: BLE001
                pass
        else:
            warn("peerhooks %s: %s: %s" % (name, type(error).__name__, error))
        return EXIT_OK
    return code if code in (EXIT_OK, EXIT_REFUSE) else EXIT_OK
