"""What a command line of npm, npx, yarn, pnpm, bun or bunx asks to run of the package's own: a
script with its `pre`/`post` scripts (`npm run S`, `yarn S`, `pnpm S`, `bun S`), a command's
lifecycle scripts (`npm install`, `npm version`, `npm publish`: package_commands), a command run
with the package's binaries on the PATH (`npm exec -c`, `pnpm exec`, `yarn exec`, `bun exec`), or a
package binary (`npx x`, `bunx x`, and `yarn x`/`bun x` where no script is named x), in the package
the line names or in its workspaces (`npm -w a`, `-ws`, `pnpm -r`, `--filter`, `yarn workspace a`,
`yarn workspaces foreach`, `bun --filter`).

Why: `npm run commit` / `release` / `clean` whose script is `git add -A && git commit …` or `git
clean -fdx` sweeps or deletes a live peer's work (replayed public incidents), and so does such a
script run as a lifecycle script or in a workspace (issue 35). A script calling another (`npm run a
&& npm run b`) is followed in turn by the shared interpreter.

As the managers do: the package is the nearest package.json walking up from the folder (npm's
`--prefix` names the package folder itself; yarn's and bun's `--cwd`, pnpm's `-C` a folder to start
from). A script runs through `sh -c` in its package's folder, the line's arguments (after the script
name, or after `--`) appended, quoted. `pre<S>`/`post<S>` run around S (npm, yarn 1, bun; pnpm and
yarn 2+ skip them by default, and counting them anyway only adds what may run); `--ignore-scripts`
leaves them and every lifecycle script out. Pure: the follower (package_runs) reads the files.
"""
from ..startup.jsonfast import loads
from ..startup.records import record
from .package_commands import (BUN_ALIASES, BUN_COMMANDS, BUN_LIFECYCLES, FOLDER_OPTIONS, LINKED, NPM_DEPENDENCIES,
                               NPM_LIFECYCLES, NPM_REIFY, NPM_SCRIPT_COMMANDS, NPM_VERSION_IN_WORKSPACES,
                               PNPM_ALIASES, PNPM_COMMANDS, PNPM_LIFECYCLES, PNPM_RECURSIVE_WITHOUT_ROOT,
                               VALUE_OPTIONS, YARN_COMMANDS, YARN_LIFECYCLES, Lifecycle, npm_command)

UNKNOWN_SCRIPT = "a script name known only when it runs"
RUNTIME_ARGUMENT = "${PEERHOOKS_SCRIPT_ARGUMENT}"  # an argument known only when it runs
END = object()  # what _Line.operand returns past the last operand

Selection = record("Selection", "manager filters every root", ((), False, False), """Which packages of a
    workspace a run acts on: those the filters name (as the manager reads a filter: a name, a
    folder, a glob), every workspace package (every), and the workspace root (root).""")

Run = record("Run", "folder walks_up events main arguments members root selection command binary own_binary "
             "otherwise unknown manager", ((), None, (), (), (), None, None, None, False, None, None, None),
             """What one command line runs of the package's own (manager: npm, yarn, pnpm or bun).
    folder: where to look for package.json (walking up from it when walks_up); events: the scripts
    run in each package acted on (the package itself, or those the selection names), in order,
    main the one the line's arguments are appended to; members: the scripts run in each workspace
    package (those the selection names, else all); root: the scripts run last in the workspace root
    (the package itself when it has none); command: words run in each package acted on, with the
    binaries on the PATH (the first read as shell text); binary: the words of a package binary to
    run, the package's own `bin` and its install scripts looked at first when own_binary (npx);
    otherwise: what runs in place of a missing main script ("binary": yarn, bun; "command": pnpm;
    "npm": npm's default `restart`); unknown: why it cannot be followed.""")


