"""What `npm run S`, `npm test`, `yarn S`, `pnpm S`, `bun run S` run: the package.json scripts,
with their `pre<S>` and `post<S>` scripts, in the package's folder.

Why: `npm run commit` / `release` / `clean` whose script is `git add -A && git commit …` or `git
clean -fdx` sweeps or deletes a live peer's work (replayed public incidents). A script calling
another (`npm run a && npm run b`) is followed in turn by the shared interpreter.

As the package managers do: npm finds the package by walking up from the folder to the nearest
package.json (`--prefix`/`-C` name it); yarn (`--cwd`), pnpm (`-C`/`--dir`) and bun (`--cwd`) too.
The script runs through `sh -c` in that folder, with the command line's arguments after the script
name (or after `--`) appended, quoted. `pre`/`post` scripts run around every script (npm 7+, yarn 1;
pnpm and yarn 2+ skip them for some scripts, and counting them anyway only adds what may run);
`--ignore-scripts` leaves them out. Not followed: workspace and recursive runs (`-w`, `-ws`, `pnpm
-r`, `--filter`, `yarn workspace`): the workspaces' own package.json are not looked for.
"""
from ..startup.jsonfast import loads
from ..startup.records import record

# npm's words for running a script, and the lifecycle commands that run the script of their name.
NPM_RUN = frozenset(["run", "run-script", "rum", "urn"])
NPM_LIFECYCLE = {"test": "test", "t": "test", "tst": "test", "start": "start", "stop": "stop",
                 "restart": "restart"}
# yarn 1's and pnpm's own commands: any other first word runs the script of that name.
YARN_COMMANDS = frozenset("""access add audit autoclean bin cache check config create dedupe dlx exec
explain generate-lock-entry global help import info init install licenses link list login logout node
npm outdated owner pack patch plugin policies publish rebuild remove set tag team unlink unplug up
upgrade upgrade-interactive version versions why workspace workspaces""".split())
PNPM_COMMANDS = frozenset("""add audit bin c config create deploy dlx doctor env exec fetch i import init
install install-test it licenses link list ln ls outdated pack patch patch-commit patch-remove prune
publish rb rebuild recursive remove rm root server setup store un uninstall unlink up update upgrade
why""".split())
# Options whose value is the next word, per manager (folder options are read, the others skipped).
VALUE_OPTIONS = {
    "npm": frozenset(["--prefix", "-C", "--loglevel", "--script-shell", "--registry", "--userconfig",
                      "--cache", "-w", "--workspace"]),
    "yarn": frozenset(["--cwd", "--modules-folder", "--cache-folder", "--mutex", "--network-timeout"]),
    "pnpm": frozenset(["-C", "--dir", "--filter", "-F", "--reporter", "--loglevel", "--workspace-root"]),
    "bun": frozenset(["--cwd", "--filter", "-F", "--shell"]),
}
FOLDER_OPTIONS = frozenset(["--prefix", "-C", "--cwd", "--dir"])
WORKSPACE_OPTIONS = frozenset(["-w", "--workspace", "-ws", "--workspaces", "-r", "--recursive", "--filter",
                               "-F"])

Run = record("Run", "scripts arguments folder walks_up pre_post unknown", (None,), """One script run:
    the scripts to run in order (the named one and its lifecycle), the arguments appended to the
    named one, the folder to look for package.json in, whether to walk up from it to the nearest
    one, whether pre/post scripts run, and why it cannot be followed (None: it can).""")


def invocation(manager, words, cwd):
    """The Run a package manager's command line asks for, or None when it runs no script of the
    package (`npm install`, `yarn add x`, `bun x.ts`, a workspace run)."""
    if cwd is None:
        return None
    values = VALUE_OPTIONS[manager]
    folder, walks_up, pre_post, operands, after_dashes = cwd, True, True, [], None
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word is None:
            if not operands:
                return Run((), (), cwd, False, False, "a script name known only when it runs")
            operands.append(None)
            continue
        if word == "--":
            after_dashes = words[index:]
            break
        if operands and manager != "npm":
            operands.append(word)  # yarn, pnpm and bun pass every later word to the script
            continue
        name, has_value, value = word.partition("=")
        if name in WORKSPACE_OPTIONS or word in ("workspace", "workspaces") and not operands and manager == "yarn":
            return None
        if name.startswith("-"):
            if name in values and not has_value and index < len(words):
                value, index = words[index], index + 1
            if name in FOLDER_OPTIONS and value:
                folder = value if value.startswith("/") else cwd.rstrip("/") + "/" + value
                walks_up = manager != "npm"  # npm's --prefix is the package folder itself
            if name == "--ignore-scripts":
                pre_post = False
            continue
        operands.append(word)
    return _script_run(manager, operands, after_dashes, folder, walks_up, pre_post)


def _script_run(manager, operands, after_dashes, folder, walks_up, pre_post):
    if not operands:
        return None
    first, rest = operands[0], operands[1:]
    if manager == "npm":
        if first in NPM_RUN:
            if not rest:
                return None  # lists the scripts
            script, arguments = rest[0], rest[1:]
        elif first in NPM_LIFECYCLE:
            script, arguments = NPM_LIFECYCLE[first], rest
        else:
            return None
    elif manager == "bun":
        if first != "run" or not rest:
            return None  # `bun x` runs a file or a package binary; `bun test` is bun's test runner
        script, arguments = rest[0], rest[1:]
    else:
        builtins = YARN_COMMANDS if manager == "yarn" else PNPM_COMMANDS
        if first == "run":
            if not rest:
                return None
            script, arguments = rest[0], rest[1:]
        elif first in builtins:
            return None
        else:
            script, arguments = first, rest
    if script is None:
        return Run((), (), folder, False, False, "a script name known only when it runs")
    arguments = list(arguments) + list(after_dashes or ())
    if any(a is None for a in arguments):
        arguments = [a if a is not None else "${PEERHOOKS_SCRIPT_ARGUMENT}" for a in arguments]
    return Run((script,), tuple(arguments), folder, walks_up, pre_post)


def scripts_of(text):
    """{name: command} of a package.json's `scripts`; None when it is not JSON."""
    try:
        document = loads(text)
    except ValueError:
        return None
    scripts = document.get("scripts") if isinstance(document, dict) else None
    if not isinstance(scripts, dict):
        return {}
    return {name: value for name, value in scripts.items() if isinstance(value, str)}


def lines(run, scripts):
    """The command lines the run runs, in order: `pre<S>`, S with the arguments, `post<S>` for each
    script that exists. A missing script runs nothing (npm: "Missing script")."""
    found = []
    for script in run.scripts:
        if script == "restart" and "restart" not in scripts:
            names = [("stop", ()), ("start", ())]  # npm restart without a restart script
        else:
            names = [(script, run.arguments)]
        for name, arguments in names:
            if name not in scripts:
                continue
            if run.pre_post and "pre" + name in scripts:
                found.append(scripts["pre" + name])
            found.append(scripts[name] + "".join(" " + _quoted(a) for a in arguments))
            if run.pre_post and "post" + name in scripts:
                found.append(scripts["post" + name])
    return found


_PLAIN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=@%+,-")


def _quoted(text):
    if text.startswith("${PEERHOOKS_"):
        return text  # a word known only when it runs, left for the interpreter to see as such
    if text and all(c in _PLAIN for c in text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"
