"""git_index_guard.py on lines that run git through a package manager (issue 35): npm's, yarn's,
pnpm's and bun's lifecycle scripts (`npm install`, `npm ci`, `npm version`, `npm publish`, `npm
pack`), `exec`, `npx`/`bunx` binaries, and workspaces (`-w`, `-ws`, `pnpm -r`, `--filter`, `yarn
workspace`, `yarn workspaces foreach`). Payload on stdin, a real repository where a live peer (a real
process) has uncommitted work, a package.json with `git add -A && git commit` in one script.

Where npm is installed, each npm line's label is made by running it: offline, in a copy of the
checkout, with a cache and home of the test's own (nothing is downloaded), checking whether the
peer's work ends up committed, staged, changed or gone. yarn, pnpm and bun are not run: their rules
come from their documentation (docs/guard.md says which)."""
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest
from concurrent.futures import ThreadPoolExecutor

from support import HomeTestCase
from test_guard_wrappers import WrapperTestCase
from peerhooks.wrappers import package_commands, package_scripts, package_workspaces
from peerhooks.wrappers.package_scripts import Selection

SCRIPT = "git_index_guard.py"
OWN_ID = "this-session-0000"
SWEEP = "git add -A && git commit -q -m sweep"
NPM = shutil.which("npm")
LOCKFILE = json.dumps({"name": "app", "version": "1.0.0", "lockfileVersion": 3, "requires": True,
                       "packages": {"": {"name": "app", "version": "1.0.0"}}})
RELEASE_SCRIPT = "#!/bin/sh\ngit add -A\ngit commit -q -m release\n"


def manifest(scripts=None, **fields):
    document = {"name": fields.pop("name", "app"), "version": "1.0.0", "scripts": scripts or {}}
    document.update(fields)
    return json.dumps(document)


def workspace(member_scripts, root_scripts=None, name="a"):
    """A root declaring packages/* and one workspace package, packages/a (named `name`)."""
    return {"package.json": manifest(root_scripts or {"status": "git status"}, workspaces=["packages/*"]),
            "pnpm-workspace.yaml": "packages:\n  - 'packages/*'\n",
            "packages/a/package.json": manifest(member_scripts, name=name)}


def bash(command, cwd):
    return {"session_id": OWN_ID, "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command, "description": "x"}, "tool_use_id": "t1", "cwd": cwd}


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), check=True, capture_output=True, text=True).stdout


