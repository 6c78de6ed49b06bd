"""Which Codex hooks the user has trusted, from `$CODEX_HOME/config.toml`.

`codex exec` silently skips a hook nobody trusted, so a wired but untrusted hook looks installed and
does nothing. Codex 0.171 keeps trust per handler, seen on this machine:

    [hooks.state."/home/me/.codex/hooks.json:session_start:0:0"]
    trusted_hash = "sha256:0588…"

The key is the hooks file's path, the event in snake_case, and the group's and the handler's
0-based positions. The hash covers the hook's definition (trust_hash: the recipe was checked against
the `currentHash` that `codex app-server`'s hooks/list reports), so a hook changed after it was
trusted is skipped again until the user trusts it anew; --check tells the two cases apart.

Hooks in a checkout's `.codex/hooks.json` load only in a folder the user trusted (Codex's first
question, "Trust this folder?", writes `[projects."<path>"] trust_level = "trusted"`); seen here,
`--dangerously-bypass-hook-trust` does not run them in an untrusted folder. Only those tables and
keys are read: `tomllib` where it exists (3.11+), else a line reader that understands exactly them.
"""
import hashlib
import json
import os
import re
from dataclasses import dataclass

TRUST_HOWTO = ("start `codex` in the checkout, type /hooks and press t to trust them all "
               "(or run `codex exec --dangerously-bypass-hook-trust` for a single run)")

_BASIC_STRING = r'("(?:[^"\\]|\\.)*")'
_TABLE_HEADER = re.compile(r"^\s*\[")


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


DEFAULT_HOOK_TIMEOUT_S = 600  # what Codex assumes for a handler without "timeout"


def trust_hash(event, matcher, handler):
    """The `trusted_hash` Codex 0.171 records when a user trusts one command handler in /hooks:
    SHA-256 of the compact, key-sorted JSON of the handler's normalized identity (event label,
    matcher, the handler with its timeout and `async` filled in; absent fields left out)."""
    normalized = {"type": "command", "command": handler.get("command"),
                  "timeout": max(1, handler.get("timeout") or DEFAULT_HOOK_TIMEOUT_S),
                  "async": bool(handler.get("async", False))}
    if handler.get("statusMessage") is not None:
        normalized["statusMessage"] = handler["statusMessage"]
    identity = {"event_name": snake_case(event), "hooks": [normalized]}
    if matcher is not None and event != "UserPromptSubmit":  # Codex ignores this event's matcher
        identity["matcher"] = matcher
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def trust_key(position):
    return "%s:%s:%d:%d" % (position.hooks_file, snake_case(position.event), position.group, position.handler)


def quoted_tables_by_lines(text, table, key):
    """{name: value} for each `[<table>."<name>"]` holding `key = "<value>"`, read line by line: the
    reader for Python 3.9 and 3.10 (no tomllib), and for a config.toml tomllib rejects."""
    header = re.compile(r"^\s*\[\s*%s\s*\.\s*%s\s*\]\s*(?:#.*)?$"
                        % (r"\s*\.\s*".join(map(re.escape, table.split("."))), _BASIC_STRING))
    assignment = re.compile(r"^\s*%s\s*=\s*%s\s*(?:#.*)?$" % (re.escape(key), _BASIC_STRING))
    found = {}
    name = None
    for line in text.splitlines():
        opened = header.match(line)
        if opened:
            name = _basic_string(opened.group(1))
            continue
        if _TABLE_HEADER.match(line):
            name = None
            continue
        value = assignment.match(line)
        if name is not None and value and _basic_string(value.group(1)) is not None:
            found[name] = _basic_string(value.group(1))
    return found


def _basic_string(quoted):
    """A TOML basic string's value (its escapes are JSON's, plus \\U which these keys never hold)."""
    try:
        value = json.loads(quoted)
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def quoted_tables(text, table, key):
    """{name: value} for each `[<table>."<name>"]` holding a string `key`; {} when there are none."""
    try:
        import tomllib  # novermin (3.11+; the ImportError below falls back to the line reader)
    except ImportError:
        return quoted_tables_by_lines(text, table, key)
    try:
        document = tomllib.loads(text)
    except ValueError:  # tomllib.TOMLDecodeError: one bad line elsewhere should not hide the rest
        return quoted_tables_by_lines(text, table, key)
    for part in table.split("."):
        document = document.get(part) if isinstance(document, dict) else None
    if not isinstance(document, dict):
        return {}
    return {name: values[key] for name, values in document.items()
            if isinstance(values, dict) and isinstance(values.get(key), str)}


def trusted_hashes(text):
    """{trust key: trusted_hash} from config.toml text."""
    return quoted_tables(text, "hooks.state", "trusted_hash")


def trusted_projects(text):
    """The folders the user told Codex to trust (`[projects."<path>"] trust_level = "trusted"`)."""
    return sorted(path for path, level in quoted_tables(text, "projects", "trust_level").items()
                  if level == "trusted")


def read_config(codex_home):
    """config.toml's text, or "" when there is none (or it cannot be read)."""
    try:
        with open(os.path.join(codex_home, "config.toml"), encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError):
        return ""


def folder_is_trusted(folder, projects):
    """Whether Codex reads `folder/.codex/`: the folder or one above it is a trusted project."""
    folder = os.path.realpath(folder)
    for project in projects:
        project = os.path.realpath(project)
        if folder == project or folder.startswith(project.rstrip(os.sep) + os.sep):
            return True
    return False


TRUSTED, CHANGED, UNTRUSTED = "trusted", "CHANGED since it was trusted", "NOT trusted"


def trust_of(position, current_hash, hashes):
    """TRUSTED when the hash recorded for this handler's position (path compared after resolving
    links) is the handler's current one, CHANGED when another definition was trusted there, else
    UNTRUSTED. Codex runs only the first."""
    recorded = hashes.get(trust_key(position))
    if recorded is None:
        wanted = os.path.realpath(position.hooks_file)
        tail = ":%s:%d:%d" % (snake_case(position.event), position.group, position.handler)
        recorded = next((value for key, value in hashes.items()
                         if key.endswith(tail) and os.path.realpath(key[:-len(tail)]) == wanted), None)
    if recorded is None:
        return UNTRUSTED
    return TRUSTED if recorded == current_hash else CHANGED
