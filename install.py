#!/usr/bin/env python3
"""Wire peerhooks into Claude Code (or Codex) settings, safely and reversibly; and check the wiring.

People used to hand-edit `~/.claude/settings.json`; a stray comma breaks every hook in the file, and a
second copy (a moved checkout, a plugin install next to a settings install) makes each hook run twice.
This installer merges exactly our entries into the chosen settings file and nothing else:

- it recognises its own entries by script name (`scripts/<name>.py`), so a moved checkout updates the
  paths instead of adding copies, and `--uninstall` removes exactly those;
- it writes only the hook groups and handlers it changes, in the file's own indentation, escaping and
  newline style (the user's own entries keep their bytes), and leaves the file byte-identical when
  nothing changes; an uninstall of a file nobody touched since the install gives back its original
  bytes (or removes the file it created);
- it writes through a symlink to its target, replaces the file by an atomic rename only if nobody
  changed it meanwhile, and keeps a bounded number of backups outside the checkout;
- it refuses a file it cannot understand (not JSON, not an object, `hooks` of the wrong type) without
  touching it;
- it wires only scripts that exist: `python3 missing.py` exits 2, which Claude Code reads as *block*
  (every Bash call refused, every prompt erased on UserPromptSubmit);
- an uninstall says what state the hooks leave behind, and `--uninstall --purge` removes it, only
  what is peerhooks', once no other install runs the hooks.

What is wired and the pure merge live in `installer/wiring.py`, the format-keeping edit in
`installer/jsonedit.py`, the safe replacement in `installer/userfile.py`, `--check` in
`installer/checks.py`, the state left behind in `installer/purge.py`. This file is the command line
and the order of the steps.
"""
import argparse
import datetime
import difflib
import os
import shlex
import sys
from dataclasses import dataclass
from typing import Tuple

REPO = os.path.dirname(os.path.abspath(__file__))
SCRIPTS_DIR = os.path.join(REPO, "scripts")
sys.path.insert(0, SCRIPTS_DIR)
sys.path.insert(0, REPO)

from installer import InstallError, checks, hooksfile, plugin, purge, userfile, windows  # noqa: E402 - needs the sys.path lines above
from installer.wiring import (CLAUDE_HOOKS, CODEX_HOOKS, Hook, build_entries, merge,  # noqa: E402
                              registrations, unmerge)
from peerhooks.git.gitrepo import toplevel  # noqa: E402
from peerhooks.claude.home import claude_home, codex_home  # noqa: E402

EXIT_OK = 0
EXIT_PROBLEM = 1  # also for usage errors: argparse's 2 would read as "block" if ever run as a hook
RULE_FILE = "peerhooks.md"
BACKUPS = userfile.BACKUPS


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
    backups: str  # the folder that keeps this file's backups and install record


def repository_root(cwd):
    top = toplevel(cwd)
    if top is None:
        raise InstallError("%s is not inside a git checkout; --scope project and --scope local write "
                           "into the checkout's .claude/ (or .codex/) folder" % cwd)
    return top


def settings_path(scope, home, cwd):
    if scope == "user":
        return os.path.join(home, "settings.json")
    name = "settings.json" if scope == "project" else "settings.local.json"
    return os.path.join(repository_root(cwd), ".claude", name)


def choose_target(scope, codex, environ, cwd):
    if not codex:
        home = claude_home(environ)
        return Target(settings_path(scope, home, cwd), "%s settings" % scope, CLAUDE_HOOKS,
                      os.path.join(home, BACKUPS))
    backups = os.path.join(codex_home(environ), BACKUPS)
    if scope == "local":
        raise InstallError("Codex has no local hooks file; use --scope user or --scope project with --codex")
    if scope == "user":
        return Target(os.path.join(codex_home(environ), "hooks.json"), "Codex user hooks", CODEX_HOOKS, backups)
    return Target(os.path.join(repository_root(cwd), ".codex", "hooks.json"), "Codex project hooks",
                  CODEX_HOOKS, backups)


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
    "Codex runs new or changed hooks only after you trust them, and `codex exec` skips untrusted ones\n"
    "without a word: start codex in the checkout, type /hooks and press t (trust all). For one run,\n"
    "`codex exec --dangerously-bypass-hook-trust` runs them untrusted. Hooks in a checkout's .codex/\n"
    "load only once the folder is trusted (codex asks \"Trust this folder?\" on its first start there).\n"
    "`install.py --check` says what is trusted. (Codex before 0.124 also needs `[features] codex_hooks =\n"
    "true` in config.toml.)\n"
)