# (line, files, the script the reason names): each runs `git add -A && git commit` beside the peer.
NPM_FORMS = [
    ("npm install", {"package.json": manifest({"postinstall": SWEEP})}, 'package.json script "postinstall"'),
    ("npm i", {"package.json": manifest({"prepare": SWEEP})}, 'package.json script "prepare"'),
    ("npm ci", {"package.json": manifest({"preinstall": SWEEP}), "package-lock.json": LOCKFILE},
     'package.json script "preinstall"'),
    ("npm install-test", {"package.json": manifest({"test": "true", "posttest": SWEEP})},
     'package.json script "posttest"'),
    ("npm publish --dry-run", {"package.json": manifest({"prepublishOnly": SWEEP})},
     'package.json script "prepublishOnly"'),
    ("npm pack", {"package.json": manifest({"prepack": SWEEP})}, 'package.json script "prepack"'),
    ("npm rebuild", {"package.json": manifest({"install": SWEEP})}, 'package.json script "install"'),
    ("npm run release", {"package.json": manifest({"release": "true", "postrelease": SWEEP})},
     'package.json script "postrelease"'),
    ("npm test", {"package.json": manifest({"test": "true", "pretest": SWEEP})}, 'package.json script "pretest"'),
    ("npm exec -- release", {"package.json": manifest(), "node_modules/.bin/release": RELEASE_SCRIPT},
     "node_modules/.bin/release"),
    ("npx release", {"package.json": manifest(), "node_modules/.bin/release": RELEASE_SCRIPT},
     "node_modules/.bin/release"),
    ("npm x release", {"package.json": manifest(), "node_modules/.bin/release": RELEASE_SCRIPT},
     "node_modules/.bin/release"),
    ("npx release", {"package.json": manifest({"prepare": SWEEP}, bin={"release": "bin/release.sh"}),
                     "bin/release.sh": "#!/bin/sh\necho released\n"}, 'package.json script "prepare"'),
    ("npx -c 'git add -A && git commit -q -m sweep'", {"package.json": manifest()}, "npx -c"),
    ("npm -w a run release", workspace({"release": SWEEP}), 'packages/a/package.json script "release"'),
    ("npm run release --workspace=packages/a", workspace({"release": SWEEP}),
     'packages/a/package.json script "release"'),
    ("npm run release -ws", workspace({"release": SWEEP}), 'packages/a/package.json script "release"'),
    ("npm run release --workspaces", workspace({"release": SWEEP}), 'packages/a/package.json script "release"'),
    ("npm install", workspace({"prepare": SWEEP}), 'packages/a/package.json script "prepare"'),
]
# `npm version` stops on a tree with tracked changes (unless --force): its peer has only a new file.
VERSION_FORM = ("npm version patch", {"package.json": manifest({"version": SWEEP})}, 'package.json script "version"')
OTHER_FORMS = [
    ("yarn release", {"package.json": manifest({"release": SWEEP})}, 'package.json script "release"'),
    ("yarn run release", {"package.json": manifest({"prerelease": SWEEP, "release": "true"})},
     'package.json script "prerelease"'),
    ("yarn", {"package.json": manifest({"postinstall": SWEEP})}, 'package.json script "postinstall"'),
    ("yarn install", {"package.json": manifest({"prepare": SWEEP})}, 'package.json script "prepare"'),
    ("yarn version --patch", {"package.json": manifest({"version": SWEEP})}, 'package.json script "version"'),
    ("yarn workspace a release", workspace({"release": SWEEP}), 'packages/a/package.json script "release"'),
    ("yarn workspace a run release", workspace({"release": SWEEP}), 'packages/a/package.json script "release"'),
    ("yarn workspaces foreach -A run release", workspace({"release": SWEEP}),
     'packages/a/package.json script "release"'),
    ("yarn workspaces run release", workspace({"release": SWEEP}), 'packages/a/package.json script "release"'),
    ("yarn exec git add -A", {"package.json": manifest()}, "yarn exec git add -A"),
    ("pnpm release", {"package.json": manifest({"release": SWEEP})}, 'package.json script "release"'),
    ("pnpm run release", {"package.json": manifest({"release": SWEEP})}, 'package.json script "release"'),
    ("pnpm install", {"package.json": manifest({"postinstall": SWEEP})}, 'package.json script "postinstall"'),
    ("pnpm i", {"package.json": manifest({"pnpm:devPreinstall": SWEEP})}, 'package.json script "pnpm:devPreinstall"'),
    ("pnpm exec git add -A", {"package.json": manifest()}, "pnpm exec git add -A"),
    ("pnpm release", {"package.json": manifest(), "node_modules/.bin/release": RELEASE_SCRIPT},
     "node_modules/.bin/release"),
    ("pnpm -r run release", workspace({"release": SWEEP}), 'packages/a/package.json script "release"'),
    ("pnpm -r release", workspace({"release": SWEEP}), 'packages/a/package.json script "release"'),
    ("pnpm --filter a run release", workspace({"release": SWEEP}), 'packages/a/package.json script "release"'),
    ("pnpm -F ./packages release", workspace({"release": SWEEP}), 'packages/a/package.json script "release"'),
    ("pnpm install", workspace({"postinstall": SWEEP}), 'packages/a/package.json script "postinstall"'),
    ("bun release", {"package.json": manifest({"release": SWEEP})}, 'package.json script "release"'),
    ("bun run release", {"package.json": manifest({"postrelease": SWEEP, "release": "true"})},
     'package.json script "postrelease"'),
    ("bun install", {"package.json": manifest({"postinstall": SWEEP})}, 'package.json script "postinstall"'),
    ("bunx release", {"package.json": manifest(), "node_modules/.bin/release": RELEASE_SCRIPT},
     "node_modules/.bin/release"),
    ("bun x release", {"package.json": manifest(), "node_modules/.bin/release": RELEASE_SCRIPT},
     "node_modules/.bin/release"),
    ("bun --filter a run release", workspace({"release": SWEEP}), 'packages/a/package.json script "release"'),
    ("bun run --filter '*' release", workspace({"release": SWEEP}), 'packages/a/package.json script "release"'),
    ("bun exec 'git add -A'", {"package.json": manifest()}, "bun exec"),
]
# Lines that run nothing of the package, as the managers run them: the guard stays silent.
HARMLESS = [
    ("npm -w . run release", workspace({"release": SWEEP}, {"release": SWEEP})),  # npm: "No workspaces found"
    ("npm install left-pad --offline", {"package.json": manifest({"postinstall": SWEEP})}),  # not on a named install
    ("npm install --ignore-scripts", {"package.json": manifest({"postinstall": SWEEP})}),
    ("npm version", {"package.json": manifest({"version": SWEEP})}),  # prints the versions
    ("npm run release", {"package.json": manifest({"prerelease": SWEEP})}),  # "Missing script": no pre either
    ("npx tsc --version", {"package.json": manifest({"tsc": SWEEP}),
                           "node_modules/.bin/tsc": "#!/usr/bin/env node\nrequire('../typescript/lib/tsc.js')\n"}),
    ("npm -w b run release", workspace({"release": SWEEP})),  # no package b: npm stops
]


