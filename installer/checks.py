"""`install.py --check`: one small named check per thing that can be wrong with an installation,
each adding what it found, notes and problems to one Report; `run` calls them in order and prints it.

A problem is something that stops a hook from running as intended (a hook registered twice or not at
all, a missing script or interpreter, an untrusted Codex hook); a note is a fact worth knowing that
needs no action (no session has started yet, the rule file is not installed)."""
import os
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from typing import List, Optional

from installer import InstallError, codextrust, hooksfile, plugin, windows
from installer.userfile import BACKUPS, KEEP_BACKUPS
from installer.wiring import (CLAUDE_HOOKS, PLUGIN_LAUNCHER, PLUGIN_ROOT, registration_problems,
                              registrations, script_of)

MIN_PYTHON = (3, 9)  # the hooks use 3.9 syntax and library calls
INTERPRETER_PROBE_TIMEOUT = 5  # seconds; a registered interpreter that hangs this long is broken anyway


@dataclass(frozen=True)
class Context:
    """Where to look: everything a check reads from the environment, decided once."""

    claude_home: str
    codex_home: str
    checkout: Optional[str]  # the git checkout --check runs in, or None
    cwd: str
    scripts_dir: str
    rule_path: str
    path_variable: Optional[str]
    on_windows: bool = False
    git_bash: Optional[str] = None  # on Windows, the bash.exe Claude Code runs hooks with, if any


@dataclass(frozen=True)
class CodexHook:
    script: str
    position: codextrust.HookPosition
    command: str
    trust: str  # codextrust.TRUSTED, CHANGED or UNTRUSTED


@dataclass
class Report:
    found: list = field(default_factory=list)  # Registration, for Claude Code
    codex: List[CodexHook] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)
    problems: List[str] = field(default_factory=list)
    plugin_roots: dict = field(default_factory=dict)  # Registration.where -> plugin install folder
    read_settings: list = field(default_factory=list)  # (label, settings value), in reading order
    plugin_copies: list = field(default_factory=list)  # plugin.Copy, enabled or not


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


def _bytecode_is_current(path, size):
    """True when this Python's cached bytecode of `path` was compiled from the file as it is now:
    the test the import system makes (magic number, timestamp mode, source mtime and size)."""
    import importlib.util

    try:
        with open(importlib.util.cache_from_source(path), "rb") as handle:
            header = handle.read(16)
        mtime = int(os.stat(path).st_mtime)
    except (OSError, NotImplementedError, ValueError):
        return False
    return (len(header) == 16 and header[:4] == importlib.util.MAGIC_NUMBER
            and int.from_bytes(header[4:8], "little") == 0  # not a hash-based pyc
            and int.from_bytes(header[8:12], "little") == mtime & 0xFFFFFFFF
            and int.from_bytes(header[12:16], "little") == size & 0xFFFFFFFF)


def interpreter_in(command):
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    return words[0] if words else None


def launcher_in(command, plugin_root):
    """The plugin's launcher a command runs (`sh <root>/hooks/python.sh <script>`), its root filled
    in; None for any other command."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if len(words) > 1 and words[0] == "sh" and words[1] == "%s/%s" % (PLUGIN_ROOT, PLUGIN_LAUNCHER):
        return os.path.join(plugin_root, *PLUGIN_LAUNCHER.split("/"))
    return None


def compile_problem(path):
    """Why a Python file would not run (missing, unreadable, syntax error), or None."""
    try:
        with open(path, "rb") as handle:
            source = handle.read()
    except FileNotFoundError:
        return "%s does not exist" % path
    except OSError as error:
        return "cannot read %s: %s" % (path, error.strerror or error)
    if _bytecode_is_current(path, len(source)):
        return None  # Python wrote it from this very source, which it does only when the source compiles
    try:
        compile(source, path, "exec", dont_inherit=True)
    except SyntaxError as error:
        return "%s does not compile: line %s: %s" % (path, error.lineno, error.msg)
    except ValueError as error:
        return "%s does not compile: %s" % (path, error)
    return None


VERSION_PROBE = ("-S", "-c", "import sys; print('%d.%d' % sys.version_info[:2])")


def interpreter_problem(python):
    """Why a registered interpreter cannot run the hooks, or None. A bare name (an older plugin's
    `python3`) is looked up on PATH, as the shell running the hook would."""
    if "/" not in python and "\\" not in python:
        found = shutil.which(python)
        if not found:
            return "%s (a registered hook's interpreter) is not on PATH" % python
        python = found
    if not os.path.isfile(python):
        return "the registered interpreter %s does not exist" % python
    return _probe_problem([python] + list(VERSION_PROBE), "the registered interpreter %s" % python)


def launcher_problem(launcher, path_variable):
    """Why the plugin's launcher cannot run the hooks (no sh, no Python 3.9+ for it to find on PATH),
    or None. It is asked as a hook asks it, but without the plugin's data folder: nothing is remembered."""
    shell = shutil.which("sh", path=path_variable)
    if shell is None:
        return "sh is not on PATH: the plugin's hooks run `sh %s` (on Windows, Git Bash's sh)" % launcher
    if not os.path.isfile(launcher):
        return "the plugin's launcher %s does not exist (update or reinstall the plugin)" % launcher
    env = {k: v for k, v in os.environ.items() if k != "CLAUDE_PLUGIN_DATA"}
    if path_variable is not None:
        env["PATH"] = path_variable
    return _probe_problem([shell, launcher] + list(VERSION_PROBE[1:]), "the plugin's launcher %s" % launcher, env)