def describe(hook):
    where = hook.event if hook.matcher is None else "%s (%s)" % (hook.event, hook.matcher)
    return "%-52s %s" % (where, " ".join((hook.script,) + hook.args))


def show_dry_run(path, compute, out):
    before = userfile.snapshot(path)
    wanted = compute(before)
    if wanted is None or wanted == before.data:
        out.write("%s already says exactly this; nothing changed.\n" % path)
    elif wanted is userfile.REMOVE:
        out.write("Dry run: would remove %s (install.py created it and it holds nothing else).\n" % path)
    else:
        old_text = None if before.data is None else before.data.decode("utf-8-sig")
        out.write("Dry run: this is the change to %s (nothing was written):\n" % path)
        out.write(unified_diff(old_text, wanted.decode("utf-8-sig"), path))


def report_outcome(outcome, store, out):
    path = outcome.before.path
    if not outcome.changed:
        out.write("%s already says exactly this; nothing changed.\n" % path)
        return
    if outcome.after is None:
        out.write("Removed %s: install.py had created it, and it held nothing else.\n" % path)
    elif outcome.before.real_path != os.path.abspath(path):
        out.write("Updated %s (through the link, in %s).\n" % (path, outcome.before.real_path))
    else:
        out.write("Updated %s.\n" % path)
    if outcome.backup:
        out.write("The previous version is kept in %s (the newest %d backups of each file are kept in %s).\n"
                  % (outcome.backup, userfile.KEEP_BACKUPS, store.folder))


def remember_install(store, path, outcome, before_settings):
    """Keep what an uninstall needs to give back the original bytes: the bytes from before the first
    install, and a hash of what was written now. A file that already held our entries without a
    matching record (edited since, or installed by an older install.py) has no original to give back."""
    record = store.record(path)
    before = outcome.before.data
    written = userfile.sha256(outcome.after)
    if record is not None and before is not None and userfile.sha256(before) == record.installed_sha256:
        store.save_record(path, userfile.InstallRecord(record.original, written, record.created_folders))
    elif not registrations(before_settings, path):
        store.save_record(path, userfile.InstallRecord(before, written, outcome.created_folders))
    else:
        store.drop_record(path)


def enabled_plugins(environ, cwd):
    """The enabled copies of the peerhooks plugin that run our hooks where install.py runs."""
    home, checkout = claude_home(environ), toplevel(cwd)
    sources = [(label, plugin.read_json(path)) for label, path in checks.settings_files(home, checkout)]
    return plugin.enabled_copies(home, sources, checkout)


def refuse_beside_plugin(copies, target):
    """Wiring the hooks into a settings file while an enabled plugin runs them would run each twice
    (Claude Code runs a plugin's copy again): say so, and how to choose one."""
    scripts = sorted({r.script for copy in copies for r in copy.registrations})
    raise InstallError(
        "the peerhooks plugin already runs %s: %s (%s). Wiring them into %s as well would run each "
        "twice, so nothing was changed. Keep the plugin and there is nothing to do; to run them from "
        "this checkout instead, run `%s` and then install.py again (`claude plugin uninstall %s` "
        "removes the plugin)."
        % (", ".join(scripts), "; ".join(copy.where for copy in copies), copies[0].why, target.path,
           copies[0].disable_command, copies[0].install.plugin_id))


def plugin_still_runs(copies, out):
    for copy in copies:
        out.write("The peerhooks plugin still runs the hooks: %s (%s). `%s` stops it.\n"
                  % (copy.where, copy.why, copy.disable_command))