class _Line:
    """A manager's words read left to right: its options (the folder, --ignore-scripts, the
    workspace options) and the operands between them."""

    def __init__(self, manager, words, cwd):
        self.manager, self.words, self.index = manager, list(words), 0
        self.folder, self.walks_up, self.ignore_scripts, self.is_global = cwd, True, False, False
        self.filters, self.every, self.root, self.recursive, self.workspace_root = [], False, False, False, False
        self.calls, self.packages, self.dashed = [], [], None

    def operand(self):
        """The next operand (None for a word known only when it runs), reading the options
        before it; END past the last one, or at `--` (whose words are then `dashed`)."""
        while self.index < len(self.words):
            word = self.words[self.index]
            self.index += 1
            if word is None or not word.startswith("-") or word == "-":
                return word
            if word == "--":
                self.dashed = self.words[self.index:]
                self.index = len(self.words)
                return END
            self._option(word)
        return END

    def operands(self):
        """Every operand left, options read out of them (npm reads options anywhere before `--`),
        then those after `--`."""
        found = []
        while True:
            word = self.operand()
            if word is END:
                return found + (self.dashed or [])
            found.append(word)

    def rest(self):
        """Every word left, as they are (yarn, pnpm and bun hand a script every word after its
        name), those after `--` included."""
        found = self.words[self.index:] + (self.dashed or [])
        self.index, self.dashed = len(self.words), None
        return [w for w in found if w != "--"] if found[:1] == ["--"] else found

    def _option(self, word):
        name, has_value, value = word.partition("=")
        if name in VALUE_OPTIONS[self.manager] and not has_value and self.index < len(self.words):
            value, self.index = self.words[self.index], self.index + 1
        if name in FOLDER_OPTIONS[self.manager] and value:
            self.folder = value if value.startswith("/") else self.folder.rstrip("/") + "/" + value
            self.walks_up = self.manager != "npm"  # npm's --prefix is the package folder itself
        elif name == "--ignore-scripts" and value in ("", "true"):
            self.ignore_scripts = True
        elif name in ("-g", "--global") or name == "--location" and value == "global":
            self.is_global = True
        elif name in ("--workspace", "--filter", "-F") or name == "-w" and self.manager == "npm":
            self.filters.append(value)
        elif name in ("-ws", "--workspaces"):
            self.every = True
        elif name in ("--include-workspace-root", "-A", "--all", "-W", "--worktree") and value in ("", "true"):
            self.root = True
        elif name in ("-r", "--recursive") and self.manager == "pnpm":
            self.recursive = True
        elif name in ("-w", "--workspace-root") and self.manager == "pnpm":
            self.workspace_root = True
        elif name in ("-c", "--call") and self.manager == "npm":
            self.calls.append(value)
        elif name in ("-p", "--package") and self.manager == "npm":
            self.packages.append(value)

    def selection(self):
        """The workspace packages the options name; None for the package itself."""
        if self.workspace_root:
            return Selection(self.manager, (), False, True)
        if not (self.filters or self.every or self.recursive):
            return None
        return Selection(self.manager, tuple(self.filters), self.every or self.recursive and not self.filters,
                         self.root)


def invocation(manager, words, cwd):
    """The Run a command line of npm, yarn, pnpm or bun (npx, bunx: manager "npx", "bunx") asks
    for, or None when it runs nothing of the package (`npm view x`, `yarn dlx x`, `bun x.ts`)."""
    if cwd is None:
        return None
    if manager in ("npx", "bunx"):
        run = _binary_run(manager, words, cwd)
    else:
        line = _Line(manager, words, cwd)
        run = {"npm": _npm, "yarn": _yarn, "pnpm": _pnpm, "bun": _bun}[manager](line, line.operand())
    return run._replace(manager={"npx": "npm", "bunx": "bun"}.get(manager, manager)) if run is not None else None


def _npm(line, first):
    if first is END:
        return None
    if first is None:
        return _unknown(line)
    command = npm_command(first)
    if command == "run" or command in NPM_SCRIPT_COMMANDS:
        script = line.operand() if command == "run" else command
        return None if script is END else _script_run(line, script, line.operands(), "npm")
    if command == "exec":
        return _npm_exec(line)
    operands = line.operands()
    if line.ignore_scripts or command not in NPM_LIFECYCLES and command not in NPM_REIFY:
        return None
    if line.is_global:  # `npm install -g .` installs the package itself, as `npm link` does
        return _lifecycle_run(line, Lifecycle(LINKED)) if command == "install" and operands == ["."] else None
    if command == "version":
        if not operands:
            return None  # prints the versions
        return _lifecycle_run(line, NPM_VERSION_IN_WORKSPACES if line.selection() else NPM_LIFECYCLES["version"])
    if operands and operands != ["."] or command not in NPM_LIFECYCLES:
        return _lifecycle_run(line, NPM_DEPENDENCIES) if command in NPM_REIFY else None
    return _lifecycle_run(line, NPM_LIFECYCLES[command])


