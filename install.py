#!/usr/bin/env python3
"""Wire peerhooks into Claude Code (or Codex) settings, safely and reversibly; and check the wiring.

People used to hand-edit `~/.claude/settings.json`; a stray comma breaks every hook in the file, and a
second copy (a moved checkout, a plugin install next to a settings install) makes each hook run twice.
This installer merges exactly our four entries into the chosen settings file and nothing else:

- it recognises its own entries by script name (`scripts/<name>.py`), so a moved checkout updates the
  paths instead of adding copies, and `--uninstall` removes exactly those;
- it keeps the user's hooks, other keys and key order, writes 2-space JSON with a final newline, and
  leaves the file byte-identical when nothing changes;
- it refuses a file it cannot understand (not JSON, not an object, `hooks` of the wrong type) without
  touching it, backs the old file up before a change, and replaces it by an atomic rename;
- it wires only scripts that exist: `python3 missing.py` exits 2, which Claude Code reads as *block*
  (every Bash call refused, every prompt erased on UserPromptSubmit).

The merge itself (`merge`, `unmerge`, `shape_problem`, `registrations`) is pure and tested on its own;
files, the clock and the environment are handled at the edges (`main` and the helpers it calls).
"""
import argparse
import copy
import datetime
import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import Optional, Tuple

REPO = os.path.dirname(os.path.abspath(__file__))
SCRIPTS_DIR = os.path.join(REPO, "scripts")
sys.path.insert(0, SCRIPTS_DIR)

from peerhooks.gitrepo import toplevel  # noqa: E402 - needs the sys.path line above
from peerhooks.home import claude_home  # noqa: E402

EXIT_OK = 0
EXIT_PROBLEM = 1  # also for usage errors: argparse's 2 would read as "block" if ever run as a hook
MIN_PYTHON = (3, 9)  # the hooks use 3.9 syntax and library calls
BACKUP_INFIX = ".peerhooks-backup-"
RULE_FILE = "peerhooks.md"
PLACEHOLDER_PYTHON = "/path/to/python3"
PLACEHOLDER_CHECKOUT = "/path/to/peerhooks"
PLUGIN_PYTHON = "python3"  # a plugin cannot know the user's interpreter; the one on PATH it is
PLUGIN_ROOT = "${CLAUDE_PLUGIN_ROOT}"
INTERPRETER_PROBE_TIMEOUT = 5  # seconds; a registered interpreter that hangs this long is broken anyway


@dataclass(frozen=True)
class Hook:
    """One hook peerhooks wires: which event, which sources/tools, which script with which words."""

    event: str
    matcher: Optional[str]  # None: the event has no matcher (UserPromptSubmit)
    script: str  # file name under scripts/
    args: Tuple[str, ...]
    timeout: int  # seconds


CLAUDE_HOOKS = (
    Hook("SessionStart", "startup|resume|clear", "peers.py", ("--hook",), 10),
    # compact too: after compaction the model has lost its orientation and gets a short anchor back
    Hook("SessionStart", "startup|resume|clear|compact", "cold_start.py", (), 10),
    Hook("UserPromptSubmit", None, "memory_delta.py", (), 5),
    Hook("PreToolUse", "Bash", "git_index_guard.py", (), 5),
)

# Codex writes no Claude session registry, so the peer list and memory notices have nothing to read;
# the cold-start material and the index guard work from the checkout alone. Codex's SessionStart
# sources are startup, resume and clear (compaction is not a session start there).
CODEX_HOOKS = (
    Hook("SessionStart", "startup|resume|clear", "cold_start.py", ("--host", "codex"), 10),
    Hook("PreToolUse", "Bash", "git_index_guard.py", (), 5),
)

OUR_SCRIPTS = tuple(sorted({hook.script for hook in CLAUDE_HOOKS + CODEX_HOOKS}))