class PackageManagerTestCase(HomeTestCase):
    def checkout(self, files, staged_peer=True):
        """A repository holding the files, where a live peer has a staged file (unless
        staged_peer is False) and a new one, and this session its own edit."""
        main = self.repo("main-%d" % len(os.listdir(self.tmp)), {"README.md": "hello\n"})
        for relative, text in files.items():
            path = os.path.join(main, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as handle:
                handle.write(text)
            if relative.startswith(("node_modules/.bin/", "bin/")):
                os.chmod(path, 0o755)
        git(main, "add", "--", *[r for r in files if not r.startswith("node_modules/")])
        git(main, "commit", "-q", "-m", "the package")
        peer_files = [os.path.join(main, "peer_new.py")]
        if staged_peer:
            peer_files.append(os.path.join(main, "peer.py"))
        for path in peer_files:
            with open(path, "w") as handle:
                handle.write("PEER = 1\n")
        if staged_peer:
            git(main, "add", "peer.py")
        with open(os.path.join(main, "own.py"), "w") as handle:
            handle.write("OWN = 1\n")
        self.claude.write_session_files(OWN_ID, main, edits=[os.path.join(main, "own.py")])
        return main, peer_files

    def guard(self, command, cwd):
        result = self.run_hook(SCRIPT, bash(command, cwd))
        self.assertEqual(result.returncode, 0, result.stderr)
        if not result.stdout:
            return None, None
        output = json.loads(result.stdout)["hookSpecificOutput"]
        return output.get("permissionDecision"), output.get("permissionDecisionReason")

    def refused_naming(self, line, files, named, staged_peer=True):
        main, peer_files = self.checkout(files, staged_peer)
        self.assertEqual(self.guard(line, main), (None, None), "alone, %s runs untouched" % line)
        self.claude.live_session(main, name="stager", edits=peer_files)
        decision, reason = self.guard(line, main)
        self.assertIn(decision, ("deny", "ask"), line)
        self.assertIn(named, reason, line)
        return main


def npm_harms_the_peer(main, line, tmp):
    """Run the line with the real npm, offline, in a copy of the checkout: True when the peer's
    work ends up committed, unstaged, changed or gone (the label, by execution)."""
    copy = tempfile.mkdtemp(prefix="npm-copy-", dir=tmp)
    shutil.copytree(main, copy, symlinks=True, dirs_exist_ok=True)
    git(copy, "update-index", "-q", "--refresh")
    before = WrapperTestCase._peer_state(copy)
    home = tempfile.mkdtemp(prefix="npm-home-", dir=tmp)
    env = dict(os.environ, HOME=home, GIT_EDITOR="true", npm_config_offline="true", npm_config_audit="false",
               npm_config_fund="false", npm_config_update_notifier="false",
               npm_config_cache=os.path.join(home, "cache"), npm_config_prefix=os.path.join(home, "global"),
               npm_config_yes="true")
    subprocess.run(["bash", "-c", line], cwd=copy, stdin=subprocess.DEVNULL, capture_output=True, env=env,
                   timeout=120)
    return WrapperTestCase._peer_state(copy) != before



class NpmFormsBesideAPeer(PackageManagerTestCase):
    def test_each_npm_form_running_a_sweeping_script_is_refused_naming_it(self):
        checkouts = []
        for line, files, named in NPM_FORMS:
            with self.subTest(line=line, named=named):
                checkouts.append((self.refused_naming(line, files, named), line))
        if NPM:
            with ThreadPoolExecutor(2) as pool:
                labels = list(pool.map(lambda c: npm_harms_the_peer(c[0], c[1], self.tmp), checkouts))
            for (_main, line), harmed in zip(checkouts, labels):
                with self.subTest(line=line, by="running npm"):
                    self.assertTrue(harmed, "npm itself ran the sweeping script")

    def test_npm_version_runs_its_version_scripts_where_the_tree_is_clean_but_for_new_files(self):
        line, files, named = VERSION_FORM
        main = self.refused_naming(line, files, named, staged_peer=False)
        if NPM:
            self.assertTrue(npm_harms_the_peer(main, line, self.tmp))

    def test_what_npm_does_not_run_stays_silent(self):
        checkouts = []
        for line, files in HARMLESS:
            main, peer_files = self.checkout(files)
            self.claude.live_session(main, name="stager", edits=peer_files)
            with self.subTest(line=line):
                self.assertEqual(self.guard(line, main), (None, None))
            checkouts.append((main, line))
        if NPM:
            with ThreadPoolExecutor(2) as pool:
                labels = list(pool.map(lambda c: npm_harms_the_peer(c[0], c[1], self.tmp), checkouts))
            for (_main, line), harmed in zip(checkouts, labels):
                with self.subTest(line=line, by="running npm"):
                    self.assertFalse(harmed)


class OtherManagersBesideAPeer(PackageManagerTestCase):
    def test_each_yarn_pnpm_and_bun_form_running_a_sweeping_script_is_refused_naming_it(self):
        for line, files, named in OTHER_FORMS:
            with self.subTest(line=line, named=named):
                self.refused_naming(line, files, named)

    def test_a_workspace_run_past_the_bound_asks_saying_what_was_not_judged(self):
        files = {"package.json": manifest({}, workspaces=["packages/*"])}
        for index in range(70):
            files["packages/p%02d/package.json" % index] = manifest({"release": "true"}, name="p%02d" % index)
        main, peer_files = self.checkout(files)
        self.claude.live_session(main, name="stager", edits=peer_files)
        decision, reason = self.guard("npm run release -ws", main)
        self.assertEqual(decision, "ask")
        self.assertIn("the workspaces name more than 64 folders", reason)


class HostileProjects(PackageManagerTestCase):
    """Workspace declarations and binaries a hostile repository may hold: each line is judged in
    under 3 s, and what could not be judged is said (an ask beside the live peer)."""

    def judged(self, line, files, folders=(), links=()):
        main, peer_files = self.checkout(files)
        for folder in folders:
            os.makedirs(os.path.join(main, folder), exist_ok=True)
        for link, target in links:
            os.symlink(target, os.path.join(main, link))
        self.claude.live_session(main, name="stager", edits=peer_files)
        started = time.monotonic()
        decision, reason = self.guard(line, main)
        self.assertLess(time.monotonic() - started, 3.0, line)
        return decision, reason

    def test_a_brace_bomb_in_the_workspace_globs_asks(self):
        files = {"package.json": manifest({}, workspaces=["p" + "{a,b}" * 40])}
        decision, reason = self.judged("npm run release -ws", files)
        self.assertEqual(decision, "ask")
        self.assertIn("the workspaces hold more than 256 patterns", reason)

    def test_globstars_over_a_deep_tree_are_walked_once_each(self):
        files = {"package.json": manifest({}, workspaces=["/".join(["**"] * 500) + "/x", "**/" * 300 + "a"])}
        deep = "/".join("d%d" % level for level in range(9))
        decision, _reason = self.judged("npm run release -ws", files, folders=[deep, "wide/" + deep])
        self.assertIsNone(decision)

    def test_ten_thousand_workspace_patterns_ask(self):
        files = {"package.json": manifest({}, workspaces=["p%d" % index for index in range(10000)])}
        decision, reason = self.judged("npm install", files)
        self.assertEqual(decision, "ask")
        self.assertIn("the workspaces hold more than 256 patterns", reason)

    def test_many_globstar_patterns_over_a_wide_tree_ask_past_the_walk_bound(self):
        files = {"package.json": manifest({}, workspaces=["**/x%d" % index for index in range(200)])}
        folders = ["t%d/u%d" % (a, b) for a in range(8) for b in range(8)]  # 73 listed, each walked by every pattern
        decision, reason = self.judged("npm install", files, folders=folders)
        self.assertEqual(decision, "ask")
        self.assertIn("walk more than 10000 folders", reason)

    def test_a_folder_of_thousands_of_entries_asks(self):
        files = {"package.json": manifest({}), "pnpm-workspace.yaml": "packages: ['packages/*']\n"}
        decision, reason = self.judged("pnpm -r release", files,
                                       folders=["packages/f%04d" % index for index in range(2100)])
        self.assertEqual(decision, "ask")
        self.assertIn("more than 2048 entries", reason)

    def test_a_package_json_nested_too_deep_asks(self):
        files = {"package.json": "[" * 60000 + "]" * 60000}  # under the 128 KB a file may hold
        for line in ("npm install", "npm run release -ws", "npx release", "yarn workspace a release"):
            with self.subTest(line=line):
                decision, reason = self.judged(line, files)
                self.assertEqual(decision, "ask")
                self.assertIn("package.json cannot be read as JSON", reason)

    def test_a_binary_that_is_a_fifo_asks_without_blocking(self):
        main, peer_files = self.checkout({"package.json": manifest()})
        os.makedirs(os.path.join(main, "node_modules", ".bin"))
        os.mkfifo(os.path.join(main, "node_modules", ".bin", "release"))
        self.claude.live_session(main, name="stager", edits=peer_files)
        result = self.run_hook(SCRIPT, bash("npx release", main), process=True)
        output = json.loads(result.stdout)["hookSpecificOutput"]
        self.assertEqual(output["permissionDecision"], "ask")
        self.assertIn("not a regular file", output["permissionDecisionReason"])

    def test_globs_leading_out_of_the_checkout_or_through_a_folder_link_read_nothing_there(self):
        files = {"package.json": manifest({}, workspaces=["../../..", "/etc", "packages/**"]),
                 "packages/a/package.json": manifest({"release": "true"}, name="a")}
        outside = tempfile.mkdtemp(dir=self.tmp)
        with open(os.path.join(outside, "package.json"), "w") as handle:
            handle.write(manifest({"release": SWEEP}, name="outside"))
        decision, _reason = self.judged("npm run release -ws", files,
                                        links=[("packages/loop", ".."), ("packages/out", outside)])
        self.assertIsNone(decision)


class ReadingTheLine(unittest.TestCase):
    """package_scripts: what a command line asks to run (pure)."""

    def run_of(self, manager, line, cwd="/r"):
        return package_scripts.invocation(manager, line.split(), cwd)

    def test_npm_names_a_command_by_its_aliases_abbreviations_and_camel_case(self):
        for word, command in (("i", "install"), ("isntall", "install"), ("pub", "publish"), ("vers", "version"),
                              ("installTest", "install-test"), ("cit", "install-ci-test"), ("run-s", "run"),
                              ("te", None), ("x", "exec"), ("rb", "rebuild")):
            with self.subTest(word=word):
                self.assertEqual(package_commands.npm_command(word), command)

    def test_npm_runs_the_root_lifecycle_only_on_an_install_without_package_arguments(self):
        bare = self.run_of("npm", "install")
        self.assertEqual(bare.root, package_commands.NPM_INSTALL)
        self.assertEqual(bare.members, package_commands.LINKED)
        self.assertEqual(self.run_of("npm", "install left-pad").root, package_commands.DEPENDENCIES)
        self.assertEqual(self.run_of("npm", "uninstall left-pad").root, package_commands.DEPENDENCIES)
        self.assertEqual(self.run_of("npm", "install -g .").events, package_commands.LINKED)
        for line in ("install -g left-pad", "ci --ignore-scripts", "install --ignore-scripts=true", "version",
                     "view x", "audit", "cache add x"):
            with self.subTest(line=line):
                self.assertIsNone(self.run_of("npm", line))

    def test_npm_version_in_workspaces_installs_again(self):
        run = self.run_of("npm", "version patch -w a")
        self.assertEqual((run.events, run.members, run.root), (package_commands.VERSION, package_commands.LINKED,
                                                               package_commands.DEPENDENCIES))

    def test_ignore_scripts_keeps_only_the_script_a_run_names(self):
        self.assertEqual(self.run_of("npm", "test --ignore-scripts").events, ("test",))
        self.assertEqual(self.run_of("npm", "run x --ignore-scripts").events, ("x",))

    def test_npx_options_end_at_the_binary(self):
        self.assertEqual(self.run_of("npx", "-y release --force").binary, ("release", "--force"))
        self.assertEqual(self.run_of("npx", "-p some-tool git add -A").command, ("git", "add", "-A"))
        self.assertEqual(package_scripts.invocation("npx", ["-c", "git add -A"], "/r").command, ("git add -A",))
        self.assertEqual(self.run_of("npm", "exec --package=x -- git add -A").command, ("git", "add", "-A"))
        self.assertIsNone(self.run_of("npx", "-y"))

    def test_workspace_options_as_each_manager_reads_them(self):
        self.assertEqual(self.run_of("npm", "run x -w a -w b").selection, Selection("npm", ("a", "b")))
        self.assertEqual(self.run_of("npm", "run x -ws --include-workspace-root").selection,
                         Selection("npm", (), True, True))
        self.assertEqual(self.run_of("pnpm", "-r run x").selection, Selection("pnpm", (), True, False))
        self.assertEqual(self.run_of("pnpm", "-r install").selection, Selection("pnpm", (), True, True))
        self.assertEqual(self.run_of("pnpm", "-w x").selection, Selection("pnpm", (), False, True))
        self.assertEqual(self.run_of("yarn", "workspace a x").selection, Selection("yarn", ("a",)))
        self.assertEqual(self.run_of("yarn", "workspaces foreach -A --include 'a*' run x").selection,
                         Selection("yarn", (), True, True))
        self.assertEqual(self.run_of("bun", "--filter a release").selection, Selection("bun", ("a",)))

    def test_what_runs_in_place_of_a_missing_script(self):
        self.assertEqual(self.run_of("yarn", "tsc").otherwise, "binary")
        self.assertEqual(self.run_of("bun", "tsc").otherwise, "binary")
        self.assertEqual(self.run_of("pnpm", "tsc").otherwise, "command")
        self.assertEqual(self.run_of("npm", "run tsc").otherwise, "npm")

    def test_commands_of_the_managers_themselves_run_no_script(self):
        for manager, line in (("yarn", "dlx x"), ("yarn", "version"), ("pnpm", "dlx x"), ("pnpm", "add x"),
                              ("bun", "test"), ("bun", "install x"), ("bun", "add x"), ("bun", "pm ls")):
            with self.subTest(line=manager + " " + line):
                self.assertIsNone(self.run_of(manager, line))

    def test_scripts_run_as_npm_runs_them(self):
        scripts = {"prerestart": "a", "stop": "b", "start": "c", "prex": "d"}
        self.assertEqual(package_scripts.lines(scripts, ("prerestart", "restart", "postrestart"), "restart", ("q",),
                                               npm_defaults=True),
                         [("prerestart", "a"), ("restart", "npm stop --if-present && npm start q")])
        self.assertEqual(package_scripts.lines(scripts, ("prex", "x", "postx"), "x"), [])  # "Missing script"


class WorkspaceGlobs(unittest.TestCase):
    """package_workspaces: the globs and the filters (pure)."""

    TREE = {"/r/packages/a/package.json", "/r/packages/b/package.json", "/r/packages/.hidden/package.json",
            "/r/packages/node_modules/x/package.json", "/r/apps/web/package.json", "/r/apps/web/sub/package.json"}

    def folders(self, path):
        prefix = path.rstrip("/") + "/"
        return sorted({p[len(prefix):].split("/")[0] for p in self.TREE if p.startswith(prefix)
                       and "/" in p[len(prefix):]})

    def members(self, patterns):
        return package_workspaces.member_folders("/r", patterns, self.folders)

    def test_globs_match_folders_as_the_managers_do(self):
        self.assertEqual(self.members(["packages/*"]), ["/r/packages/a", "/r/packages/b"])
        self.assertEqual(self.members(["./packages/*", "apps/**"]),
                         ["/r/packages/a", "/r/packages/b", "/r/apps", "/r/apps/web", "/r/apps/web/sub"])
        self.assertEqual(self.members(["packages/*", "!packages/b"]), ["/r/packages/a"])
        self.assertEqual(self.members(["{packages,apps}/[a-w]*"]), ["/r/packages/a", "/r/packages/b", "/r/apps/web"])
        self.assertEqual(self.members(["packages/.*"]), ["/r/packages/.hidden"])

    def test_names_match_as_globs(self):
        self.assertTrue(package_workspaces.matches("@scope/app", "@scope/*"))
        self.assertTrue(package_workspaces.matches("abc", "a?[b-d]"))
        self.assertFalse(package_workspaces.matches("abc", "a[!b]c"))
        self.assertTrue(package_workspaces.path_matches(["a", "b", "c"], ["**", "c"]))
        self.assertFalse(package_workspaces.path_matches(["a", "b"], ["a"]))

    def test_pnpm_workspace_files(self):
        self.assertEqual(package_workspaces.pnpm_patterns("packages:\n  - 'packages/*'\n  - \"!**/test/**\" # no\n"
                                                          "catalog:\n  x: 1\n"), ["packages/*", "!**/test/**"])
        self.assertEqual(package_workspaces.pnpm_patterns("packages: [a/*, 'b']\n"), ["a/*", "b"])
        self.assertEqual(package_workspaces.pnpm_patterns("onlyBuiltDependencies: []\n"), ["**"])
        with self.assertRaises(ValueError):
            package_workspaces.pnpm_patterns("packages: 3\n")

    def test_npm_reads_a_workspace_filter_as_npm_11_does(self):
        # The table npm 11.19 gave, run offline on a root declaring `a` and `packages/*` (b).
        members = [package_workspaces.Member("a", "/r/a"), package_workspaces.Member("b", "/r/packages/b")]
        for cwd, text, names in (("/r", ".", []), ("/r", "./a", ["a"]), ("/r", "packages", ["b"]),
                                 ("/r", "packages/*", []), ("/r", "./packages", ["b"]), ("/r", "b", ["b"]),
                                 ("/r/packages", "b", ["b"]), ("/r/packages", "./b", ["b"]),
                                 ("/r/a", "../packages/b", ["b"]), ("/r", "*", ["b"])):
            with self.subTest(cwd=cwd, text=text):
                chosen = package_workspaces.selected(members, Selection("npm", (text,)), cwd, "/r")
                self.assertEqual([m.name for m in members if m.folder in chosen], names)

    def test_a_filter_this_model_does_not_read_exactly_selects_every_package(self):
        members = [package_workspaces.Member("a", "/r/a"), package_workspaces.Member("b", "/r/b")]
        for manager, text in (("pnpm", "a..."), ("pnpm", "...a"), ("pnpm", "[origin/main]"), ("pnpm", "!a"),
                              ("bun", "!a"), ("npm", None)):
            with self.subTest(manager=manager, text=text):
                self.assertEqual(package_workspaces.selected(members, Selection(manager, (text,)), "/r", "/r"),
                                 ["/r/a", "/r/b"])


if __name__ == "__main__":
    unittest.main()