def _probe_problem(argv, what, env=None):
    """Run a version probe; why what it ran cannot run the hooks, or None."""
    try:
        completed = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   timeout=INTERPRETER_PROBE_TIMEOUT, env=env)
    except (OSError, subprocess.SubprocessError):
        return "%s does not run" % what
    if completed.returncode == windows.STORE_STAND_IN_EXIT:
        return ("%s is the Microsoft Store's stand-in (it exits %d: no Python is installed behind it); "
                "install Python from python.org and run install.py with it" % (what, windows.STORE_STAND_IN_EXIT))
    try:
        major, minor = (int(part) for part in completed.stdout.decode().strip().split("."))
    except ValueError:
        said = completed.stderr.decode(errors="replace").strip().splitlines()
        return "%s does not run%s" % (what, ": " + said[-1] if said else "")
    if (major, minor) < MIN_PYTHON:
        return "%s is Python %d.%d; the hooks need %d.%d or newer" % (what, major, minor, MIN_PYTHON[0], MIN_PYTHON[1])
    return None


# ---------------------------------------------------------------------------------------------------
# The checks, in the order they run


def settings_files(claude_home, checkout):
    """[(label, path)] of the settings files Claude Code reads in a checkout, in its order
    (user < project < local; outside a checkout, the user's only)."""
    files = [("user settings", os.path.join(claude_home, "settings.json"))]
    if checkout is not None:
        files.append(("project settings", os.path.join(checkout, ".claude", "settings.json")))
        files.append(("local settings", os.path.join(checkout, ".claude", "settings.local.json")))
    return files


def settings_sources(context, report):
    if context.checkout is None:
        report.notes.append("%s is not in a git checkout: project and local settings were not looked at"
                            % context.cwd)
    return settings_files(context.claude_home, context.checkout)


def check_settings_files(context, report):
    """Read each settings file Claude Code would read and collect our registrations."""
    for label, path in settings_sources(context, report):
        try:
            loaded = hooksfile.load(path)
        except InstallError as error:
            report.problems.append(str(error).replace("; nothing was changed", ""))
            continue
        report.read_settings.append((label, loaded.settings))
        report.found.extend(registrations(loaded.settings, "%s %s" % (label, path)))


def check_plugins(context, report):
    """Each enabled plugin copy whose hooks/hooks.json runs our scripts counts as a registration."""
    report.plugin_copies = plugin.copies(context.claude_home, report.read_settings, context.checkout)
    for copy in report.plugin_copies:
        if not copy.enabled:
            report.notes.append("plugin %s at %s is installed but %s; its hooks do not run"
                                % (copy.install.plugin_id, copy.install.path, copy.why))
            continue
        report.plugin_roots.update((r.where, copy.install.path) for r in copy.registrations)
        report.found.extend(copy.registrations)


def check_each_hook_runs_once(context, report):
    """Every Claude Code hook registered exactly once; not asked of a Codex-only installation."""
    if not report.found and report.codex:
        report.notes.append("no Claude Code settings or plugin wire peerhooks (only Codex does)")
        return
    report.problems.extend(registration_problems(report.found))