# Our script as the last component of a path under a folder named scripts, in any command line:
# '/a b/scripts/peers.py', "C:/x/scripts/peers.py", ${CLAUDE_PLUGIN_ROOT}/scripts/peers.py.
_OUR_SCRIPT_IN_COMMAND = re.compile(
    r"(?:^|[/\\])scripts[/\\](%s)(?=$|['\"\s])" % "|".join(re.escape(name) for name in OUR_SCRIPTS)
)


@dataclass(frozen=True)
class Entry:
    """A hook made concrete: the command line that runs it from one checkout with one interpreter."""

    event: str
    matcher: Optional[str]
    script: str
    command: str
    timeout: int

    def handler(self):
        return {"type": "command", "command": self.command, "timeout": self.timeout}

    def group(self):
        group = {} if self.matcher is None else {"matcher": self.matcher}
        group["hooks"] = [self.handler()]
        return group


@dataclass(frozen=True)
class Registration:
    """One place where one of our scripts is wired."""

    script: str
    event: str
    command: str
    where: str  # e.g. "user settings /home/me/.claude/settings.json"
    deduplicated: bool  # settings files: Claude Code runs an identical command once across them


class InstallError(Exception):
    """Something the user has to fix; the message says what, and nothing was changed."""


# ---------------------------------------------------------------------------------------------------
# Command lines


def sh_quote(word):
    """Quote one word for `sh -c`: single quotes, each inner quote written as '"'"'."""
    return "'" + word.replace("'", "'\"'\"'") + "'"


_WINDOWS_UNSAFE = re.compile(r"[\"$`%]")


def windows_quote(word):
    """Double quotes, which both Git Bash and cmd.exe read as one word when the path holds no
    character either of them expands; such a path is refused rather than quoted wrongly."""
    if _WINDOWS_UNSAFE.search(word):
        raise InstallError("cannot quote %s safely for a hook command on Windows (it contains one of "
                           "\" $ ` %%); move the checkout or the interpreter to a plainer path" % word)
    return '"' + word + '"'


def command_line(python, script_path, args, windows=False):
    """The hook command: interpreter and script as absolute quoted paths, then fixed words."""
    if windows:
        words = [windows_quote(python.replace("\\", "/")), windows_quote(script_path.replace("\\", "/"))]
    else:
        words = [sh_quote(python), sh_quote(script_path)]
    return " ".join(words + list(args))


def build_entries(hooks, python, scripts_dir, windows=False):
    return [
        Entry(hook.event, hook.matcher, hook.script,
              command_line(python, os.path.join(scripts_dir, hook.script), hook.args, windows),
              hook.timeout)
        for hook in hooks
    ]


def plugin_entries(hooks):
    """Entries for the plugin's hooks/hooks.json: Claude Code fills in ${CLAUDE_PLUGIN_ROOT}."""
    return [
        Entry(hook.event, hook.matcher, hook.script,
              " ".join([PLUGIN_PYTHON, '"%s/scripts/%s"' % (PLUGIN_ROOT, hook.script)] + list(hook.args)),
              hook.timeout)
        for hook in hooks
    ]


def example_entries(hooks=CLAUDE_HOOKS):
    """What settings.example.json holds: the installer's block with placeholder paths."""
    return build_entries(hooks, PLACEHOLDER_PYTHON, PLACEHOLDER_CHECKOUT + "/scripts")


def script_of(command):
    """Which of our scripts a command line runs, or None."""
    if not isinstance(command, str):
        return None
    found = _OUR_SCRIPT_IN_COMMAND.search(command)
    return found.group(1) if found else None


# ---------------------------------------------------------------------------------------------------
# The pure merge


def _json_type(value):
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    return "a number"


def shape_problem(settings):
    """Why this settings value cannot be merged into (wrong types where hooks live), or None."""
    if not isinstance(settings, dict):
        return "the file holds %s, not a JSON object" % _json_type(settings)
    hooks = settings.get("hooks")
    if hooks is None:
        return None
    if not isinstance(hooks, dict):
        return '"hooks" is %s, not an object' % _json_type(hooks)
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            return '"hooks.%s" is %s, not an array' % (event, _json_type(groups))
        for group in groups:
            if not isinstance(group, dict):
                return 'an entry of "hooks.%s" is %s, not an object' % (event, _json_type(group))
            if "hooks" in group and not isinstance(group["hooks"], list):
                return 'a "hooks" list under "hooks.%s" is %s, not an array' % (event, _json_type(group["hooks"]))
    return None