def _npm_exec(line):
    """`npm exec [-c line] [-p pkg] [--] name args`: the call as a command line; with packages
    given, the words as one; else the package binary `name`."""
    operands = line.operands()
    if line.calls:
        return Run(line.folder, line.walks_up, selection=line.selection(), command=(line.calls[-1],))
    if not operands:
        return None  # an interactive shell
    if operands[0] is None:
        return Run(line.folder, line.walks_up, unknown="a package binary known only when it runs")
    if line.packages:
        return _command_run(line, [_quoted(operands[0])] + operands[1:])
    return Run(line.folder, line.walks_up, selection=line.selection(), binary=tuple(operands), own_binary=True)


def _binary_run(manager, words, cwd):
    """`npx [options] name args`, `bunx [options] name args`: options end at the first operand."""
    index, packages, calls = 0, [], []
    while index < len(words) and words[index] is not None and words[index].startswith("-"):
        name, has_value, value = words[index].partition("=")
        index += 1
        if name == "--":
            break
        if name in ("-p", "--package", "-c", "--call") and not has_value and index < len(words):
            value, index = words[index], index + 1
        if name in ("-c", "--call"):
            calls.append(value)
        elif name in ("-p", "--package"):
            packages.append(value)
    operands = list(words[index:])
    if calls and manager == "npx":
        return Run(cwd, True, command=(calls[-1],))
    if not operands:
        return None
    if operands[0] is None:
        return Run(cwd, True, unknown="a package binary known only when it runs")
    if packages:
        return Run(cwd, True, command=tuple([_quoted(operands[0])] + _words(operands[1:])))
    return Run(cwd, True, binary=tuple(operands), own_binary=manager == "npx")


def _yarn(line, first):
    if first in ("workspace", "workspaces"):
        return _yarn_workspaces(line, first)
    if first is END:
        return None if line.ignore_scripts else _lifecycle_run(line, YARN_LIFECYCLES[""])  # `yarn` installs
    if first == "run":
        return _script_run(line, line.operand(), line.rest(), "binary")
    if first == "exec":
        return _command_run(line, line.rest())
    if first in YARN_LIFECYCLES:
        if line.ignore_scripts or first == "version" and not _yarn_new_version(line.words):
            return None  # a bare `yarn version` asks for the version at a prompt
        return _lifecycle_run(line, YARN_LIFECYCLES[first])
    if first is None:
        return _unknown(line)
    if first in YARN_COMMANDS:
        return None
    return _script_run(line, first, line.rest(), "binary")


def _yarn_workspaces(line, first):
    """`yarn workspace NAME command…`: the command in the workspace named NAME; `yarn workspaces
    foreach [options] command…` (yarn 2+) and `yarn workspaces run S` (yarn 1): in each one."""
    if first == "workspace":
        name = line.operand()
        if name is END:
            return None
        selection = Selection("yarn", (name,)) if name is not None else None
    else:
        verb = line.operand()
        if verb not in ("foreach", "run"):
            return None
        selection = Selection("yarn", (), True, line.root)
    sub = _Line("yarn", line.words[line.index:] if first == "workspace" or verb == "foreach" else
                ["run"] + line.words[line.index:], line.folder)
    sub.folder, sub.walks_up, sub.ignore_scripts = line.folder, line.walks_up, line.ignore_scripts
    run = _yarn(sub, sub.operand())
    if run is None or run.unknown or selection is None:
        return run if selection is not None else _unknown(line)
    return run._replace(selection=selection._replace(root=selection.root or sub.root))


def _yarn_new_version(words):
    flags = ("--new-version", "--major", "--minor", "--patch", "--premajor", "--preminor", "--prepatch",
             "--prerelease")
    return any(w is not None and w.partition("=")[0] in flags for w in words)


def _pnpm(line, first):
    command = PNPM_ALIASES.get(first, first)
    if command == "recursive":
        line.recursive = True
        operand = line.operand()
        command = PNPM_ALIASES.get(operand, operand) if operand is not END else "install"
    if command is None:
        return _unknown(line)
    if command is END:
        return None
    if command == "run":
        return _with_scope(line, _script_run(line, line.operand(), line.rest(), None), command)
    if command == "exec":
        return _with_scope(line, _command_run(line, line.rest()), command)
    if command in PNPM_LIFECYCLES:
        operand = line.operand()
        if line.ignore_scripts or command == "version" and operand is END:
            return None
        return _with_scope(line, _lifecycle_run(line, PNPM_LIFECYCLES[command]), command)
    if command in PNPM_COMMANDS:
        return None
    return _with_scope(line, _script_run(line, command, line.rest(), "command"), "run")