def check_which_copy_runs(context, report):
    """Say which copy runs the hooks: the plugin, a settings file, or both (and how to keep one)."""
    sources = []
    for registration in report.found:
        if registration.where not in sources:
            sources.append(registration.where)
    if len(sources) == 1:
        report.notes.append("the hooks run from %s" % sources[0])
        return
    enabled = [copy for copy in report.plugin_copies if copy.enabled]
    settings = [where for where in sources if where not in report.plugin_roots]
    if enabled and settings:
        installer = shlex.quote(os.path.join(os.path.dirname(context.scripts_dir), "install.py"))
        uninstalls = " and ".join("`python3 %s --uninstall%s`" % (installer, uninstall_scope(where))
                                  for where in settings)
        report.notes.append("the hooks run from both the plugin and settings, so each runs twice; keep one: "
                            "%s leaves the plugin's, `%s` leaves the settings'"
                            % (uninstalls, enabled[0].disable_command))


def uninstall_scope(where):
    """The --scope words that uninstall from the settings file a registration names."""
    scope = where.split()[0]
    return "" if scope == "user" else " --scope " + scope


def check_registered_scripts_exist(context, report):
    for registration in report.found:
        script = script_path_in(registration.command, report.plugin_roots.get(registration.where))
        if script and not os.path.isfile(script):
            remedy = ("update or reinstall the plugin" if registration.where in report.plugin_roots
                      else "a moved checkout? run install.py from where it is now")
            report.problems.append("%s runs %s, which does not exist (%s)" % (registration.where, script, remedy))
    for hook in report.codex:
        script = script_path_in(hook.command)
        if script and not os.path.isfile(script):
            report.problems.append("Codex hooks %s run %s, which does not exist (a moved checkout? run "
                                   "install.py --codex from where it is now)" % (hook.position.hooks_file, script))


def check_interpreters(context, report):
    """Each registered interpreter, and each plugin copy's launcher, is asked for its version."""
    launchers, commands = set(), [hook.command for hook in report.codex]
    for registration in report.found:
        root = report.plugin_roots.get(registration.where)
        launcher = launcher_in(registration.command, root) if root else None
        if launcher:
            launchers.add(launcher)
        else:
            commands.append(registration.command)
    problems = [launcher_problem(launcher, context.path_variable) for launcher in sorted(launchers)]
    problems += [interpreter_problem(python) for python in sorted({interpreter_in(c) for c in commands} - {None})]
    report.problems.extend(problem for problem in problems if problem)


def check_scripts_compile(context, report):
    library = os.path.join(context.scripts_dir, "peerhooks")
    paths = [os.path.join(context.scripts_dir, hook.script) for hook in CLAUDE_HOOKS]
    paths += [os.path.join(library, name) for name in sorted(_listfiles(library)) if name.endswith(".py")]
    for path in paths:
        problem = compile_problem(path)
        if problem:
            report.problems.append(problem)


def check_python_and_git(context, report):
    if sys.version_info[:2] < MIN_PYTHON:
        report.problems.append("this interpreter is Python %d.%d; peerhooks needs %d.%d or newer"
                               % (sys.version_info[0], sys.version_info[1], MIN_PYTHON[0], MIN_PYTHON[1]))
    if shutil.which("git", path=context.path_variable) is None:
        report.problems.append("git is not on PATH (the index guard and the checkout lookups need it)")


def check_windows_shell(context, report):
    """On Windows: whether Git Bash will run the hooks, and the guard can run at all."""
    if context.on_windows:
        notes, problems = windows.shell_report(report.found, context.git_bash)
        report.notes.extend(notes)
        report.problems.extend(problems)


def check_claude_home(context, report):
    """A missing sessions/ folder is normal before Claude Code's first session: a note, not a problem."""
    sessions = os.path.join(context.claude_home, "sessions")
    if not os.path.isdir(context.claude_home):
        report.notes.append("the Claude home %s does not exist yet (Claude Code creates it on its first run)"
                            % context.claude_home)
    elif not os.path.isdir(sessions):
        report.notes.append("%s does not exist yet: no session has started under this Claude home (Claude Code "
                            "creates it with the first session; versions without the session registry cannot "
                            "show peers)" % sessions)


def check_rule_file(context, report):
    if os.path.isfile(context.rule_path):
        report.notes.append("the rule file %s is in place" % context.rule_path)
    else:
        report.notes.append("the rule file is not installed (install.py --rules places it in %s)" % context.rule_path)