def _ours(handler, scripts):
    return isinstance(handler, dict) and script_of(handler.get("command")) in scripts


def _same_matcher(group, matcher):
    present = group.get("matcher")
    if matcher is None:
        return present in (None, "", "*")
    return present == matcher


def _updated_handler(handler, entry):
    """Our handler with this entry's command and timeout, keeping its key order and any extra keys."""
    updated = dict(handler)
    for key, value in entry.handler().items():
        updated[key] = value
    return updated


def _place(groups, entry):
    """Put entry into an event's groups: update our handler in place when one sits under the right
    matcher, drop every other copy of it, else add a group of our own at the end."""
    kept = False
    result = []
    for group in groups:
        handlers = group.get("hooks")
        if not isinstance(handlers, list):
            result.append(group)
            continue
        remaining = []
        for handler in handlers:
            if not (isinstance(handler, dict) and script_of(handler.get("command")) == entry.script):
                remaining.append(handler)
            elif not kept and _same_matcher(group, entry.matcher):
                remaining.append(_updated_handler(handler, entry))
                kept = True
        if remaining or not handlers:
            result.append(dict(group, hooks=remaining) if remaining != handlers else group)
    if not kept:
        result.append(entry.group())
    return result


def merge(settings, entries):
    """settings with our entries wired in; everything else (keys, order, the user's hooks) kept."""
    result = copy.deepcopy(settings)
    if result.get("hooks") is None:
        result["hooks"] = {}
    hooks = result["hooks"]
    for entry in entries:
        hooks[entry.event] = _place(hooks.get(entry.event, []), entry)
    return result


def unmerge(settings, scripts=OUR_SCRIPTS):
    """settings without our handlers for these scripts, and without the groups, events and `hooks`
    object that only held them."""
    result = copy.deepcopy(settings)
    hooks = result.get("hooks")
    if not isinstance(hooks, dict):
        return result
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept_groups = []
        for group in groups:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list):
                kept_groups.append(group)
                continue
            remaining = [handler for handler in handlers if not _ours(handler, scripts)]
            if len(remaining) == len(handlers):
                kept_groups.append(group)
            elif remaining:
                kept_groups.append(dict(group, hooks=remaining))
        if groups and not kept_groups:
            del hooks[event]
        else:
            hooks[event] = kept_groups
    if not hooks and settings.get("hooks"):
        del result["hooks"]
    return result


def render(settings):
    """The file text: 2-space JSON, non-ASCII kept as written, final newline."""
    return json.dumps(settings, indent=2, ensure_ascii=False) + "\n"


def registrations(settings, where, deduplicated=True):
    """Every handler in a settings value (or a plugin's hooks) that runs one of our scripts."""
    found = []
    hooks = settings.get("hooks") if isinstance(settings, dict) else None
    if not isinstance(hooks, dict):
        return found
    for event, groups in hooks.items():
        for group in groups if isinstance(groups, list) else []:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for handler in handlers if isinstance(handlers, list) else []:
                if isinstance(handler, dict):
                    script = script_of(handler.get("command"))
                    if script:
                        found.append(Registration(script, event, handler["command"], where, deduplicated))
    return found


def registration_problems(found, hooks=CLAUDE_HOOKS):
    """Each wired hook must run exactly once. Claude Code runs an identical command from two settings
    files once, but a plugin's copy always runs again; a double registration names every copy."""
    problems = []
    for hook in hooks:
        mine = [r for r in found if r.script == hook.script and r.event == hook.event]
        distinct = []
        seen_commands = set()
        for registration in mine:
            if registration.deduplicated and registration.command in seen_commands:
                continue
            seen_commands.add(registration.command)
            distinct.append(registration)
        if not distinct:
            problems.append("%s is not registered for %s" % (hook.script, hook.event))
        elif len(distinct) > 1:
            places = "".join("\n  %s\n    %s" % (r.where, r.command) for r in distinct)
            problems.append("%s is registered %d times for %s, so it runs %d times; remove all but one:%s"
                            % (hook.script, len(distinct), hook.event, len(distinct), places))
    return problems