def _with_scope(line, run, command):
    """A pnpm run with its workspace options: `-r` (every workspace package, and the root too but
    for run, exec, test and add), `--filter`, `-w` (the workspace root)."""
    if run is None or run.unknown or run.selection is None:
        return run
    selection = run.selection
    if line.recursive and not line.filters and command not in PNPM_RECURSIVE_WITHOUT_ROOT:
        selection = selection._replace(root=True)
    return run._replace(selection=selection)


def _bun(line, first):
    command = BUN_ALIASES.get(first, first)
    if command is None:
        return _unknown(line)
    if command is END:
        return None
    if command == "x":
        run = _binary_run("bunx", line.rest(), line.folder)
        return run._replace(walks_up=line.walks_up) if run is not None else None
    if command == "exec":
        return _command_run(line, line.rest())
    if command == "pm":
        if line.operand() != "pack":
            return None
        command = "pm pack"
    if command in BUN_LIFECYCLES:
        if line.ignore_scripts or command == "install" and line.operand() is not END:
            return None  # `bun install x` adds x
        return _lifecycle_run(line, BUN_LIFECYCLES[command])
    if command == "run":
        command = line.operand()
        if command is END or command is None:
            return None if command is END else _unknown(line)
    elif command in BUN_COMMANDS:
        return None
    return _script_run(line, command, line.rest(), "binary")


def _script_run(line, script, arguments, otherwise):
    """A script with its pre and post scripts (only the script under --ignore-scripts), the
    arguments appended to it."""
    if script is END:
        return None  # lists the scripts
    if script is None:
        return _unknown(line)
    events = (script,) if line.ignore_scripts else ("pre" + script, script, "post" + script)
    return Run(line.folder, line.walks_up, events, script, tuple(_words(arguments)), selection=line.selection(),
               otherwise=otherwise)


def _lifecycle_run(line, lifecycle):
    return Run(line.folder, line.walks_up, lifecycle.events, None, (), lifecycle.members, lifecycle.root,
               line.selection())


def _command_run(line, words):
    if not words:
        return None
    if words[0] is None:
        return Run(line.folder, line.walks_up, unknown="a command known only when it runs")
    return Run(line.folder, line.walks_up, selection=line.selection(),
               command=tuple(words[:1] + [_quoted(w) for w in _words(words[1:])]))


def _words(words):
    """The words, each one known only when it runs marked as such."""
    return [w if w is not None else RUNTIME_ARGUMENT for w in words]


def _unknown(line):
    return Run(line.folder, line.walks_up, unknown=UNKNOWN_SCRIPT)


def scripts_of(text):
    """{name: command} of a package.json's `scripts`; None when it is not JSON."""
    document = document_of(text)
    if document is None:
        return None
    scripts = document.get("scripts") if isinstance(document, dict) else None
    if not isinstance(scripts, dict):
        return {}
    return {name: value for name, value in scripts.items() if isinstance(value, str)}


def document_of(text):
    """A package.json's document; None when it is not JSON."""
    try:
        return loads(text)
    except ValueError:
        return None


def lines(scripts, events, main=None, arguments=(), npm_defaults=False):
    """[(script name, command line)] of the events that run in one package, in order: each one
    whose script exists, main with the arguments. When main is missing nothing runs (npm: "Missing
    script", before its `pre` script); npm's missing `restart` is `npm stop --if-present && npm
    start`."""
    if main is not None and main not in scripts:
        if not (npm_defaults and main == "restart"):
            return []
        scripts = dict(scripts, restart="npm stop --if-present && npm start")
    found = []
    for name in events:
        if name in scripts:
            found.append((name, scripts[name] + "".join(" " + _quoted(a) for a in (arguments if name == main else ()))))
    return found


_PLAIN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=@%+,-")


def _quoted(text):
    if text.startswith("${PEERHOOKS_"):
        return text  # a word known only when it runs, left for the interpreter to see as such
    if text and all(c in _PLAIN for c in text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"
