"""What peerhooks wires and the pure merge of it into a hooks document (settings.json, a plugin's
hooks.json, Codex's hooks.json): no files, no clock, no environment.

Our entries are recognised by script name (`scripts/<name>.py`), so a moved checkout updates the paths
instead of adding copies, and an uninstall removes exactly those; the user's hooks, other keys and key
order are kept.

On Windows Claude Code runs a hook's command in Git Bash when it finds one, else in PowerShell, where
a line that starts with a quoted path is an expression (`"C:/…/python.exe" -S …` starts nothing) and
the call operator `&` would be a syntax error in bash. So there the hook is written in exec form
(`"command": <python.exe>, "args": ["-S", <script>, …]`), which 2.1.197 and 2.1.332 spawn directly, with
no shell to parse paths with spaces or to be missing (fixtures/samples/platforms/README.md).
"""
import copy
import json
import os
import re
import shlex
from dataclasses import dataclass
from typing import Optional, Tuple

from installer import InstallError

PLACEHOLDER_PYTHON = "/path/to/python3"
PLACEHOLDER_CHECKOUT = "/path/to/peerhooks"
# A plugin cannot know the user's interpreter, and `python3` on PATH may be a version manager's shim
# (pyenv's costs ~110 ms per call). So the plugin's hooks run `sh <launcher> <script> [words]`: the
# launcher (plugin/hooks/python.sh) asks python3 (python, py -3) once for its sys.executable, remembers
# it in the plugin's data folder, and execs `<python> -S <script> [words]` from then on.
PLUGIN_ROOT = "${CLAUDE_PLUGIN_ROOT}"
PLUGIN_LAUNCHER = "hooks/python.sh"  # under the plugin's root
# Hooks run as `<python> -S <script>`: they import only the standard library, and without the site
# module (and the .pth files it executes) an interpreter starts several times faster: here 8 ms
# instead of 35 ms for `python3 -c pass` (median of 15; README: `bench/run.py --no-site`). Every hook
# runs on every prompt or shell command.
NO_SITE = "-S"

@dataclass(frozen=True)
class Hook:
    """One hook peerhooks wires: which event, which sources/tools, which script with which words."""

    event: str
    matcher: Optional[str]  # None: the event has no matcher (UserPromptSubmit)
    script: str  # file name under scripts/
    args: Tuple[str, ...]
    timeout: int  # seconds


# SessionStart sources: startup, resume, clear, compact, and fork (since Claude Code 2.1.214: a new
# session that already holds its parent's conversation, so it is handled like resume). A matcher word
# a client never sends is harmless.
STARTS = "startup|resume|clear|fork"  # every source but compact
STARTS_AND_COMPACTION = "startup|resume|clear|compact|fork"

# The tools that write a file (scripts/peerhooks/claude_formats.EDIT_TOOLS; a test keeps the two
# equal), and Codex's one (its PreToolUse payload names apply_patch: fixtures/samples/codex-0.171).
EDIT_TOOLS_MATCHER = "Edit|Write|MultiEdit|NotebookEdit"
CODEX_EDIT_MATCHER = "apply_patch"

CLAUDE_HOOKS = (
    Hook("SessionStart", STARTS, "peers.py", ("--hook",), 10),
    # compact too: after compaction the model has lost its orientation and gets a short anchor back
    Hook("SessionStart", STARTS_AND_COMPACTION, "cold_start.py", (), 10),
    Hook("UserPromptSubmit", None, "memory_delta.py", (), 5),
    Hook("PreToolUse", "Bash", "git_index_guard.py", (), 5),
    Hook("PreToolUse", EDIT_TOOLS_MATCHER, "edit_notice.py", (), 5),
)

# Codex writes no Claude session registry, so the peer list and memory notices have nothing to read;
# the cold-start material and the index guard work from the checkout alone, and the edit notice from
# the Claude Code peers' registry and transcripts. Each is told it runs under
# Codex (state under .codex/, AGENTS.md, refusals by exit 2). Codex's sources are startup, resume and
# clear (compaction is not a session start there); fork is kept for the same reason as above.
CODEX_HOST = ("--host", "codex")
CODEX_HOOKS = (
    Hook("SessionStart", STARTS, "cold_start.py", CODEX_HOST, 10),
    Hook("PreToolUse", "Bash", "git_index_guard.py", CODEX_HOST, 5),
    # Claude Code sessions' edits are in their transcripts, so a Codex session is told of theirs.
    Hook("PreToolUse", CODEX_EDIT_MATCHER, "edit_notice.py", CODEX_HOST, 5),
)