# ---------------------------------------------------------------------------------------------------
# Files


@dataclass(frozen=True)
class Loaded:
    path: str
    text: Optional[str]  # None: the file does not exist yet
    settings: dict


def load_settings(path):
    """Read and check a settings file; a missing or blank file is an empty object."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except (FileNotFoundError, NotADirectoryError):  # the folder is missing, or a file stands in its way
        return Loaded(path, None, {})
    except OSError as error:
        raise InstallError("cannot read %s: %s" % (path, error.strerror or error))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InstallError("%s is not UTF-8 (byte %d); nothing was changed" % (path, error.start))
    if not text.strip():
        return Loaded(path, text, {})
    try:
        settings = json.loads(text)
    except json.JSONDecodeError as error:
        raise InstallError("%s is not valid JSON: line %d, column %d: %s; nothing was changed"
                           % (path, error.lineno, error.colno, error.msg))
    problem = shape_problem(settings)
    if problem:
        raise InstallError("%s: %s; nothing was changed" % (path, problem))
    return Loaded(path, text, settings)


def backup_path(path, now):
    return path + BACKUP_INFIX + now.strftime("%Y%m%dT%H%M%SZ")


def _write_exclusive(path, data):
    """Create path with data; a second call in the same second gets -2, -3, ... instead."""
    candidate, number = path, 1
    while True:
        try:
            with open(candidate, "xb") as handle:
                handle.write(data)
            return candidate
        except FileExistsError:
            number += 1
            candidate = "%s-%d" % (path, number)


def replace_file(path, text, now):
    """Back up the current file (if any), then write text to a temporary file beside it and rename it
    into place. Returns the backup's path or None. Leaves no backup behind when it failed."""
    folder = os.path.dirname(path)
    backup = None
    temporary = None
    try:
        os.makedirs(folder, exist_ok=True)
        mode = None
        if os.path.exists(path):
            with open(path, "rb") as handle:
                old = handle.read()
            mode = os.stat(path).st_mode & 0o7777
            backup = _write_exclusive(backup_path(path, now), old)
        descriptor, temporary = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".",
                                                 suffix=".peerhooks-tmp")
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
        temporary = None
        return backup
    except OSError as error:
        for leftover in (temporary, backup):
            if leftover:
                try:
                    os.remove(leftover)
                except OSError:
                    pass
        where = error.filename or path
        raise InstallError("cannot write %s: %s; nothing was changed" % (where, error.strerror or error))


def unified_diff(old_text, new_text, path):
    return "".join(difflib.unified_diff(
        (old_text or "").splitlines(True), new_text.splitlines(True),
        fromfile=path if old_text is not None else "/dev/null", tofile=path))


def is_windows():
    return os.name == "nt"


# ---------------------------------------------------------------------------------------------------
# Where things are


@dataclass(frozen=True)
class Target:
    path: str
    label: str  # "user settings", "Codex project hooks", ...
    hooks: Tuple[Hook, ...]


def repository_root(cwd):
    top = toplevel(cwd)
    if top is None:
        raise InstallError("%s is not inside a git checkout; --scope project and --scope local write "
                           "into the checkout's .claude/ (or .codex/) folder" % cwd)
    return top


def codex_home(environ):
    configured = environ.get("CODEX_HOME")
    if configured:
        return os.path.abspath(os.path.expanduser(configured))
    return os.path.join(os.path.expanduser("~"), ".codex")


def settings_path(scope, home, cwd):
    if scope == "user":
        return os.path.join(home, "settings.json")
    name = "settings.json" if scope == "project" else "settings.local.json"
    return os.path.join(repository_root(cwd), ".claude", name)