def install(target, scripts_dir, python, dry_run, now, out):
    """Wire the hooks into the target file; True when the file changed (the wiring is news)."""
    wired = present_scripts(scripts_dir, target.hooks)
    missing = [hook for hook in target.hooks if hook not in wired]
    # On Windows, Claude Code's hooks in exec form: no shell (Git Bash or PowerShell) parses them.
    entries = build_entries(wired, python, scripts_dir, windows=is_windows(),
                            exec_form=is_windows() and target.hooks == CLAUDE_HOOKS)
    read = {}

    def compute(before):
        loaded = hooksfile.parse(target.path, before.data)
        read["settings"] = loaded.settings
        new_settings = merge(unmerge(loaded.settings, [hook.script for hook in missing]), entries)
        return None if new_settings == loaded.settings else hooksfile.edited_bytes(loaded, new_settings)

    out.write("peerhooks -> %s (%s)\n" % (target.path, target.label))
    for hook in wired:
        out.write("  wired    %s\n" % describe(hook))
    for hook in missing:
        out.write("  skipped  %s: scripts/%s is not in this checkout yet (a missing script makes python "
                  "exit 2, which the host reads as a refusal)\n" % (describe(hook), hook.script))
    if dry_run:
        show_dry_run(target.path, compute, out)
        return False
    store = userfile.BackupFolder(target.backups)
    outcome = userfile.change(target.path, compute, store, now)
    report_outcome(outcome, store, out)
    if outcome.changed:
        remember_install(store, target.path, outcome, read["settings"])
    return outcome.changed


def uninstall(target, dry_run, now, out):
    """Remove our entries. A file unchanged since install.py last wrote it gets its original bytes back
    (or is removed, with the folders the install created, if there was no file); any other file loses
    only our entries and keeps its style."""
    store = userfile.BackupFolder(target.backups)
    record = store.record(target.path)

    def compute(before):
        if before.data is None:
            return None
        if record is not None and userfile.sha256(before.data) == record.installed_sha256:
            return userfile.REMOVE if record.original is None else record.original
        loaded = hooksfile.parse(target.path, before.data)
        new_settings = unmerge(loaded.settings)
        if new_settings == loaded.settings:
            return None
        if record is not None and record.original is None and new_settings == {}:
            return userfile.REMOVE
        return hooksfile.edited_bytes(loaded, new_settings)

    out.write("peerhooks -> removing its hooks from %s (%s)\n" % (target.path, target.label))
    if dry_run:
        show_dry_run(target.path, compute, out)
        return
    outcome = userfile.change(target.path, compute, store, now)
    if outcome.before.data is None:
        out.write("%s does not exist; nothing to remove.\n" % target.path)
    else:
        report_outcome(outcome, store, out)
        if outcome.changed and record is not None and outcome.after == record.original:
            out.write("It holds exactly its bytes from before peerhooks was installed.\n")
    if outcome.changed and outcome.after is None and record is not None:
        userfile.remove_empty_folders(record.created_folders)
    store.drop_record(target.path)


# ---------------------------------------------------------------------------------------------------
# What an uninstall leaves, and --purge


def still_wired(environ, cwd, plugins, except_path):
    """Where the hooks still run, besides except_path: this checkout's settings and Codex hooks files
    and every file an install record names, when they hold our entries, and the enabled plugin copies."""
    home, codex, checkout = claude_home(environ), codex_home(environ), toplevel(cwd)
    paths = [path for _, path in checks.settings_files(home, checkout)] + [os.path.join(codex, "hooks.json")]
    if checkout is not None:
        paths.append(os.path.join(checkout, ".codex", "hooks.json"))
    for folder in (os.path.join(home, BACKUPS), os.path.join(codex, BACKUPS)):
        paths.extend(userfile.BackupFolder(folder).recorded_files())
    places = []
    for path in dict.fromkeys(os.path.abspath(path) for path in paths):
        if path == os.path.abspath(except_path):
            continue
        try:
            settings = hooksfile.load(path).settings
        except InstallError:
            continue
        if registrations(settings, path):
            places.append(path)
    return places + [copy.where for copy in plugins]


