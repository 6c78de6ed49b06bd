"""What each command of npm, yarn, pnpm and bun runs of a package's own scripts: the lifecycle
scripts, in order, in the package the command acts on and in its workspaces, and the words and
options each manager reads for itself.

Why: `npm install`, `npm ci`, `npm version`, `npm publish`, `npm pack` run the package's lifecycle
scripts, which the guard must judge as it judges `npm run S` (issue 35): a `postinstall` or a
`version` script holding `git add -A && git commit` sweeps a live peer's work in (npm's own docs show
`"version": "npm run build && git add -A dist"`).

npm's rules are npm 11.19's, verified by running it offline with a script of every name that logs
itself (npm 7 on runs the root's lifecycle scripts only on an install without package arguments;
`npm install` and `npm ci` run each workspace's `preinstall`, `prepare`, `install`, `postinstall`
first, and `predependencies`, `dependencies`, `postdependencies` once the tree changed). yarn (1 and
2+), pnpm and bun are not installed here: their rules are read from their documentation and source,
and where the versions differ the union is taken: counting a script one version skips adds only what
may run.
"""
from ..startup.records import record

# A command's lifecycle: the scripts it runs in the packages it acts on (`events`: `npm pack`'s in the
# package, `npm pack -w a`'s in a), in each workspace package (`members`: an install's, in those a
# `-w` names or else in all), then in the workspace root, or the package itself when it has no
# workspaces (`root`: an install's, even when typed in a workspace package's folder).
Lifecycle = record("Lifecycle", "events members root", ((), ()), """The lifecycle scripts one command runs:
    in the packages it acts on, in each workspace package, then in the workspace root.""")

DEPENDENCIES = ("predependencies", "dependencies", "postdependencies")  # npm: once node_modules changed
NPM_INSTALL = DEPENDENCIES + ("preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare",
                              "postprepare")
LINKED = ("preinstall", "prepare", "install", "postinstall")  # a package installed as a link (npm 11)
REBUILD = ("preinstall", "install", "postinstall")
TEST = ("pretest", "test", "posttest")
PACK = ("prepack", "prepare", "postpack")
PUBLISH = ("prepublishOnly", "prepack", "prepare", "postpack", "publish", "postpublish")
VERSION = ("preversion", "version", "postversion")

NPM_LIFECYCLES = {
    "install": Lifecycle((), LINKED, NPM_INSTALL),
    "ci": Lifecycle((), LINKED, NPM_INSTALL),
    "install-test": Lifecycle((), LINKED, NPM_INSTALL + TEST),
    "install-ci-test": Lifecycle((), LINKED, NPM_INSTALL + TEST),
    "rebuild": Lifecycle((), REBUILD, REBUILD),
    "pack": Lifecycle(PACK),
    "publish": Lifecycle(PUBLISH),
    "version": Lifecycle(VERSION),
    "link": Lifecycle(LINKED),  # `npm link` alone installs the package itself globally, as a link
}
NPM_DEPENDENCIES = Lifecycle((), (), DEPENDENCIES)  # a command that changes node_modules, given packages
# `npm version -w a` runs a's version scripts, then installs the workspace again.
NPM_VERSION_IN_WORKSPACES = Lifecycle(VERSION, LINKED, DEPENDENCIES)
# npm commands that change node_modules: with package arguments they run the dependencies scripts only.
NPM_REIFY = frozenset(["install", "ci", "uninstall", "update", "dedupe", "prune", "link", "install-test",
                       "install-ci-test"])
# npm 11's commands and aliases (lib/utils/cmd-list.js); any unique abbreviation of one names it too.
NPM_COMMANDS = frozenset("""access adduser approve-scripts audit bugs cache ci completion config dedupe
deny-scripts deprecate diff dist-tag docs doctor edit exec explain explore find-dupes fund get help
help-search init install install-ci-test install-scripts install-test link ll login logout ls org
outdated owner pack ping pkg prefix profile prune publish query rebuild repo restart root run sbom search
set shrinkwrap stage star stars start stop team test token trust undeprecate uninstall unpublish unstar
update version view whoami""".split())
NPM_ALIASES = {
    "author": "owner", "home": "docs", "issues": "bugs", "info": "view", "show": "view", "find": "search",
    "add": "install", "unlink": "uninstall", "remove": "uninstall", "rm": "uninstall", "r": "uninstall",
    "un": "uninstall", "rb": "rebuild", "list": "ls", "ln": "link", "create": "init", "i": "install",
    "it": "install-test", "cit": "install-ci-test", "u": "update", "up": "update", "c": "config",
    "s": "search", "se": "search", "tst": "test", "t": "test", "ddp": "dedupe", "v": "view",
    "run-script": "run", "clean-install": "ci", "clean-install-test": "install-ci-test", "x": "exec",
    "why": "explain", "la": "ll", "verison": "version", "ic": "ci", "innit": "init", "in": "install",
    "ins": "install", "inst": "install", "insta": "install", "instal": "install", "isnt": "install",
    "isnta": "install", "isntal": "install", "isntall": "install", "install-clean": "ci",
    "isntall-clean": "ci", "hlep": "help", "dist-tags": "dist-tag", "upgrade": "update", "udpate": "update",
    "rum": "run", "sit": "install-ci-test", "urn": "run", "ogr": "org", "add-user": "adduser",
}
NPM_SCRIPT_COMMANDS = frozenset(["test", "start", "stop", "restart"])  # each runs the script of its name