def choose_target(scope, codex, environ, cwd):
    if not codex:
        return Target(settings_path(scope, claude_home(environ), cwd), "%s settings" % scope, CLAUDE_HOOKS)
    if scope == "local":
        raise InstallError("Codex has no local hooks file; use --scope user or --scope project with --codex")
    if scope == "user":
        return Target(os.path.join(codex_home(environ), "hooks.json"), "Codex user hooks", CODEX_HOOKS)
    return Target(os.path.join(repository_root(cwd), ".codex", "hooks.json"), "Codex project hooks",
                  CODEX_HOOKS)


def present_scripts(scripts_dir, hooks):
    return [hook for hook in hooks if os.path.isfile(os.path.join(scripts_dir, hook.script))]


# ---------------------------------------------------------------------------------------------------
# Install and uninstall


AGENT_KEY_REMINDER = (
    "One thing is left to you: if several agents share a workspace, give each launch profile its own\n"
    "LI_PLUS_AGENT_KEY, e.g. `export LI_PLUS_AGENT_KEY=lin` in that profile, or\n"
    "`alias claude-lin='LI_PLUS_AGENT_KEY=lin claude'`. The cold-start hook remembers, per key, what it\n"
    "last showed; agents under one key share that memory, so each would see only part of what changed.\n"
)

CODEX_TRUST_REMINDER = (
    "Codex runs new or changed hooks only after you trust them: start codex, open /hooks and trust the\n"
    "peerhooks entries (Codex before 0.124 also needs `[features] codex_hooks = true` in config.toml).\n"
)


def describe(hook):
    where = hook.event if hook.matcher is None else "%s (%s)" % (hook.event, hook.matcher)
    return "%-44s %s" % (where, " ".join((hook.script,) + hook.args))


def apply_change(loaded, new_settings, dry_run, now, out):
    """Write (or, dry, show) the change; True when there was one."""
    if new_settings == loaded.settings:
        out.write("%s already says exactly this; nothing changed.\n" % loaded.path)
        return False
    new_text = render(new_settings)
    if dry_run:
        out.write("Dry run: this is the change to %s (nothing was written):\n" % loaded.path)
        out.write(unified_diff(loaded.text, new_text, loaded.path))
        return True
    backup = replace_file(loaded.path, new_text, now)
    out.write("Updated %s.\n" % loaded.path)
    if backup:
        out.write("The previous version is kept in %s.\n" % backup)
    return True


def install(target, scripts_dir, python, dry_run, now, out):
    loaded = load_settings(target.path)
    wired = present_scripts(scripts_dir, target.hooks)
    missing = [hook for hook in target.hooks if hook not in wired]
    entries = build_entries(wired, python, scripts_dir, windows=is_windows())
    new_settings = merge(unmerge(loaded.settings, [hook.script for hook in missing]), entries)
    out.write("peerhooks -> %s (%s)\n" % (target.path, target.label))
    for hook in wired:
        out.write("  wired    %s\n" % describe(hook))
    for hook in missing:
        out.write("  skipped  %s: scripts/%s is not in this checkout yet (a missing script makes python "
                  "exit 2, which the host reads as a refusal)\n" % (describe(hook), hook.script))
    apply_change(loaded, new_settings, dry_run, now, out)


def uninstall(target, dry_run, now, out):
    loaded = load_settings(target.path)
    out.write("peerhooks -> removing its hooks from %s (%s)\n" % (target.path, target.label))
    if loaded.text is None:
        out.write("%s does not exist; nothing to remove.\n" % target.path)
        return
    apply_change(loaded, unmerge(loaded.settings), dry_run, now, out)


def rules_source():
    return os.path.join(REPO, "rules", RULE_FILE)


def rules_target(home):
    return os.path.join(home, "rules", RULE_FILE)