def check_backups(context, report):
    """Where install.py kept the previous versions of the files it changed."""
    for home in (context.claude_home, context.codex_home):
        folder = os.path.join(home, BACKUPS)
        if os.path.isdir(folder):
            report.notes.append("install.py keeps backups of the files it changed in %s (the newest %d of each)"
                                % (folder, KEEP_BACKUPS))


def check_codex(context, report):
    """Our hooks in Codex's hooks files, and whether Codex will run them: trust recorded for each, and,
    for a checkout's .codex/hooks.json, the checkout trusted as a folder."""
    config = codextrust.read_config(context.codex_home)
    hashes = codextrust.trusted_hashes(config)
    places = [(os.path.join(context.codex_home, "hooks.json"), None)]
    if context.checkout is not None:
        places.append((os.path.join(context.checkout, ".codex", "hooks.json"), context.checkout))
    projects = codextrust.trusted_projects(config)
    for path, folder in places:
        try:
            loaded = hooksfile.load(path)
        except InstallError as error:
            report.problems.append(str(error).replace("; nothing was changed", ""))
            continue
        mine = list(codex_positions(loaded.settings, path))
        for script, position, command, current_hash in mine:
            report.codex.append(CodexHook(script, position, command,
                                          codextrust.trust_of(position, current_hash, hashes)))
        if mine and folder is not None and not codextrust.folder_is_trusted(folder, projects):
            report.problems.append(
                "Codex ignores %s until the folder %s is trusted (not even --dangerously-bypass-hook-trust "
                "runs them): start `codex` there and answer \"Trust and continue\", which writes "
                "[projects.\"%s\"] trust_level = \"trusted\" to %s"
                % (path, folder, folder, os.path.join(context.codex_home, "config.toml")))
    untrusted = [hook for hook in report.codex if hook.trust != codextrust.TRUSTED]
    if untrusted:
        report.problems.append("%d Codex hook%s not trusted, so Codex skips %s (codex exec says nothing): %s"
                               % (len(untrusted), " is" if len(untrusted) == 1 else "s are",
                                  "it" if len(untrusted) == 1 else "them", codextrust.TRUST_HOWTO))


def codex_positions(settings, hooks_file):
    """(script, position, command, the hash Codex would record if trusted now) of each of our
    handlers in a Codex hooks document."""
    hooks = settings.get("hooks") if isinstance(settings, dict) else None
    for event, groups in hooks.items() if isinstance(hooks, dict) else []:
        for group_index, group in enumerate(groups if isinstance(groups, list) else []):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for handler_index, handler in enumerate(handlers if isinstance(handlers, list) else []):
                command = handler.get("command") if isinstance(handler, dict) else None
                script = script_of(command)
                if script:
                    yield (script, codextrust.HookPosition(hooks_file, event, group_index, handler_index),
                           command, codextrust.trust_hash(event, group.get("matcher"), handler))


CHECKS = (check_settings_files, check_plugins, check_codex, check_each_hook_runs_once, check_which_copy_runs,
          check_registered_scripts_exist, check_interpreters, check_scripts_compile, check_python_and_git,
          check_windows_shell, check_claude_home, check_rule_file, check_backups)


def write_report(context, report, out):
    out.write("peerhooks check (Claude home %s)\n" % context.claude_home)
    for registration in report.found:
        out.write("  found  %s for %s in %s\n" % (registration.script, registration.event, registration.where))
    for hook in report.codex:
        out.write("  found  %s for %s in Codex hooks %s (%s)\n" % (
            hook.script, hook.position.event, hook.position.hooks_file,
            "trusted" if hook.trust == codextrust.TRUSTED else "%s: Codex skips it" % hook.trust))
    for note in report.notes:
        out.write("  note   %s\n" % note)
    if report.problems:
        out.write("%d problem%s:\n" % (len(report.problems), "" if len(report.problems) == 1 else "s"))
        for problem in report.problems:
            out.write("  - %s\n" % problem.replace("\n", "\n    "))
    else:
        out.write("All well: each hook is registered once, the scripts compile, Python and git are fine.\n")


def run(context, out):
    """Run every check, print the report; returns the list of problems."""
    report = Report()
    for check in CHECKS:
        check(context, report)
    write_report(context, report, out)
    return report.problems


def _listfiles(path):
    try:
        return os.listdir(path)
    except OSError:
        return []
