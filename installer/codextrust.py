"""Which Codex hooks the user has trusted, from `$CODEX_HOME/config.toml`.

`codex exec` silently skips a hook nobody trusted, so a wired but untrusted hook looks installed and
does nothing. Codex 0.171 keeps trust per handler, seen on this machine:

    [hooks.state."/home/me/.codex/hooks.json:session_start:0:0"]
    trusted_hash = "sha256:0588…"

The key is the hooks file's path, the event in snake_case, and the group's and the handler's
0-based positions. The hash covers the hook's definition (its formula is not public), so a hook
changed after it was trusted is asked about again; this module can only say whether trust was
recorded for that position. Only those tables and keys are read: `tomllib` where it exists (3.11+),
else a line reader that understands exactly them.
"""
import json
import os
import re
from dataclasses import dataclass

TRUST_HOWTO = ("start `codex` in the checkout, type /hooks and press t to trust them all "
               "(or run `codex exec --dangerously-bypass-hook-trust` for a single run)")

_STATE_HEADER = re.compile(r'^\s*\[\s*hooks\s*\.\s*state\s*\.\s*("(?:[^"\\]|\\.)*")\s*\]\s*(?:#.*)?$')
_TABLE_HEADER = re.compile(r"^\s*\[")
_TRUSTED_HASH = re.compile(r'^\s*trusted_hash\s*=\s*("(?:[^"\\]|\\.)*")\s*(?:#.*)?$')


@dataclass(frozen=True)
class HookPosition:
    """Where one handler sits in a Codex hooks file, as Codex's trust key names it."""

    hooks_file: str
    event: str  # as in hooks.json: "SessionStart"
    group: int
    handler: int


def snake_case(event):
    """SessionStart -> session_start, the spelling Codex uses in trust keys."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def trust_key(position):
    return "%s:%s:%d:%d" % (position.hooks_file, snake_case(position.event), position.group, position.handler)


def trusted_hashes_by_lines(text):
    """{key: trusted_hash} from config.toml text, reading only [hooks.state."…"] tables (Python 3.9/3.10)."""
    found = {}
    key = None
    for line in text.splitlines():
        header = _STATE_HEADER.match(line)
        if header:
            key = _basic_string(header.group(1))
            continue
        if _TABLE_HEADER.match(line):
            key = None
            continue
        value = _TRUSTED_HASH.match(line)
        if key is not None and value:
            hashed = _basic_string(value.group(1))
            if hashed is not None:
                found[key] = hashed
    return found


def _basic_string(quoted):
    """A TOML basic string's value (its escapes are JSON's, plus \\U which keys here never hold)."""
    try:
        value = json.loads(quoted)
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def trusted_hashes(text):
    """{key: trusted_hash} from config.toml text; {} when it cannot be read."""
    try:
        import tomllib
    except ImportError:
        return trusted_hashes_by_lines(text)
    try:
        document = tomllib.loads(text)
    except ValueError:  # tomllib.TOMLDecodeError: one bad line elsewhere should not hide the hooks
        return trusted_hashes_by_lines(text)
    states = document.get("hooks", {}).get("state", {}) if isinstance(document.get("hooks"), dict) else {}
    return {key: table["trusted_hash"] for key, table in states.items() if isinstance(states, dict)
            and isinstance(table, dict) and isinstance(table.get("trusted_hash"), str)}


def read_trusted_hashes(codex_home):
    try:
        with open(os.path.join(codex_home, "config.toml"), encoding="utf-8") as handle:
            return trusted_hashes(handle.read())
    except (OSError, UnicodeDecodeError):
        return {}


def is_trusted(position, hashes):
    """Whether trust is recorded for this handler (the path compared after resolving links)."""
    if trust_key(position) in hashes:
        return True
    wanted = os.path.realpath(position.hooks_file)
    tail = ":%s:%d:%d" % (snake_case(position.event), position.group, position.handler)
    return any(key.endswith(tail) and os.path.realpath(key[:-len(tail)]) == wanted for key in hashes)