def place_rules(home, dry_run, now, out):
    with open(rules_source(), encoding="utf-8") as handle:
        text = handle.read()
    target = rules_target(home)
    try:
        with open(target, encoding="utf-8") as handle:
            current = handle.read()
    except FileNotFoundError:
        current = None
    except (OSError, UnicodeDecodeError) as error:
        raise InstallError("cannot read %s: %s" % (target, error))
    if current == text:
        out.write("The rule file %s is already in place; nothing changed.\n" % target)
    elif dry_run:
        out.write("Dry run: would write the rule file %s (every session on this machine loads it).\n" % target)
    else:
        backup = replace_file(target, text, now)
        out.write("Placed the rule file %s; every new session on this machine loads it.\n" % target)
        if backup:
            out.write("The previous version is kept in %s.\n" % backup)


def remove_rules(home, dry_run, out):
    target = rules_target(home)
    if not os.path.exists(target):
        return
    if dry_run:
        out.write("Dry run: would remove the rule file %s.\n" % target)
        return
    try:
        os.remove(target)
    except OSError as error:
        raise InstallError("cannot remove %s: %s" % (target, error.strerror or error))
    try:
        os.rmdir(os.path.dirname(target))  # only when the folder held nothing but our rule
    except OSError:
        pass
    out.write("Removed the rule file %s.\n" % target)


# ---------------------------------------------------------------------------------------------------
# --check


def _read_json(path):
    """A JSON file's value, or None when absent or unreadable (the caller says which it needs)."""
    try:
        with open(path, encoding="utf-8-sig") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return None


def plugin_installs(home):
    """(plugin id, install folder) for each plugin copy Claude Code recorded in
    plugins/installed_plugins.json (version 2: id -> list of installs; version 1: id -> one install).
    Without that index, every versioned folder under plugins/cache/<marketplace>/<plugin>/ counts."""
    plugins_dir = os.path.join(home, "plugins")
    index = _read_json(os.path.join(plugins_dir, "installed_plugins.json"))
    installs = []
    if isinstance(index, dict):
        records = index.get("plugins", {})
        for plugin_id, value in records.items() if isinstance(records, dict) else []:
            for record in value if isinstance(value, list) else [value]:
                if isinstance(record, dict) and isinstance(record.get("installPath"), str):
                    installs.append((plugin_id, record["installPath"]))
        return installs
    cache = os.path.join(plugins_dir, "cache")
    for marketplace in _listdir(cache):
        for plugin in _listdir(os.path.join(cache, marketplace)):
            for version in _listdir(os.path.join(cache, marketplace, plugin)):
                installs.append(("%s@%s" % (plugin, marketplace), os.path.join(cache, marketplace, plugin, version)))
    return installs


def _listdir(path):
    try:
        return sorted(name for name in os.listdir(path) if os.path.isdir(os.path.join(path, name)))
    except OSError:
        return []


def enabled_state(settings_list, plugin_id):
    """The last settings file's word on a plugin (local over project over user), or None."""
    state = None
    for settings in settings_list:
        enabled = settings.get("enabledPlugins") if isinstance(settings, dict) else None
        if isinstance(enabled, dict) and plugin_id in enabled:
            state = enabled[plugin_id]
    return state


