"""Whether an edit is certainly made alone, from the payload's raw bytes and one listing of the
registry folder, before anything else is imported: the edit notice's front door returns at once.

Most edits are made by a session with nobody else live: the registry holds its own entry only (or
none, under Codex). Deciding that through the library costs about a fifth of the interpreter's
start-up in imports alone, before every Edit and Write. Here it is `posix` (loaded at every start)
and bytes: the payload's `session_id` and `transcript_path` (compact JSON as Claude Code writes it,
or with one space after the colon), the registry's file names, and the one entry's bytes. Anything
this cannot read plainly (an escaped value, a home given as a relative path, no `posix` module)
answers "not certain", and the full judgement runs. A subagent's call is never alone (its main
thread is a party), nor is a main thread with a subagents folder beside its transcript.
"""
import sys

try:
    import posix
except ImportError:  # Windows: the full judgement runs
    posix = None

MAX_ENTRY_BYTES = 64 * 1024  # as claude_formats.MAX_REGISTRY_BYTES
SEPARATORS = (b'":"', b'": "')  # compact JSON (the client's), or json.dumps' default


def field(raw, name):
    """The value of a string member `name` (bytes), or None when absent or not plain (escaped).
    An escaped copy inside another string (`\\"session_id\\": ...`) never matches: its quotes are
    preceded by backslashes."""
    for separator in SEPARATORS:
        key = b'"' + name + separator
        at = raw.find(key)
        if at >= 0:
            start = at + len(key)
            end = raw.find(b'"', start)
            value = raw[start:end] if end > start else None
            return None if value is None or b"\\" in value else value
    return None


def claude_home(environ):
    """The Claude home as bytes when the environment names it plainly: $CLAUDE_CONFIG_DIR if it is
    an absolute path, else $HOME/.claude; None otherwise (then home.claude_home decides)."""
    configured = environ.get(b"CLAUDE_CONFIG_DIR")
    if configured:
        return configured.rstrip(b"/") if configured.startswith(b"/") and b"~" not in configured else None
    user = environ.get(b"HOME")
    return user.rstrip(b"/") + b"/.claude" if user and user.startswith(b"/") else None


def environ_bytes():
    """The environment as bytes: posix's, read at start-up (all a hook process ever has); os's
    when something imported it (a test running the hook in its own process changes os.environ)."""
    loaded = sys.modules.get("os")
    return loaded.environb if loaded is not None and hasattr(loaded, "environb") else posix.environ


def _is_entry(name):
    return name.endswith(b".json") and name[:-5].isdigit()


def _read(path):
    descriptor = posix.open(path, posix.O_RDONLY | getattr(posix, "O_NONBLOCK", 0) | getattr(posix, "O_NOFOLLOW", 0))
    try:
        return posix.read(descriptor, MAX_ENTRY_BYTES)
    finally:
        posix.close(descriptor)


def _exists(path):
    try:
        posix.stat(path)
    except OSError:
        return False
    return True


def alone(raw):
    """True only when no other session is registered and this call cannot have a party of its
    own; False whenever that is not certain from these bytes."""
    if posix is None or b'"agent_id"' in raw:
        return False
    session_id = field(raw, b"session_id")
    home = claude_home(environ_bytes())
    if not session_id or home is None:
        return False
    try:
        entries = [name for name in posix.listdir(home + b"/sessions") if _is_entry(name)]
    except FileNotFoundError:
        entries = []
    except OSError:
        return False
    if len(entries) > 1:
        return False
    if entries:
        try:
            entry = _read(home + b"/sessions/" + entries[0])
        except OSError:
            return False
        if not any(b'"sessionId' + separator + session_id + b'"' in entry for separator in SEPARATORS):
            return False
    transcript = field(raw, b"transcript_path")
    if transcript and transcript.endswith(b".jsonl") and _exists(transcript[:-6] + b"/subagents"):
        return False
    return True