def purge_or_say_what_stays(target, environ, cwd, plugins, purging, dry_run, out):
    """After an uninstall: with --purge, remove peerhooks' state once nothing else runs the hooks
    (they would write it again, and install.py's records give the other files back as they were);
    without, say what stays and how to remove it, once nothing else runs them."""
    wired = still_wired(environ, cwd, plugins, target.path)
    if purging and wired:
        raise InstallError(
            "--purge removed nothing: the hooks still run from %s. Their state is in use there, and "
            "install.py's records are what gives those files back as they were. Uninstall them first "
            "(install.py --uninstall with the --scope or --codex they were installed with; `claude plugin "
            "uninstall <id>` for a plugin), then run --uninstall --purge again." % "; ".join(wired))
    if wired and not purging:
        return EXIT_OK  # the state is in use: nothing to say about it
    homes = (claude_home(environ), codex_home(environ))
    found = purge.find(homes, purge.known_workspaces(homes[0]) | {toplevel(cwd) or os.path.abspath(cwd)})
    if not purging:
        if found:
            out.write("\n%s `python3 %s --uninstall --purge` removes them.\n"
                      % (purge.summary(found), shlex.quote(os.path.join(REPO, "install.py"))))
        return EXIT_OK
    if not (found or found.links):
        out.write("No state of peerhooks' is left to purge.\n")
    elif dry_run:
        out.write("Dry run: --purge would remove (nothing was removed):\n")
        purge.plan(found, out)
    else:
        out.write("Purged peerhooks' state:\n")
        if purge.remove(found, out):
            return EXIT_PROBLEM
    return EXIT_OK


def rules_source():
    return os.path.join(REPO, "rules", RULE_FILE)


def rules_target(home):
    return os.path.join(home, "rules", RULE_FILE)


def place_rules(home, dry_run, now, out):
    with open(rules_source(), "rb") as handle:
        wanted = handle.read()
    target = rules_target(home)
    if userfile.snapshot(target).data == wanted:
        out.write("The rule file %s is already in place; nothing changed.\n" % target)
    elif dry_run:
        out.write("Dry run: would write the rule file %s (every session on this machine loads it).\n" % target)
    else:
        store = userfile.BackupFolder(os.path.join(home, BACKUPS))
        outcome = userfile.change(target, lambda before: wanted, store, now)
        out.write("Placed the rule file %s; every new session on this machine loads it.\n" % target)
        if outcome.backup:
            out.write("The previous version is kept in %s.\n" % outcome.backup)


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


def precompile(scripts_dir):
    """Write the hooks' bytecode now: hooks run on every prompt and shell command, and where the
    environment sets PYTHONDONTWRITEBYTECODE they would otherwise recompile the library each time
    (about 0.3x of the interpreter's start-up). Best effort: a read-only checkout still works."""
    import compileall

    try:
        compileall.compile_dir(scripts_dir, quiet=1)
    except OSError:
        pass


# ---------------------------------------------------------------------------------------------------
# --check


def check(environ, cwd, out):
    """Report on the whole installation; returns the list of problems."""
    home = claude_home(environ)
    context = checks.Context(claude_home=home, codex_home=codex_home(environ), checkout=toplevel(cwd), cwd=cwd,
                             scripts_dir=SCRIPTS_DIR, rule_path=rules_target(home),
                             path_variable=environ.get("PATH"), on_windows=is_windows(),
                             git_bash=windows.git_bash(environ) if is_windows() else None)
    return checks.run(context, out)


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
    parser.add_argument("--purge", action="store_true",
                        help="with --uninstall: also remove peerhooks' state and install.py's backups, once no "
                             "other install runs the hooks")
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
    if args.purge and not args.uninstall:
        parser.error("--purge goes with --uninstall")
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
        plugins = [] if args.codex else enabled_plugins(environ, cwd)
        if args.uninstall:
            uninstall(target, args.dry_run, now, out)
            if args.rules or (args.scope == "user" and not args.codex):
                remove_rules(home, args.dry_run, out)
            plugin_still_runs(plugins, out)
            return purge_or_say_what_stays(target, environ, cwd, plugins, args.purge, args.dry_run, out)
        if plugins:
            refuse_beside_plugin(plugins, target)
        if not sys.executable:
            raise InstallError("cannot tell which Python runs this installer; run it as `python3 install.py`")
        news = install(target, SCRIPTS_DIR, os.path.abspath(sys.executable), args.dry_run, now, out)
        if not args.dry_run:
            precompile(SCRIPTS_DIR)
        if args.rules:
            place_rules(home, args.dry_run, now, out)
        if news:
            out.write("\n" + AGENT_KEY_REMINDER)
        if args.codex:
            out.write("\n" + CODEX_TRUST_REMINDER)
        return EXIT_OK
    except InstallError as error:
        sys.stderr.write("install.py: %s\n" % error)
        return EXIT_PROBLEM


if __name__ == "__main__":
    raise SystemExit(main())