def script_path_in(command, plugin_root=None):
    """The script path a registered command runs (${CLAUDE_PLUGIN_ROOT} filled in), or None."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    for word in words:
        if script_of(word):
            return word.replace(PLUGIN_ROOT, plugin_root) if plugin_root else word
    return None


def interpreter_in(command):
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    return words[0] if words else None


def precompile(scripts_dir):
    """Write the hooks' bytecode now: hooks run on every prompt and shell command, and where the
    environment sets PYTHONDONTWRITEBYTECODE they would otherwise recompile the library each time
    (about 0.3x of the interpreter's start-up). Best effort: a read-only checkout still works."""
    import compileall

    try:
        compileall.compile_dir(scripts_dir, quiet=1)
    except OSError:
        pass


def compile_problem(path):
    """Why a Python file would not run (missing, unreadable, syntax error), or None."""
    try:
        with open(path, "rb") as handle:
            source = handle.read()
    except FileNotFoundError:
        return "%s does not exist" % path
    except OSError as error:
        return "cannot read %s: %s" % (path, error.strerror or error)
    try:
        compile(source, path, "exec", dont_inherit=True)
    except SyntaxError as error:
        return "%s does not compile: line %s: %s" % (path, error.lineno, error.msg)
    except ValueError as error:
        return "%s does not compile: %s" % (path, error)
    return None


def interpreter_problem(python):
    """Why a registered interpreter cannot run the hooks, or None."""
    if python == PLUGIN_PYTHON:
        found = shutil.which(python)
        if not found:
            return "python3 (used by the plugin's hooks) is not on PATH"
        python = found
    if not os.path.isfile(python):
        return "the registered interpreter %s does not exist" % python
    try:
        completed = subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                   timeout=INTERPRETER_PROBE_TIMEOUT)
        major, minor = (int(part) for part in completed.stdout.decode().strip().split("."))
    except (OSError, subprocess.SubprocessError, ValueError):
        return "the registered interpreter %s does not run" % python
    if (major, minor) < MIN_PYTHON:
        return "the registered interpreter %s is Python %d.%d; the hooks need %d.%d or newer" % (
            python, major, minor, MIN_PYTHON[0], MIN_PYTHON[1])
    return None


def check(environ, cwd, out):
    """Report on the whole installation; returns the list of problems."""
    home = claude_home(environ)
    problems = []
    notes = []

    sources = [("user settings", os.path.join(home, "settings.json"))]
    top = toplevel(cwd)
    if top is not None:
        sources.append(("project settings", os.path.join(top, ".claude", "settings.json")))
        sources.append(("local settings", os.path.join(top, ".claude", "settings.local.json")))
    else:
        notes.append("%s is not in a git checkout: project and local settings were not looked at" % cwd)

    found = []
    read_settings = []
    for label, path in sources:
        try:
            loaded = load_settings(path)
        except InstallError as error:
            problems.append(str(error).replace("; nothing was changed", ""))
            continue
        read_settings.append(loaded.settings)
        found.extend(registrations(loaded.settings, "%s %s" % (label, path)))

    plugin_roots = {}
    for plugin_id, install_path in plugin_installs(home):
        hooks_file = _read_json(os.path.join(install_path, "hooks", "hooks.json"))
        mine = registrations(hooks_file if isinstance(hooks_file, dict) else {},
                             "plugin %s at %s" % (plugin_id, install_path), deduplicated=False)
        if not mine:
            continue
        if enabled_state(read_settings, plugin_id) is False:
            notes.append("plugin %s at %s is installed but disabled; its hooks do not run" % (plugin_id, install_path))
            continue
        plugin_roots.update((r.where, install_path) for r in mine)
        found.extend(mine)

    problems.extend(registration_problems(found))
    for registration in found:
        script = script_path_in(registration.command, plugin_roots.get(registration.where))
        if script and not os.path.isfile(script):
            remedy = ("update or reinstall the plugin" if registration.where in plugin_roots
                      else "a moved checkout? run install.py from where it is now")
            problems.append("%s runs %s, which does not exist (%s)" % (registration.where, script, remedy))
    for python in sorted({interpreter_in(r.command) for r in found} - {None}):
        problem = interpreter_problem(python)
        if problem:
            problems.append(problem)

    for hook in CLAUDE_HOOKS:
        problem = compile_problem(os.path.join(SCRIPTS_DIR, hook.script))
        if problem:
            problems.append(problem)
    library = os.path.join(SCRIPTS_DIR, "peerhooks")
    for name in sorted(os.listdir(library)) if os.path.isdir(library) else []:
        if name.endswith(".py"):
            problem = compile_problem(os.path.join(library, name))
            if problem:
                problems.append(problem)

    if sys.version_info[:2] < MIN_PYTHON:
        problems.append("this interpreter is Python %d.%d; peerhooks needs %d.%d or newer"
                        % (sys.version_info[0], sys.version_info[1], MIN_PYTHON[0], MIN_PYTHON[1]))
    if shutil.which("git", path=environ.get("PATH")) is None:
        problems.append("git is not on PATH (the index guard and the checkout lookups need it)")
    if not os.path.isdir(home):
        problems.append("the Claude home %s does not exist (has Claude Code run under this user?)" % home)
    elif not os.path.isdir(os.path.join(home, "sessions")):
        problems.append("%s does not exist: no session has registered there yet (Claude Code creates it "
                        "when a session starts; versions without the session registry cannot show peers)"
                        % os.path.join(home, "sessions"))

    rule = rules_target(home)
    if os.path.isfile(rule):
        notes.append("the rule file %s is in place" % rule)
    else:
        notes.append("the rule file is not installed (install.py --rules places it in %s)" % rule)

    out.write("peerhooks check (Claude home %s)\n" % home)
    for registration in found:
        out.write("  found  %s for %s in %s\n" % (registration.script, registration.event, registration.where))
    for note in notes:
        out.write("  note   %s\n" % note)
    if problems:
        out.write("%d problem%s:\n" % (len(problems), "" if len(problems) == 1 else "s"))
        for problem in problems:
            out.write("  - %s\n" % problem.replace("\n", "\n    "))
    else:
        out.write("All well: each hook is registered once, the scripts compile, Python and git are fine.\n")
    return problems