YARN_INSTALL = ("preinstall", "install", "postinstall", "prepublish", "prepare")  # yarn 1's wrapLifecycle
YARN_LIFECYCLES = {
    "": Lifecycle((), REBUILD, YARN_INSTALL),  # `yarn` alone installs
    "install": Lifecycle((), REBUILD, YARN_INSTALL),
    "add": Lifecycle((), ("postinstall",), YARN_INSTALL),  # yarn 2+ runs postinstall where the tree changed
    "upgrade": Lifecycle((), ("postinstall",), YARN_INSTALL),
    "up": Lifecycle((), ("postinstall",), YARN_INSTALL),
    "remove": Lifecycle((), ("postinstall",), YARN_INSTALL),
    "pack": Lifecycle(PACK),
    "publish": Lifecycle(("prepublish",) + PUBLISH),
    "version": Lifecycle(VERSION),  # yarn 1
}
# yarn 1's and 2+'s own commands: any other first word runs the script of that name (or a binary).
YARN_COMMANDS = frozenset("""access add audit autoclean bin cache check config constraints create dedupe
dlx exec explain generate-lock-entry global help import info init install licenses link list login
logout node npm outdated owner pack patch patch-commit plugin policies publish rebuild remove search set
stage tag team unlink unplug up upgrade upgrade-interactive version versions why workspace
workspaces""".split())

PNPM_INSTALL = ("preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare")
PNPM_LIFECYCLES = {
    "install": Lifecycle((), PNPM_INSTALL, ("pnpm:devPreinstall",) + PNPM_INSTALL),
    "update": Lifecycle((), PNPM_INSTALL, PNPM_INSTALL),
    "install-test": Lifecycle((), PNPM_INSTALL, ("pnpm:devPreinstall",) + PNPM_INSTALL + TEST),
    "pack": Lifecycle(PACK),
    "publish": Lifecycle(("prepublish",) + PUBLISH),
    "version": Lifecycle(VERSION),  # handed to npm
}
PNPM_ALIASES = {"i": "install", "it": "install-test", "up": "update", "upgrade": "update", "rm": "remove",
                "un": "remove", "uninstall": "remove", "run-script": "run", "t": "test", "tst": "test",
                "m": "recursive", "multi": "recursive", "rb": "rebuild", "ln": "link", "ls": "list",
                "c": "config"}
PNPM_COMMANDS = frozenset("""add audit bin cat-file cat-index config create deploy dlx doctor env exec fetch
find-hash help import init install install-test licenses link list outdated pack patch patch-commit
patch-remove pm prune publish rebuild recursive remove root run server setup store unlink update
why version""".split())
# pnpm -r acts on every workspace package but the root for these (pnpm.io/cli/recursive).
PNPM_RECURSIVE_WITHOUT_ROOT = frozenset(["run", "exec", "test", "add"])

BUN_INSTALL = ("preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare")
BUN_LIFECYCLES = {
    "install": Lifecycle((), BUN_INSTALL, BUN_INSTALL),
    "publish": Lifecycle(PUBLISH),
    "pm pack": Lifecycle(PACK),
}
BUN_ALIASES = {"i": "install", "a": "add", "rm": "remove", "c": "create"}
# bun's own commands take precedence over a script of the same name (bun.sh/docs/cli/run).
BUN_COMMANDS = frozenset("""add audit build completions create discord exec feedback help info init install
link outdated patch patch-commit pm publish remove repl run test unlink update upgrade why x""".split())

# Options whose value is the next word, per manager; the others are flags (`--silent`, `-ws`).
VALUE_OPTIONS = {
    "npm": frozenset("""--prefix -C --loglevel --script-shell --registry --userconfig --globalconfig --cache
-w --workspace --tag --otp --access --omit --include --before --node-options --message -m --preid
--save-prefix --install-strategy --scope --auth-type --proxy --https-proxy --logs-dir --shell --editor
--browser --depth --call -c --package --fetch-retries --cpu --os --libc""".split()),
    "yarn": frozenset("""--cwd --modules-folder --cache-folder --mutex --network-timeout --registry
--link-folder --global-folder --preferred-cache-folder --otp --new-version --message --tag --access
-j --jobs --include --exclude --from""".split()),
    "pnpm": frozenset("""-C --dir --filter -F --filter-prod --reporter --loglevel --workspace-concurrency
--resume-from --changed-files-ignore-pattern --test-pattern --store-dir --virtual-store-dir
--registry""".split()),
    "bun": frozenset("""--cwd --filter -F --shell --elide-lines --env-file --preload -r --config -c
--tsconfig-override --define -d --loader -l --port --conditions --main-fields --extension-order
--install --backend --cafile --registry --network-concurrency""".split()),
}
FOLDER_OPTIONS = {"npm": ("--prefix", "-C"), "yarn": ("--cwd",), "pnpm": ("-C", "--dir"), "bun": ("--cwd",)}


def npm_command(word):
    """The npm command a word names, as npm 11 derefs it: the command itself, an alias, a
    camelCase spelling (`installTest`), or a unique abbreviation (`pub`, `vers`); None for none."""
    if word is None:
        return None
    if any("A" <= c <= "Z" for c in word):
        word = "".join("-" + c.lower() if "A" <= c <= "Z" else c for c in word)
    if word in NPM_COMMANDS:
        return word
    if word in NPM_ALIASES:
        return NPM_ALIASES[word]
    matches = [name for name in NPM_COMMANDS.union(NPM_ALIASES) if name.startswith(word)]
    if len(matches) != 1:
        return None
    found = matches[0]
    return NPM_ALIASES.get(found, found)