OUR_SCRIPTS = tuple(sorted({hook.script for hook in CLAUDE_HOOKS + CODEX_HOOKS}))

# Our script as the last component of a path under a folder named scripts, in any command line:
# '/a b/scripts/peers.py', "C:/x/scripts/peers.py", ${CLAUDE_PLUGIN_ROOT}/scripts/peers.py.
_OUR_SCRIPT_IN_COMMAND = re.compile(
    r"(?:^|[/\\])scripts[/\\](%s)(?=$|['\"\s])" % "|".join(re.escape(name) for name in OUR_SCRIPTS)
)


@dataclass(frozen=True)
class Entry:
    """A hook made concrete: the command line that runs it from one checkout with one interpreter,
    or in exec form the program (`command`) and its `args`, spawned without a shell."""

    event: str
    matcher: Optional[str]
    script: str
    command: str
    timeout: int
    args: Optional[Tuple[str, ...]] = None

    def handler(self):
        handler = {"type": "command", "command": self.command}
        if self.args is not None:
            handler["args"] = list(self.args)
        handler["timeout"] = self.timeout
        return handler

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
    exec_form: bool = False  # spawned without a shell (`args`); `command` then shows program and args


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
    """The hook command: interpreter, -S, script as absolute quoted paths, then fixed words."""
    if windows:
        words = [windows_quote(python.replace("\\", "/")), NO_SITE, windows_quote(script_path.replace("\\", "/"))]
    else:
        words = [sh_quote(python), NO_SITE, sh_quote(script_path)]
    return " ".join(words + list(args))


def build_entries(hooks, python, scripts_dir, windows=False, exec_form=False):
    """The entries for one interpreter and checkout; exec_form for Claude Code on Windows."""
    if exec_form:
        return [Entry(hook.event, hook.matcher, hook.script, python, hook.timeout,
                      (NO_SITE, os.path.join(scripts_dir, hook.script)) + hook.args) for hook in hooks]
    return [
        Entry(hook.event, hook.matcher, hook.script,
              command_line(python, os.path.join(scripts_dir, hook.script), hook.args, windows),
              hook.timeout)
        for hook in hooks
    ]


def plugin_entries(hooks):
    """Entries for the plugin's hooks/hooks.json: its launcher runs each script with -S (Claude Code
    fills in ${CLAUDE_PLUGIN_ROOT})."""
    return [
        Entry(hook.event, hook.matcher, hook.script,
              " ".join(["sh", '"%s/%s"' % (PLUGIN_ROOT, PLUGIN_LAUNCHER), '"%s/scripts/%s"' % (PLUGIN_ROOT, hook.script)]
                       + list(hook.args)),
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


def _exec_args(handler):
    """An exec-form handler's `args` (a list of strings), or None for a shell command."""
    args = handler.get("args")
    return args if isinstance(args, list) and all(isinstance(arg, str) for arg in args) else None


def handler_script(handler):
    """Which of our scripts a handler runs, from its command line or, in exec form, its args."""
    if not isinstance(handler, dict):
        return None
    for word in [handler.get("command")] + (_exec_args(handler) or []):
        if script_of(word):
            return script_of(word)
    return None


def handler_command(handler):
    """A handler's command as one line: exec form's program and args quoted as a shell reads them."""
    args = _exec_args(handler)
    command = handler.get("command")
    return command if args is None or not isinstance(command, str) else shlex.join([command] + args)


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
    return handler_script(handler) in scripts


def _same_matcher(group, matcher):
    present = group.get("matcher")
    if matcher is None:
        return present in (None, "", "*")
    return present == matcher


def _updated_handler(handler, entry):
    """Our handler with this entry's command (args) and timeout, keeping its key order and any extra
    keys; a shell command loses the args an earlier exec form had."""
    updated = dict(handler)
    if entry.args is None:
        updated.pop("args", None)
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
            if handler_script(handler) != entry.script:
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
                script = handler_script(handler)
                if script:
                    found.append(Registration(script, event, handler_command(handler), where, deduplicated,
                                              _exec_args(handler) is not None))
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