# ---------------------------------------------------------------------------------------------------
# Command line


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write("install.py: %s\n" % message)
        sys.exit(EXIT_PROBLEM)


def parse_args(argv):
    parser = _Parser(prog="install.py", description="Wire peerhooks into Claude Code (or Codex) settings.")
    parser.add_argument("--scope", choices=("user", "project", "local"), default="user",
                        help="user: settings.json in the Claude home (default); project: .claude/settings.json "
                             "of this checkout; local: .claude/settings.local.json of this checkout")
    parser.add_argument("--dry-run", action="store_true", help="print the change as a unified diff; write nothing")
    parser.add_argument("--uninstall", action="store_true",
                        help="remove exactly peerhooks' entries (and, in user scope or with --rules, the rule file)")
    parser.add_argument("--codex", action="store_true",
                        help="wire the hooks that work under Codex into its hooks.json instead")
    parser.add_argument("--rules", action="store_true",
                        help="also place rules/peerhooks.md in the Claude home's rules/ folder")
    parser.add_argument("--check", action="store_true", help="check the installation and report problems")
    args = parser.parse_args(argv)
    if args.check and (args.uninstall or args.dry_run or args.codex or args.rules):
        parser.error("--check runs on its own")
    if args.codex and args.rules:
        parser.error("--rules places a Claude Code rule file; Codex does not read it")
    return args


def main(argv=None, environ=None, cwd=None, out=None, now=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    environ = os.environ if environ is None else environ
    cwd = os.getcwd() if cwd is None else cwd
    out = sys.stdout if out is None else out
    now = datetime.datetime.now(datetime.timezone.utc) if now is None else now
    try:
        if args.check:
            return EXIT_PROBLEM if check(environ, cwd, out) else EXIT_OK
        target = choose_target(args.scope, args.codex, environ, cwd)
        home = claude_home(environ)
        if args.uninstall:
            uninstall(target, args.dry_run, now, out)
            if args.rules or (args.scope == "user" and not args.codex):
                remove_rules(home, args.dry_run, out)
            return EXIT_OK
        if not sys.executable:
            raise InstallError("cannot tell which Python runs this installer; run it as `python3 install.py`")
        install(target, SCRIPTS_DIR, os.path.abspath(sys.executable), args.dry_run, now, out)
        if not args.dry_run:
            precompile(SCRIPTS_DIR)
        if args.rules:
            place_rules(home, args.dry_run, now, out)
        out.write("\n" + AGENT_KEY_REMINDER)
        if args.codex:
            out.write("\n" + CODEX_TRUST_REMINDER)
        return EXIT_OK
    except InstallError as error:
        sys.stderr.write("install.py: %s\n" % error)
        return EXIT_PROBLEM


if __name__ == "__main__":
    raise SystemExit(main())
