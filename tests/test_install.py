"""install.py: the pure merge on its own, and the installer end to end in a temporary home.

Every run of install.py here happens in a temporary copy of the checkout (a folder with a space in its
name, so quoting is exercised) with HOME, CLAUDE_CONFIG_DIR and CODEX_HOME pointing into a temporary
folder: the real ~/.claude and ~/.codex are never read or written. Hook scripts that have not landed
in scripts/ yet are replaced in the copy by tiny stand-ins that read stdin and exit 0.
"""
import datetime
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from unittest import mock

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLUGIN = os.path.join(REPO, "plugin")  # the marketplace's plugin source: what the plugin cache copies
sys.path.insert(0, os.path.join(REPO, "scripts"))
sys.path.insert(0, REPO)
sys.path.insert(0, os.path.join(REPO, "tests"))  # the e2e helpers, when run outside discover

import install  # noqa: E402
import support  # noqa: E402
from installer import codextrust, hooksfile, jsonedit, userfile, wiring  # noqa: E402

NOW = datetime.datetime(2026, 12, 1, 2, 0, 0, tzinfo=datetime.timezone.utc)

HOOK_SCRIPTS = ("peers.py", "cold_start.py", "memory_delta.py", "git_index_guard.py", "edit_notice.py")
STAND_IN = "import sys\nsys.stdin.buffer.readline()\nraise SystemExit(0)\n"
PAYLOADS = {
    "SessionStart": {"hook_event_name": "SessionStart", "source": "startup"},
    "UserPromptSubmit": {"hook_event_name": "UserPromptSubmit", "prompt": "please look at the parser"},
    "PreToolUse": {"hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": {"command": "git status", "description": "status"}},
}
USER_SETTINGS = {
    "model": "opus",
    "hooks": {
        "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo mine"}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "my-guard"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}],
    },
    "permissions": {"allow": ["Bash(ls:*)"]},
}


def entries_from(checkout, python="/usr/bin/python3"):
    return wiring.build_entries(wiring.CLAUDE_HOOKS, python, os.path.join(checkout, "scripts"))


def commands(settings):
    return [handler["command"]
            for groups in settings.get("hooks", {}).values()
            for group in groups
            for handler in group.get("hooks", [])]


class MergeTest(unittest.TestCase):
    """The pure functions: no files, no environment."""

    def test_sh_quote_survives_spaces_and_quotes(self):
        for word in ["/a b/c", "/it's/here", "/plain", "/x/$HOME/`y`"]:
            self.assertEqual(shlex.split(wiring.sh_quote(word)), [word])

    def test_windows_command_uses_forward_slashes_and_double_quotes(self):
        line = wiring.command_line("C:\\Py 39\\python.exe", "C:\\my repo\\scripts\\peers.py", ("--hook",),
                                    windows=True)
        self.assertEqual(line, '"C:/Py 39/python.exe" -S "C:/my repo/scripts/peers.py" --hook')

    def test_windows_path_that_a_shell_would_expand_is_refused(self):
        with self.assertRaises(install.InstallError):
            wiring.command_line("C:/Py/python.exe", "C:/100%/scripts/peers.py", (), windows=True)

    def test_fresh_merge_adds_one_group_per_hook_in_order(self):
        merged = wiring.merge({}, entries_from("/co"))
        self.assertEqual(list(merged["hooks"]), ["SessionStart", "UserPromptSubmit", "PreToolUse"])
        self.assertEqual([g["matcher"] for g in merged["hooks"]["SessionStart"]],
                         ["startup|resume|clear|fork", "startup|resume|clear|compact|fork"])
        self.assertNotIn("matcher", merged["hooks"]["UserPromptSubmit"][0])
        self.assertEqual(merged["hooks"]["PreToolUse"][0]["hooks"][0],
                         {"type": "command", "command": "'/usr/bin/python3' -S '/co/scripts/git_index_guard.py'",
                          "timeout": 5})

    def test_merge_keeps_the_users_hooks_keys_and_order(self):
        merged = wiring.merge(USER_SETTINGS, entries_from("/co"))
        self.assertEqual(list(merged), ["model", "hooks", "permissions"])
        self.assertEqual(list(merged["hooks"]), ["SessionStart", "PreToolUse", "Stop", "UserPromptSubmit"])
        self.assertEqual(merged["hooks"]["SessionStart"][0], USER_SETTINGS["hooks"]["SessionStart"][0])
        self.assertEqual(merged["hooks"]["PreToolUse"][0], USER_SETTINGS["hooks"]["PreToolUse"][0])
        self.assertEqual(merged["hooks"]["Stop"], USER_SETTINGS["hooks"]["Stop"])

    def test_merge_does_not_change_its_input(self):
        before = json.dumps(USER_SETTINGS)
        wiring.merge(USER_SETTINGS, entries_from("/co"))
        self.assertEqual(json.dumps(USER_SETTINGS), before)

    def test_merging_twice_changes_nothing(self):
        once = wiring.merge(USER_SETTINGS, entries_from("/co"))
        self.assertEqual(wiring.render(wiring.merge(once, entries_from("/co"))), wiring.render(once))

    def test_moved_checkout_updates_paths_in_place(self):
        old = wiring.merge(USER_SETTINGS, entries_from("/old place"))
        new = wiring.merge(old, entries_from("/new place"))
        ours = [c for c in commands(new) if wiring.script_of(c)]
        self.assertEqual(len(ours), len(wiring.CLAUDE_HOOKS))
        self.assertTrue(all("/new place/scripts/" in c for c in ours))
        self.assertEqual([list(g) for g in new["hooks"]["SessionStart"]],
                         [list(g) for g in old["hooks"]["SessionStart"]])

    def test_an_install_from_before_dash_s_and_fork_is_upgraded_not_duplicated(self):
        old = {"hooks": {"SessionStart": [
            {"matcher": "startup|resume|clear", "hooks": [
                {"type": "command", "command": "python3 /co/scripts/peers.py --hook"}]},
            {"matcher": "startup|resume|clear|compact", "hooks": [
                {"type": "command", "command": "python3 /co/scripts/cold_start.py"}]}]}}
        upgraded = wiring.merge(old, entries_from("/co"))
        ours = [c for c in commands(upgraded) if wiring.script_of(c)]
        self.assertEqual(len(ours), len(wiring.CLAUDE_HOOKS))
        self.assertTrue(all(" -S " in command for command in ours))
        self.assertEqual([g["matcher"] for g in upgraded["hooks"]["SessionStart"]],
                         ["startup|resume|clear|fork", "startup|resume|clear|compact|fork"])

    def test_our_handler_under_another_matcher_moves_to_its_own_group(self):
        stray = {"hooks": {"PreToolUse": [{"matcher": "Bash|Edit", "hooks": [
            {"type": "command", "command": "my-guard"},
            {"type": "command", "command": "python3 /old/scripts/git_index_guard.py"}]}]}}
        merged = wiring.merge(stray, entries_from("/co"))
        groups = merged["hooks"]["PreToolUse"]
        self.assertEqual(groups[0], {"matcher": "Bash|Edit", "hooks": [{"type": "command", "command": "my-guard"}]})
        self.assertEqual(groups[1]["matcher"], "Bash")

    def test_unmerge_restores_the_users_settings_exactly(self):
        merged = wiring.merge(USER_SETTINGS, entries_from("/co"))
        self.assertEqual(wiring.render(wiring.unmerge(merged)), wiring.render(USER_SETTINGS))

    def test_unmerge_of_a_fresh_install_leaves_no_hooks_key(self):
        merged = wiring.merge({"model": "opus"}, entries_from("/co"))
        self.assertEqual(wiring.unmerge(merged), {"model": "opus"})

    def test_unmerge_keeps_the_users_empty_groups(self):
        settings = {"hooks": {"Stop": []}}
        self.assertEqual(wiring.unmerge(wiring.merge(settings, entries_from("/co"))), settings)

    def test_script_of_recognises_settings_and_plugin_commands_only_under_scripts(self):
        self.assertEqual(wiring.script_of("'/usr/bin/python3' '/a b/scripts/peers.py' --hook"), "peers.py")
        self.assertEqual(wiring.script_of('python3 "${CLAUDE_PLUGIN_ROOT}/scripts/cold_start.py"'), "cold_start.py")
        self.assertEqual(wiring.script_of('"C:/x/scripts/memory_delta.py"'), "memory_delta.py")
        self.assertIsNone(wiring.script_of("python3 ~/bin/peers.py"))
        self.assertIsNone(wiring.script_of("python3 /x/scripts/peers.py.bak"))

    def test_shape_problems_name_the_wrong_type(self):
        self.assertIn("an array", wiring.shape_problem([]))
        self.assertIn('"hooks" is an array', wiring.shape_problem({"hooks": []}))
        self.assertIn('"hooks.Stop" is an object', wiring.shape_problem({"hooks": {"Stop": {}}}))
        self.assertIsNone(wiring.shape_problem(USER_SETTINGS))

    def test_identical_command_in_two_settings_files_counts_once(self):
        merged = wiring.merge({}, entries_from("/co"))
        found = wiring.registrations(merged, "user") + wiring.registrations(merged, "project")
        self.assertEqual(wiring.registration_problems(found), [])

    def test_plugin_copy_next_to_settings_is_a_double_registration_naming_both(self):
        plugin = wiring.merge({}, wiring.plugin_entries(wiring.CLAUDE_HOOKS))
        found = (wiring.registrations(wiring.merge({}, entries_from("/co")), "user settings /h/settings.json")
                 + wiring.registrations(plugin, "plugin peerhooks@m at /h/plugins/cache/m/peerhooks/0.1.0",
                                         deduplicated=False))
        problems = wiring.registration_problems(found)
        self.assertEqual(len(problems), len(wiring.CLAUDE_HOOKS))
        self.assertIn("user settings /h/settings.json", problems[0])
        self.assertIn("plugin peerhooks@m at /h/plugins/cache/m/peerhooks/0.1.0", problems[0])


class CompileCheckTest(unittest.TestCase):
    def test_current_bytecode_stands_for_a_compile_and_an_edit_is_compiled_again(self):
        import py_compile
        from installer import checks

        folder = tempfile.mkdtemp(prefix="peerhooks-compile-")
        self.addCleanup(shutil.rmtree, folder, True)
        path = os.path.join(folder, "hook.py")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("x = 1\n")
        py_compile.compile(path, doraise=True)
        with mock.patch("builtins.compile", side_effect=AssertionError("compiled again")):
            self.assertIsNone(checks.compile_problem(path))
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("def broken(:\n")
        self.assertIn("does not compile: line 1", checks.compile_problem(path))


class ShippedFilesTest(unittest.TestCase):
    """settings.example.json, the plugin files and the README snippet say what install.py writes."""

    def test_settings_example_is_exactly_what_install_writes_with_placeholders(self):
        with open(os.path.join(REPO, "settings.example.json"), encoding="utf-8") as handle:
            self.assertEqual(handle.read(), wiring.render(wiring.merge({}, wiring.example_entries())))

    def test_docs_snippet_agrees_with_settings_example(self):
        with open(os.path.join(REPO, "docs", "install.md"), encoding="utf-8") as handle:
            doc = handle.read()
        block = re.search(r"<!-- settings-snippet -->(.*?)<!-- /settings-snippet -->", doc, re.S)
        self.assertIsNotNone(block, "docs/install.md lost its settings-snippet markers")
        fenced = re.search(r"```(?:json)?\n(.*?)```", block.group(1), re.S)
        snippet = fenced.group(1) if fenced else block.group(1)
        with open(os.path.join(REPO, "settings.example.json"), encoding="utf-8") as handle:
            self.assertEqual(json.loads(snippet), json.load(handle))

    def read_doc(self):
        with open(os.path.join(REPO, "docs", "install.md"), encoding="utf-8") as handle:
            return handle.read()

    def test_install_doc_shows_the_codex_hooks_install_writes(self):
        block = re.search(r"<!-- codex-hooks-sample -->\n```json\n(.*?)```", self.read_doc(), re.S)
        expected = wiring.merge({}, wiring.example_entries(wiring.CODEX_HOOKS))
        self.assertEqual(block.group(1), wiring.render(expected))

    def test_install_doc_names_the_backup_folder_and_how_many_are_kept(self):
        doc = self.read_doc()
        self.assertIn("<Claude home>/%s/" % install.BACKUPS, doc)
        self.assertIn("newest %d backups" % userfile.KEEP_BACKUPS, doc)

    def test_plugin_hooks_run_the_same_hooks_from_the_plugin_root(self):
        with open(os.path.join(PLUGIN, "hooks", "hooks.json"), encoding="utf-8") as handle:
            shipped = json.load(handle)
        expected = wiring.merge({}, wiring.plugin_entries(wiring.CLAUDE_HOOKS))
        self.assertEqual(shipped["hooks"], expected["hooks"])

    def test_the_marketplace_names_a_plugin_folder_that_holds_only_what_runs(self):
        """`claude plugin install` copies the plugin source whole (links followed) into its cache:
        the source is plugin/, whose scripts/ is a link to the repository's, not the repository."""
        with open(os.path.join(REPO, ".claude-plugin", "marketplace.json"), encoding="utf-8") as handle:
            marketplace = json.load(handle)
        self.assertEqual([(p["name"], p["source"]) for p in marketplace["plugins"]], [("peerhooks", "./plugin")])
        self.assertEqual(sorted(os.listdir(PLUGIN)), [".claude-plugin", "hooks", "scripts"])
        self.assertEqual(os.readlink(os.path.join(PLUGIN, "scripts")), os.path.join("..", "scripts"))
        self.assertEqual(sorted(os.listdir(os.path.join(PLUGIN, "hooks"))), ["hooks.json", "python.sh"])
        self.assertEqual(os.listdir(os.path.join(PLUGIN, ".claude-plugin")), ["plugin.json"])

    def test_plugin_manifest_has_no_hooks_key_and_the_project_version(self):
        with open(os.path.join(PLUGIN, ".claude-plugin", "plugin.json"), encoding="utf-8") as handle:
            manifest = json.load(handle)
        self.assertNotIn("hooks", manifest)  # hooks/hooks.json loads by default; a key would load it twice
        self.assertEqual(manifest["name"], "peerhooks")
        with open(os.path.join(REPO, "pyproject.toml"), encoding="utf-8") as handle:
            version = re.search(r'^version = "([^"]+)"', handle.read(), re.M).group(1)
        self.assertEqual(manifest["version"], version)


class PluginLauncherTest(unittest.TestCase):
    """plugin/hooks/python.sh, run as the plugin's hooks run it (`sh <launcher> <script> [words]`) on a
    machine whose `python3` on PATH is a shim, as pyenv's is: a script that starts the real one."""

    LAUNCHER = os.path.join(PLUGIN, "hooks", "python.sh")

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="peerhooks-launcher-")
        self.addCleanup(shutil.rmtree, self.root, True)
        self.bin = os.path.join(self.root, "shims")
        self.data = os.path.join(self.root, "data")  # CLAUDE_PLUGIN_DATA, which Claude Code creates
        os.makedirs(self.bin)
        os.makedirs(self.data)
        self.calls = os.path.join(self.root, "shim-calls")
        self.shim("python3", sys.executable)
        self.hook = os.path.join(self.root, "hook.py")
        with open(self.hook, "w", encoding="utf-8") as handle:
            handle.write("import sys\nprint(sys.executable, sys.flags.no_site, sys.argv[1:])\n")

    def shim(self, name, real):
        """A stand-in for a version manager's shim: it notes the call, then runs the real interpreter."""
        path = os.path.join(self.bin, name)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("#!/bin/sh\necho %s >> '%s'\nexec '%s' \"$@\"\n" % (name, self.calls, real))
        os.chmod(path, 0o755)

    def run_launcher(self, *args, shell="sh", data=True, path=None):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "PYENV"))}
        env["PATH"] = path if path is not None else self.bin + os.pathsep + "/usr/bin" + os.pathsep + "/bin"
        if data:
            env["CLAUDE_PLUGIN_DATA"] = self.data
        return subprocess.run([shell, self.LAUNCHER] + list(args), env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=60)

    def shim_calls(self):
        if not os.path.exists(self.calls):
            return 0
        with open(self.calls, encoding="utf-8") as handle:
            return len(handle.read().splitlines())

    def test_the_shim_is_asked_once_and_every_call_runs_the_real_interpreter_with_dash_s(self):
        for _ in range(3):
            completed = self.run_launcher(self.hook, "--hook")
            self.assertEqual(completed.returncode, 0, completed.stderr)
            self.assertEqual(completed.stdout, "%s 1 ['--hook']\n" % sys.executable)
        self.assertEqual(self.shim_calls(), 1)
        with open(os.path.join(self.data, "python"), encoding="utf-8") as handle:
            self.assertEqual(handle.read(), sys.executable + "\n")

    def test_it_runs_under_each_posix_sh_a_client_may_use(self):
        """dash (Debian's sh), bash as sh (macOS's /bin/sh is bash 3.2; Git Bash's sh on Windows)."""
        shells = [[shell] for shell in ("dash", "bash", "sh") if shutil.which(shell)]
        shells += [["bash", "--posix"]] if shutil.which("bash") else []
        for shell in shells:
            with self.subTest(shell=shell):
                if os.path.exists(os.path.join(self.data, "python")):
                    os.remove(os.path.join(self.data, "python"))
                for _ in range(2):
                    completed = subprocess.run(shell + [self.LAUNCHER, self.hook], stdin=subprocess.DEVNULL,
                                               env=dict(os.environ, PATH=self.bin + os.pathsep + "/usr/bin:/bin",
                                                        CLAUDE_PLUGIN_DATA=self.data),
                                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                                               timeout=60)
                    self.assertEqual(completed.stdout, "%s 1 []\n" % sys.executable, completed.stderr)
        self.assertEqual(self.shim_calls(), len(shells))

    def test_an_interpreter_that_went_away_is_looked_up_again(self):
        with open(os.path.join(self.data, "python"), "w", encoding="utf-8") as handle:
            handle.write(os.path.join(self.root, "removed", "python3") + "\n")
        self.assertEqual(self.run_launcher(self.hook).stdout, "%s 1 []\n" % sys.executable)
        self.assertEqual(self.shim_calls(), 1)

    def test_without_a_data_folder_nothing_is_remembered(self):
        for _ in range(2):
            self.assertEqual(self.run_launcher(self.hook, data=False).stdout, "%s 1 []\n" % sys.executable)
        self.assertEqual(self.shim_calls(), 2)
        self.assertEqual(os.listdir(self.data), [])

    def test_without_a_python_3_9_or_the_script_it_exits_0_and_says_why(self):
        os.remove(os.path.join(self.bin, "python3"))
        old = os.path.join(self.root, "old-python")
        with open(old, "w", encoding="utf-8") as handle:  # a Python 2 or 3.8: answers nothing to the probe
            handle.write("#!/bin/sh\nexit 0\n")
        os.chmod(old, 0o755)
        self.shim("python", old)
        tools = os.path.join(self.root, "tools")  # sh alone, with no Python beside it
        os.makedirs(tools)
        os.symlink(shutil.which("sh"), os.path.join(tools, "sh"))
        completed = self.run_launcher(self.hook, path=self.bin + os.pathsep + tools)
        self.assertEqual((completed.returncode, completed.stdout), (0, ""))
        self.assertIn("no Python 3.9 or newer on PATH", completed.stderr)
        self.assertEqual(os.listdir(self.data), [])
        missing = self.run_launcher(os.path.join(self.root, "gone.py"))
        self.assertEqual((missing.returncode, missing.stdout), (0, ""))  # never 2: Claude Code reads 2 as block
        self.assertIn("gone.py does not exist; the hook did not run", missing.stderr)


# Settings files as people write them by hand; none holds a "hooks" member.
HAND_FORMATTED = {
    "tabs": b'{\n\t"model": "opus",\n\t"env": {\n\t\t"EDITOR": "vim"\n\t}\n}\n',
    "four spaces, escapes, no final newline":
        b'{\n    "model": "opus",\n    "statusLine": {"type": "command", "command": "echo \\u00e4\\u00f6"}\n}',
    "CRLF": b'{\r\n  "model": "opus",\r\n  "permissions": {\r\n    "allow": ["Bash(ls:*)"]\r\n  }\r\n}\r\n',
    "one line": b'{"model":"opus","permissions":{"allow":[]}}',
    "byte order mark": b'\xef\xbb\xbf{\n  "model": "opus"\n}\n',
    "empty object": b"{}",
}
# A user's own hooks, hand-formatted: an install adds events beside them and leaves them as they are.
HAND_FORMATTED_WITH_HOOKS = (b'{\n    "hooks": {"Stop": [{"hooks": [{"type": "command",\n'
                             b'        "command": "say d\\u00f6ne"}]}]},\n    "model": "opus"\n}')
# A user's own hook entries kept on one line each, as people write them: in an array of its own lines,
# in an array on the event's line, and one group that also runs an old copy of our guard.
ONE_LINE_ENTRIES = (b'{\n  "model": "opus",\n  "hooks": {\n    "PreToolUse": [\n'
                    b'      {"matcher": "Bash", "hooks": [{"type": "command", "command": "my-guard"}]},\n'
                    b'      {"matcher": "Read", "hooks": [{"type": "command", "command": "audit read"}]}\n'
                    b'    ],\n'
                    b'    "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}]}],\n'
                    b'    "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "log-prompt"}, '
                    b'{"type": "command", "command": "python3 /old/scripts/memory_delta.py"}]}]\n'
                    b'  }\n}\n')
ONE_LINE_USER_PARTS = (b'{"matcher": "Bash", "hooks": [{"type": "command", "command": "my-guard"}]},\n',
                       b'{"matcher": "Read", "hooks": [{"type": "command", "command": "audit read"}]}',
                       b'[{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}]}',
                       b'{"hooks": [{"type": "command", "command": "log-prompt"}')
OBSERVED_CODEX_CONFIG = '''model_provider = "stub"

[projects."/tmp/cx/repo"]
trust_level = "trusted"

[hooks.state]

[hooks.state."/tmp/cx/home/.codex/hooks.json:pre_tool_use:0:0"]
trusted_hash = "sha256:32dc8c77d13c35aedddf4d22d2d04bc57512f693cb64d5d902eb9e9ad558219a"

[hooks.state."/tmp/cx/home/.codex/hooks.json:session_start:1:0"]
trusted_hash = "sha256:dad366ecb6ea820b2edfeca905e47c4c89701517dd5addcad2c652c489a55a41"
'''  # the shape Codex 0.171.0 wrote here after "Trust all and continue" (2026-12-01)


class FormatKeepingEditTest(unittest.TestCase):
    """installer.jsonedit: only the edited member changes, written in the file's own style."""

    HOOKS = {"Stop": [{"hooks": [{"type": "command", "command": "say d\u00f6ne"}]}]}

    def test_adding_then_removing_a_member_gives_back_the_same_text(self):
        for name, data in HAND_FORMATTED.items():
            with self.subTest(name):
                text = data.decode("utf-8-sig")
                added = jsonedit.set_member(text, "hooks", self.HOOKS)
                self.assertEqual(json.loads(added)["hooks"], self.HOOKS)
                self.assertEqual(jsonedit.remove_member(added, "hooks"), text)

    def test_a_new_member_is_indented_like_its_neighbours(self):
        added = jsonedit.set_member(HAND_FORMATTED["tabs"].decode(), "hooks", self.HOOKS)
        self.assertIn('\n\t"hooks": {\n\t\t"Stop": [\n\t\t\t{\n', added)

    def test_crlf_files_get_crlf_lines_only(self):
        added = jsonedit.set_member(HAND_FORMATTED["CRLF"].decode(), "hooks", self.HOOKS)
        self.assertNotIn("\n", added.replace("\r\n", ""))

    def test_escaping_style_is_kept(self):
        escaped = jsonedit.set_member(HAND_FORMATTED["four spaces, escapes, no final newline"].decode(), "hooks",
                                      self.HOOKS)
        self.assertIn("say d\\u00f6ne", escaped)
        self.assertIn("echo \\u00e4\\u00f6", escaped)
        raw = jsonedit.set_member('{\n  "name": "J\u00fcrgen"\n}\n', "hooks", self.HOOKS)
        self.assertIn("say d\u00f6ne", raw)

    def test_replacing_a_member_leaves_the_others_byte_for_byte(self):
        text = '{\n  "a": [1,2,  3],\n  "hooks": {"x": 1},\n  "b": {"c":true}\n}'
        self.assertEqual(jsonedit.set_member(text, "hooks", {}),
                         '{\n  "a": [1,2,  3],\n  "hooks": {},\n  "b": {"c":true}\n}')

    def test_removing_the_first_or_only_member(self):
        self.assertEqual(jsonedit.remove_member('{\n  "hooks": {},\n  "b": 1\n}', "hooks"), '{\n  "b": 1\n}')
        self.assertEqual(jsonedit.remove_member('{\n  "hooks": {}\n}\n', "hooks"), "{}\n")

    def test_a_member_inside_a_member_is_edited_without_touching_its_neighbours(self):
        text = '{\n\t"hooks": {\n\t\t"Stop": [ 1,2 ]\n\t}\n}'
        added = jsonedit.set_member(text, "PreToolUse", [3], path=("hooks",))
        self.assertEqual(added, '{\n\t"hooks": {\n\t\t"Stop": [ 1,2 ],\n\t\t"PreToolUse": [\n\t\t\t3\n\t\t]\n\t}\n}')
        self.assertEqual(jsonedit.remove_member(added, "PreToolUse", path=("hooks",)), text)
        self.assertEqual(jsonedit.set_member('{\n  "hooks": {}\n}', "Stop", [], path=("hooks",)),
                         '{\n  "hooks": {\n    "Stop": []\n  }\n}')

    def test_detected_style(self):
        style = jsonedit.detect_style(HAND_FORMATTED["four spaces, escapes, no final newline"].decode())
        self.assertEqual((style.indent, style.ensure_ascii, style.newline, style.final_newline),
                         ("    ", True, "\n", False))
        self.assertIsNone(jsonedit.detect_style(HAND_FORMATTED["one line"].decode()).indent)

    def test_an_element_added_to_an_array_leaves_the_others_byte_for_byte(self):
        text = '{\n  "a": [\n    {"x": 1,  "y": [2]},\n    {"z": 3}\n  ]\n}\n'
        old = json.loads(text)
        new = {"a": old["a"] + [{"ours": True}]}
        added = jsonedit.edit(text, old, new)
        self.assertEqual(added, '{\n  "a": [\n    {"x": 1,  "y": [2]},\n    {"z": 3},\n    {\n      "ours": true\n    }\n  ]\n}\n')
        self.assertEqual(jsonedit.edit(added, new, old), text)
        first = {"a": [{"ours": True}] + old["a"]}
        self.assertEqual(jsonedit.edit(jsonedit.edit(text, old, first), first, old), text)

    def test_a_changed_element_is_edited_inside_the_one_it_resembles(self):
        text = '{"a": [{"k": "ours", "v": 1}, {"k": "mine",  "v": [1,  2], "w": "x"}]}'
        old = json.loads(text)
        new = {"a": [{"k": "mine", "v": [1, 2]}]}  # ours gone, and a member of mine
        self.assertEqual(jsonedit.edit(text, old, new), '{"a": [{"k": "mine",  "v": [1,  2]}]}')

    def test_a_one_line_document_stays_on_one_line(self):
        text = '{"model":"opus","hooks":{"Stop":[{"hooks":[]}]}}'
        old = json.loads(text)
        new = {"model": "opus", "hooks": {"Stop": [{"hooks": []}, {"matcher": "x"}], "Other": []}}
        self.assertEqual(jsonedit.edit(text, old, new),
                         '{"model":"opus","hooks":{"Stop":[{"hooks":[]},{"matcher":"x"}],"Other":[]}}')


class CodexTrustTest(unittest.TestCase):
    """installer.codextrust: which Codex hooks carry a recorded trust, from config.toml."""

    def test_trust_key_is_path_snake_case_event_group_and_handler(self):
        position = codextrust.HookPosition("/h/.codex/hooks.json", "PreToolUse", 0, 2)
        self.assertEqual(codextrust.trust_key(position), "/h/.codex/hooks.json:pre_tool_use:0:2")

    def test_line_reader_reads_what_codex_wrote_as_tomllib_does(self):
        hashes = codextrust.quoted_tables_by_lines(OBSERVED_CODEX_CONFIG, "hooks.state", "trusted_hash")
        self.assertEqual(sorted(hashes), ["/tmp/cx/home/.codex/hooks.json:pre_tool_use:0:0",
                                          "/tmp/cx/home/.codex/hooks.json:session_start:1:0"])
        self.assertEqual(codextrust.trusted_hashes(OBSERVED_CODEX_CONFIG), hashes)
        self.assertEqual(codextrust.quoted_tables_by_lines(OBSERVED_CODEX_CONFIG, "projects", "trust_level"),
                         {"/tmp/cx/repo": "trusted"})

    def test_line_reader_ignores_keys_outside_the_tables_asked_for(self):
        text = '[other]\ntrusted_hash = "sha256:x"\n[hooks.state."/a:session_start:0:0"]\nmodel = 1\n'
        self.assertEqual(codextrust.quoted_tables_by_lines(text, "hooks.state", "trusted_hash"), {})

    def test_a_trusted_project_covers_the_folders_below_it_only(self):
        projects = codextrust.trusted_projects(OBSERVED_CODEX_CONFIG)
        self.assertTrue(codextrust.folder_is_trusted("/tmp/cx/repo", projects))
        self.assertTrue(codextrust.folder_is_trusted("/tmp/cx/repo/sub", projects))
        self.assertFalse(codextrust.folder_is_trusted("/tmp/cx/repository", projects))

    def test_a_broken_line_elsewhere_does_not_hide_the_trust(self):
        self.assertEqual(len(codextrust.trusted_hashes(OBSERVED_CODEX_CONFIG + "this is not toml\n")), 2)

    def test_trust_is_recorded_per_position_and_holds_only_for_the_definition_trusted(self):
        hashes = codextrust.trusted_hashes(OBSERVED_CODEX_CONFIG)
        recorded = hashes["/tmp/cx/home/.codex/hooks.json:session_start:1:0"]
        trusted = codextrust.HookPosition("/tmp/cx/home/.codex/hooks.json", "SessionStart", 1, 0)
        self.assertEqual(codextrust.trust_of(trusted, recorded, hashes), codextrust.TRUSTED)
        self.assertEqual(codextrust.trust_of(trusted, "sha256:other", hashes), codextrust.CHANGED)
        untrusted = codextrust.HookPosition("/tmp/cx/home/.codex/hooks.json", "SessionStart", 0, 0)
        self.assertEqual(codextrust.trust_of(untrusted, recorded, hashes), codextrust.UNTRUSTED)

    def test_trust_hash_is_the_one_codex_reports_for_a_handler(self):
        # currentHash from `codex app-server` hooks/list for this handler (Codex 0.171, docs/codex.md)
        handler = {"type": "command", "command": "echo hi", "timeout": 10}
        digest = codextrust.trust_hash("PreToolUse", "Bash", handler)
        self.assertTrue(digest.startswith("sha256:") and len(digest) == 71)
        self.assertNotEqual(digest, codextrust.trust_hash("PreToolUse", "Bash", dict(handler, timeout=11)))
        self.assertEqual(codextrust.trust_hash("UserPromptSubmit", "x", handler),
                         codextrust.trust_hash("UserPromptSubmit", None, handler))


class UserFileTest(unittest.TestCase):
    """installer.userfile: replacing a user's file without losing their edits, link or backups."""

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="peerhooks-userfile-")
        self.addCleanup(shutil.rmtree, self.folder, True)
        self.path = os.path.join(self.folder, "settings.json")
        self.store = userfile.BackupFolder(os.path.join(self.folder, "backups"))
        with open(self.path, "wb") as handle:
            handle.write(b"one\n")

    def read(self):
        with open(self.path, "rb") as handle:
            return handle.read()

    def test_an_edit_made_while_computing_is_kept_and_the_change_made_again_on_it(self):
        seen = []

        def compute(before):
            seen.append(before.data)
            if len(seen) == 1:  # the user saves the file while we are working
                with open(self.path, "ab") as handle:
                    handle.write(b"two\n")
            return before.data + b"ours\n"

        outcome = userfile.change(self.path, compute, self.store, NOW)
        self.assertEqual(seen, [b"one\n", b"one\ntwo\n"])
        self.assertEqual(self.read(), b"one\ntwo\nours\n")
        self.assertTrue(outcome.changed)

    def test_a_file_that_keeps_changing_is_refused_and_keeps_the_last_edit(self):
        def compute(before):
            with open(self.path, "ab") as handle:
                handle.write(b"again\n")
            return b"ours\n"

        with self.assertRaisesRegex(install.InstallError, "changed 3 times"):
            userfile.change(self.path, compute, self.store, NOW)
        self.assertEqual(self.read(), b"one\n" + b"again\n" * 3)
        self.assertEqual(sorted(os.listdir(self.folder)), ["settings.json"])

    def test_a_stale_lock_is_taken_over(self):
        lock = self.path + userfile.LOCK_SUFFIX
        with open(lock, "w") as handle:
            handle.write("12345")
        old = time.time() - 10 * userfile.LOCK_STALE_SECONDS
        os.utime(lock, (old, old))
        userfile.change(self.path, lambda before: b"ours\n", self.store, NOW)
        self.assertEqual(self.read(), b"ours\n")
        self.assertFalse(os.path.exists(lock))

    def test_backups_are_bounded_per_file_newest_kept(self):
        for number in range(userfile.KEEP_BACKUPS + 3):
            userfile.change(self.path, lambda before, n=number: b"%d\n" % n, self.store, NOW)
        kept = self.store.backups_of(self.path)
        self.assertEqual(len(kept), userfile.KEEP_BACKUPS)
        with open(kept[-1], "rb") as handle:
            self.assertEqual(handle.read(), b"%d\n" % (userfile.KEEP_BACKUPS + 1))

    def test_the_files_mode_is_kept(self):
        os.chmod(self.path, 0o640)
        userfile.change(self.path, lambda before: b"ours\n", self.store, NOW)
        self.assertEqual(os.stat(self.path).st_mode & 0o777, 0o640)


_template = []


def checkout_template():
    """install.py, the library, the rule file and the hook scripts (stand-ins for those not landed),
    copied once per test run and compiled: install.py compiles a checkout's library on its first run
    (~50 ms), which every sandbox would pay again. test_install_writes_the_hooks_bytecode runs it."""
    if not _template:
        root = tempfile.mkdtemp(prefix="peerhooks-install-template-")
        unittest.addModuleCleanup(shutil.rmtree, root, True)
        checkout = os.path.join(root, "checkout")
        os.makedirs(os.path.join(checkout, "scripts"))
        shutil.copy(os.path.join(REPO, "install.py"), checkout)
        shutil.copytree(os.path.join(REPO, "installer"), os.path.join(checkout, "installer"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copytree(os.path.join(REPO, "rules"), os.path.join(checkout, "rules"))
        shutil.copytree(os.path.join(REPO, "scripts", "peerhooks"), os.path.join(checkout, "scripts", "peerhooks"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        for script in HOOK_SCRIPTS:
            real = os.path.join(REPO, "scripts", script)
            target = os.path.join(checkout, "scripts", script)
            if os.path.isfile(real):
                shutil.copy(real, target)
            else:
                with open(target, "w", encoding="utf-8") as handle:
                    handle.write(STAND_IN)
        install.precompile(os.path.join(checkout, "scripts"))
        _template.append(checkout)
    return _template[0]


class Sandbox:
    """A temporary home and a temporary copy of the checkout, and a way to run install.py there."""

    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="peerhooks-install-")
        self.home = os.path.join(self.root, "home")
        self.claude = os.path.join(self.home, ".claude")
        self.codex = os.path.join(self.home, ".codex")
        os.makedirs(os.path.join(self.claude, "sessions"))
        self.settings = os.path.join(self.claude, "settings.json")
        self.checkout = self.copy_checkout("peer hooks")
        self.env = dict(os.environ, HOME=self.home, CLAUDE_CONFIG_DIR=self.claude, CODEX_HOME=self.codex)
        self.env.pop("LI_PLUS_AGENT_KEY", None)

    def copy_checkout(self, name):
        """A copy of the checkout template, its bytecode current as install.py leaves it. Its files
        are hard links to the template's (~40 ms less per test than copies): `write` and install.py
        replace a file rather than write into it, so no test's change reaches the template."""
        checkout = os.path.join(self.root, name)
        shutil.copytree(checkout_template(), checkout, copy_function=os.link)
        return checkout

    def run(self, *args, checkout=None, cwd=None):
        """install.py of a checkout copy as a person runs it: its main() in this process (it takes
        the environment and folder), or `python3 install.py` with PEERHOOKS_TEST_PROCESSES=1."""
        script = os.path.join(checkout or self.checkout, "install.py")
        if support.IN_PROCESS:
            return support.run_main_in_process(support.load_script(script).main, list(args), self.env,
                                               cwd or self.root)
        return subprocess.run([sys.executable, script] + list(args),
                              cwd=cwd or self.root, env=self.env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=60)

    def write(self, path, text):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if os.path.realpath(path).startswith(os.path.realpath(self.root) + os.sep) and os.path.isfile(path) \
                and os.stat(path).st_nlink > 1:
            os.remove(path)  # a checkout file linked to the template: a new file, not the template's
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)

    def read(self, path):
        with open(path, encoding="utf-8") as handle:
            return handle.read()

    def backups(self, home=None):
        folder = os.path.join(home or self.claude, install.BACKUPS)
        return sorted(name for name in os.listdir(folder) if ".backup-" in name) if os.path.isdir(folder) else []

    def leftovers(self, folder=None):
        """Anything install.py may leave beside a file: backups, temporary files, lock files."""
        folder = folder or self.claude
        return sorted(name for name in os.listdir(folder) if "peerhooks" in name)

    def make_repo(self, name="repo"):
        repo = os.path.join(self.root, name)
        os.makedirs(repo)
        subprocess.run(["git", "init", "-q", repo], check=True)
        return repo

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)


class InstallerTest(unittest.TestCase):
    def setUp(self):
        self.box = Sandbox()
        self.addCleanup(self.box.close)

    def install_ok(self, *args, **kwargs):
        completed = self.box.run(*args, **kwargs)
        self.assertEqual(completed.returncode, 0, completed.stderr + completed.stdout)
        return completed

    def refused(self, *args, **kwargs):
        completed = self.box.run(*args, **kwargs)
        self.assertEqual(completed.returncode, 1, completed.stdout)
        return completed

    def test_install_writes_the_hooks_plain_bytecode_only(self):
        library = os.path.join(self.box.checkout, "scripts", "peerhooks")
        for folder, _, _ in list(os.walk(library)):
            if os.path.basename(folder) == "__pycache__":
                shutil.rmtree(folder)
        self.install_ok()
        compiled = [name for _, _, names in os.walk(library) for name in names if name.endswith(".pyc")]
        self.assertIn("hookio.%s.pyc" % sys.implementation.cache_tag, compiled)
        sources = [name for _, _, names in os.walk(library) for name in names if name.endswith(".py")]
        self.assertEqual(len(compiled), len(sources))  # one plain .pyc per module: no -O or -OO variants

    def test_fresh_install_wires_every_hook_with_absolute_quoted_paths(self):
        completed = self.install_ok()
        text = self.box.read(self.box.settings)
        self.assertTrue(text.endswith("}\n") and '\n  "hooks": {\n' in text)
        wired = commands(json.loads(text))
        scripts = os.path.join(self.box.checkout, "scripts")
        python = wiring.sh_quote(sys.executable)
        self.assertEqual(wired, [
            "%s -S %s --hook" % (python, wiring.sh_quote(os.path.join(scripts, "peers.py"))),
            "%s -S %s" % (python, wiring.sh_quote(os.path.join(scripts, "cold_start.py"))),
            "%s -S %s" % (python, wiring.sh_quote(os.path.join(scripts, "memory_delta.py"))),
            "%s -S %s" % (python, wiring.sh_quote(os.path.join(scripts, "git_index_guard.py"))),
            "%s -S %s" % (python, wiring.sh_quote(os.path.join(scripts, "edit_notice.py"))),
        ])
        self.assertIn("LI_PLUS_AGENT_KEY", completed.stdout)
        self.assertEqual(self.box.backups(), [])  # nothing existed, nothing to back up

    def test_install_keeps_the_users_hooks_and_order_and_backs_up_the_old_file(self):
        original = wiring.render(USER_SETTINGS)
        self.box.write(self.box.settings, original)
        completed = self.install_ok()
        merged = json.loads(self.box.read(self.box.settings))
        self.assertEqual(list(merged), ["model", "hooks", "permissions"])
        self.assertEqual(merged["hooks"]["SessionStart"][0], USER_SETTINGS["hooks"]["SessionStart"][0])
        self.assertEqual(merged["hooks"]["PreToolUse"][0], USER_SETTINGS["hooks"]["PreToolUse"][0])
        backups = self.box.backups()
        self.assertEqual(len(backups), 1)
        self.assertRegex(backups[0], r"-\.claude-settings\.json\.backup-\d{8}T\d{6}\.\d{6}Z$")
        self.assertEqual(self.box.read(os.path.join(self.box.claude, install.BACKUPS, backups[0])), original)
        self.assertIn("kept in " + os.path.join(self.box.claude, install.BACKUPS), completed.stdout)

    def test_second_run_leaves_the_file_byte_identical_and_says_so(self):
        self.box.write(self.box.settings, wiring.render(USER_SETTINGS))
        self.install_ok()
        with open(self.box.settings, "rb") as handle:
            first = handle.read()
        completed = self.install_ok()
        with open(self.box.settings, "rb") as handle:
            self.assertEqual(handle.read(), first)
        self.assertIn("nothing changed", completed.stdout)
        self.assertEqual(len(self.box.backups()), 1)

    def test_moved_checkout_updates_paths_instead_of_adding_copies(self):
        self.install_ok()
        moved = self.box.copy_checkout("moved here")
        self.install_ok(checkout=moved)
        wired = commands(json.loads(self.box.read(self.box.settings)))
        self.assertEqual(len(wired), len(wiring.CLAUDE_HOOKS))
        self.assertTrue(all("/moved here/scripts/" in command for command in wired))

    def test_uninstall_restores_the_users_file_exactly(self):
        original = wiring.render(USER_SETTINGS)
        self.box.write(self.box.settings, original)
        self.install_ok()
        self.install_ok("--uninstall")
        self.assertEqual(self.box.read(self.box.settings), original)

    def assert_refused_untouched(self, text, *expected):
        self.box.write(self.box.settings, text)
        completed = self.refused()
        self.assertEqual(self.box.read(self.box.settings), text)
        self.assertEqual(self.box.leftovers(), [])
        self.assertIn(self.box.settings, completed.stderr)
        for words in expected:
            self.assertIn(words, completed.stderr)

    def test_invalid_json_is_refused_with_line_and_column(self):
        self.assert_refused_untouched('{\n  "model": "opus"\n  "hooks": {}\n}\n', "line 3, column 3")

    def test_a_json_array_is_refused(self):
        self.assert_refused_untouched("[]\n", "not a JSON object")

    def test_hooks_of_the_wrong_type_is_refused(self):
        self.assert_refused_untouched('{"hooks": []}\n', '"hooks" is an array')

    def test_unwritable_folder_gives_a_clear_error(self):
        blocker = os.path.join(self.box.root, "a file")
        self.box.write(blocker, "")
        self.box.env["CLAUDE_CONFIG_DIR"] = os.path.join(blocker, ".claude")
        completed = self.refused()
        self.assertIn("cannot write", completed.stderr)
        self.assertIn(blocker, completed.stderr)

    @unittest.skipIf(hasattr(os, "geteuid") and os.geteuid() == 0, "root writes into read-only folders")
    def test_read_only_folder_gives_a_clear_error_and_no_litter(self):
        original = wiring.render(USER_SETTINGS)
        self.box.write(self.box.settings, original)
        os.chmod(self.box.claude, 0o500)
        self.addCleanup(os.chmod, self.box.claude, 0o700)
        completed = self.refused()
        self.assertIn("cannot write", completed.stderr)
        self.assertEqual(self.box.read(self.box.settings), original)
        self.assertEqual(self.box.leftovers(), [])

    def test_dry_run_prints_the_diff_and_changes_nothing(self):
        original = wiring.render(USER_SETTINGS)
        self.box.write(self.box.settings, original)
        completed = self.install_ok("--dry-run")
        self.assertIn("--- " + self.box.settings, completed.stdout)
        added = [line for line in completed.stdout.splitlines() if line.startswith("+ ")]
        self.assertTrue(any("scripts/peers.py" in line for line in added), completed.stdout)
        self.assertEqual(self.box.read(self.box.settings), original)
        self.assertEqual(self.box.leftovers(), [])

    def test_dry_run_creates_no_file(self):
        self.install_ok("--dry-run")
        self.assertFalse(os.path.exists(self.box.settings))

    def test_scope_project_and_local_write_into_the_checkouts_claude_folder(self):
        repo = self.box.make_repo()
        subdir = os.path.join(repo, "sub")
        os.makedirs(subdir)
        self.install_ok("--scope", "project", cwd=subdir)
        self.install_ok("--scope", "local", cwd=subdir)
        real = os.path.realpath(repo)
        self.assertEqual(len(commands(json.loads(self.box.read(os.path.join(real, ".claude", "settings.json"))))), len(wiring.CLAUDE_HOOKS))
        self.assertEqual(len(commands(json.loads(self.box.read(
            os.path.join(real, ".claude", "settings.local.json"))))), len(wiring.CLAUDE_HOOKS))
        self.assertFalse(os.path.exists(self.box.settings))

    def test_scope_project_outside_a_checkout_is_refused(self):
        completed = self.refused("--scope", "project", cwd=self.box.home)
        self.assertIn("not inside a git checkout", completed.stderr)

    def test_codex_wires_cold_start_and_the_guard_and_asks_for_trust(self):
        completed = self.install_ok("--codex")
        wired = json.loads(self.box.read(os.path.join(self.box.codex, "hooks.json")))
        self.assertEqual(list(wired["hooks"]), ["SessionStart", "PreToolUse"])
        self.assertTrue(commands(wired)[0].endswith("cold_start.py' --host codex"))
        self.assertTrue(commands(wired)[1].endswith("git_index_guard.py' --host codex"))
        self.assertIn("/hooks", completed.stdout)
        self.assertFalse(os.path.exists(self.box.settings))

    def test_codex_project_scope_writes_the_checkouts_codex_folder(self):
        repo = self.box.make_repo()
        self.install_ok("--codex", "--scope", "project", cwd=repo)
        self.assertTrue(os.path.isfile(os.path.join(os.path.realpath(repo), ".codex", "hooks.json")))

    def test_missing_script_is_not_wired_and_the_output_says_why(self):
        os.remove(os.path.join(self.box.checkout, "scripts", "memory_delta.py"))
        completed = self.install_ok()
        self.assertNotIn("UserPromptSubmit", json.loads(self.box.read(self.box.settings))["hooks"])
        self.assertIn("skipped", completed.stdout)

    def test_rules_are_placed_reported_and_removed(self):
        self.install_ok("--rules")
        placed = os.path.join(self.box.claude, "rules", "peerhooks.md")
        self.assertEqual(self.box.read(placed), self.box.read(os.path.join(REPO, "rules", "peerhooks.md")))
        self.assertIn("rule file %s is in place" % placed, self.box.run("--check").stdout)
        self.install_ok("--uninstall")
        self.assertFalse(os.path.exists(os.path.dirname(placed)))

    def test_without_rules_nothing_is_written_to_the_rules_folder(self):
        self.install_ok()
        self.assertFalse(os.path.exists(os.path.join(self.box.claude, "rules")))

    def test_usage_error_exits_1_not_2(self):
        completed = self.refused("--scope", "everywhere")
        self.assertIn("usage:", completed.stderr)

    def test_check_passes_after_a_clean_install(self):
        self.install_ok()
        completed = self.box.run("--check")
        self.assertEqual(completed.returncode, 0, completed.stdout)
        self.assertIn("All well", completed.stdout)

    def test_check_finds_a_double_registration_across_user_and_project_settings(self):
        repo = self.box.make_repo()
        self.install_ok(cwd=repo)
        moved = self.box.copy_checkout("second copy")
        self.install_ok("--scope", "project", checkout=moved, cwd=repo)
        completed = self.box.run("--check", cwd=repo)
        self.assertEqual(completed.returncode, 1)
        self.assertIn("peers.py is registered 2 times", completed.stdout)
        self.assertIn("user settings " + self.box.settings, completed.stdout)
        self.assertIn("project settings " + os.path.join(os.path.realpath(repo), ".claude", "settings.json"),
                      completed.stdout)

    def test_check_finds_a_plugin_copy_next_to_a_settings_install(self):
        self.install_ok()
        plugin_root = os.path.join(self.box.claude, "plugins", "cache", "local", "peerhooks", "0.1.0")
        shutil.copytree(os.path.join(PLUGIN, "hooks"), os.path.join(plugin_root, "hooks"))
        self.box.write(os.path.join(self.box.claude, "plugins", "installed_plugins.json"), json.dumps(
            {"version": 2, "plugins": {"peerhooks@local": [{"scope": "user", "installPath": plugin_root,
                                                            "version": "0.1.0"}]}}))
        completed = self.box.run("--check")
        self.assertEqual(completed.returncode, 1)
        self.assertIn("plugin peerhooks@local at " + plugin_root, completed.stdout)
        self.assertIn("git_index_guard.py is registered 2 times", completed.stdout)

    def test_check_does_not_count_a_disabled_plugin(self):
        self.install_ok()
        plugin_root = os.path.join(self.box.claude, "plugins", "cache", "local", "peerhooks", "0.1.0")
        shutil.copytree(os.path.join(PLUGIN, "hooks"), os.path.join(plugin_root, "hooks"))
        self.box.write(os.path.join(self.box.claude, "plugins", "installed_plugins.json"), json.dumps(
            {"version": 2, "plugins": {"peerhooks@local": [{"scope": "user", "installPath": plugin_root}]}}))
        settings = json.loads(self.box.read(self.box.settings))
        settings["enabledPlugins"] = {"peerhooks@local": False}
        self.box.write(self.box.settings, wiring.render(settings))
        completed = self.box.run("--check")
        self.assertEqual(completed.returncode, 0, completed.stdout)
        self.assertIn("installed but disabled", completed.stdout)

    # -- the plugin and install.py know each other --------------------------------------------------

    def plugin_copy(self, plugin_id="peerhooks@local", scope="user", project=None, default_enabled=None):
        """An installed copy of this repository's plugin, recorded as Claude Code records one."""
        plugin_root = os.path.join(self.box.claude, "plugins", "cache", "local", "peerhooks", "0.1.0")
        shutil.copytree(os.path.join(PLUGIN, "hooks"), os.path.join(plugin_root, "hooks"))
        shutil.copytree(os.path.join(self.box.checkout, "scripts"), os.path.join(plugin_root, "scripts"),
                        copy_function=os.link)
        manifest = json.loads(self.box.read(os.path.join(PLUGIN, ".claude-plugin", "plugin.json")))
        if default_enabled is not None:
            manifest["defaultEnabled"] = default_enabled
        self.box.write(os.path.join(plugin_root, ".claude-plugin", "plugin.json"), json.dumps(manifest))
        record = {"scope": scope, "installPath": plugin_root, "version": "0.1.0"}
        if project:
            record["projectPath"] = project
        self.box.write(os.path.join(self.box.claude, "plugins", "installed_plugins.json"),
                       json.dumps({"version": 2, "plugins": {plugin_id: [record]}}))
        return plugin_root

    def set_enabled(self, path, value, plugin_id="peerhooks@local"):
        settings = json.loads(self.box.read(path)) if os.path.exists(path) else {}
        settings["enabledPlugins"] = {plugin_id: value}
        self.box.write(path, wiring.render(settings))

    def test_install_beside_an_enabled_plugin_is_refused_and_says_how_to_choose(self):
        plugin_root = self.plugin_copy()
        for args in ((), ("--dry-run",), ("--scope", "project")):
            with self.subTest(args=args):
                repo = self.box.make_repo("repo-%d" % len(args))
                completed = self.refused(*args, cwd=repo)
                self.assertIn("the peerhooks plugin already runs", completed.stderr)
                self.assertIn("plugin peerhooks@local at " + plugin_root, completed.stderr)
                self.assertIn("nothing was changed", completed.stderr)
                self.assertIn("`claude plugin disable peerhooks@local`", completed.stderr)
                self.assertFalse(os.path.exists(self.box.settings))
                self.assertFalse(os.path.exists(os.path.join(repo, ".claude")))
        self.set_enabled(self.box.settings, True)
        before = self.box.read(self.box.settings)
        self.assertIn("enabled in user settings", self.refused().stderr)
        self.assertEqual(self.box.read(self.box.settings), before)

    def test_install_proceeds_when_the_plugin_is_disabled_or_off_by_default_or_for_another_project(self):
        cases = (("disabled in the user's settings", {}, False),
                 ("off by default", {"default_enabled": False}, None),
                 ("installed for another project", {"scope": "project", "project": "/elsewhere"}, None))
        for name, copy, state in cases:
            with self.subTest(name):
                shutil.rmtree(os.path.join(self.box.claude, "plugins"), ignore_errors=True)
                if os.path.exists(self.box.settings):
                    os.remove(self.box.settings)
                self.plugin_copy(**copy)
                if state is not None:
                    self.set_enabled(self.box.settings, state)
                self.install_ok()
                completed = self.box.run("--check")
                self.assertEqual(completed.returncode, 0, completed.stdout)
                self.assertIn("note   the hooks run from user settings " + self.box.settings, completed.stdout)

    def test_a_project_scope_plugin_counts_in_its_own_checkout(self):
        repo = os.path.realpath(self.box.make_repo())
        self.plugin_copy(scope="project", project=repo)
        self.refused(cwd=repo)
        self.install_ok(cwd=self.box.root)

    def test_check_says_the_plugin_runs_the_hooks(self):
        plugin_root = self.plugin_copy()
        completed = self.box.run("--check")
        self.assertEqual(completed.returncode, 0, completed.stdout)
        self.assertIn("note   the hooks run from plugin peerhooks@local at %s\n" % plugin_root, completed.stdout)

    def test_plugin_commands_run_as_claude_code_runs_them(self):
        """sh -c "<command>" with CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA set, as Claude Code runs a
        plugin's hook: from the installed copy, and from the repository's plugin/ (a marketplace added
        from a local folder runs the plugin from there)."""
        with open(os.path.join(PLUGIN, "hooks", "hooks.json"), encoding="utf-8") as handle:
            hooks = json.load(handle)["hooks"]
        repo = self.box.make_repo()
        for plugin_root in (self.plugin_copy(), PLUGIN):
            data = tempfile.mkdtemp(prefix="data-", dir=self.box.root)
            env = dict(self.box.env, CLAUDE_PLUGIN_ROOT=plugin_root, CLAUDE_PLUGIN_DATA=data)
            ran = 0
            for event, groups in hooks.items():
                for group in groups:
                    for handler in group["hooks"]:
                        payload = dict(PAYLOADS[event], session_id="0" * 8, cwd=repo, transcript_path="")
                        completed = subprocess.run(["sh", "-c", handler["command"]], cwd=repo, env=env,
                                                   input=json.dumps(payload) + "\n", universal_newlines=True,
                                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
                        self.assertEqual(completed.returncode, 0, "%s: %s" % (handler["command"], completed.stderr))
                        self.assertNotIn("the hook did not run", completed.stderr)
                        ran += 1
            self.assertEqual(ran, len(wiring.CLAUDE_HOOKS))
            with open(os.path.join(data, "python"), encoding="utf-8") as handle:
                remembered = handle.read().strip()
            self.assertTrue(os.path.isfile(remembered), remembered)

    def test_check_says_when_the_plugins_launcher_finds_no_python(self):
        plugin_root = self.plugin_copy()
        tools = os.path.join(self.box.root, "tools")  # sh and git, and no Python
        os.makedirs(tools)
        for tool in ("sh", "git"):
            os.symlink(shutil.which(tool), os.path.join(tools, tool))
        self.box.env["PATH"] = tools
        completed = self.box.run("--check")
        self.assertEqual(completed.returncode, 1, completed.stdout)
        self.assertIn("the plugin's launcher %s does not run: peerhooks: no Python 3.9 or newer on PATH"
                      % os.path.join(plugin_root, "hooks", "python.sh"), completed.stdout)

    def test_check_of_plugin_and_settings_says_which_both_run_and_how_to_keep_one(self):
        self.install_ok()
        self.plugin_copy()
        completed = self.box.run("--check")
        self.assertEqual(completed.returncode, 1)
        self.assertIn("peers.py is registered 2 times", completed.stdout)
        note = [line for line in completed.stdout.splitlines() if "run from both" in line]
        self.assertEqual(len(note), 1, completed.stdout)
        installer = shlex.quote(os.path.join(self.box.checkout, "install.py"))
        self.assertIn("`python3 %s --uninstall` leaves the plugin's" % installer, note[0])
        self.assertIn("`claude plugin disable peerhooks@local` leaves the settings'", note[0])

    def test_uninstall_says_when_the_plugin_still_runs_the_hooks(self):
        self.install_ok()
        self.plugin_copy()
        completed = self.install_ok("--uninstall")
        self.assertIn("Removed %s" % self.box.settings, completed.stdout)
        self.assertIn("The peerhooks plugin still runs the hooks: plugin peerhooks@local", completed.stdout)
        self.assertIn("`claude plugin disable peerhooks@local` stops it", completed.stdout)
        only_plugin = self.install_ok("--uninstall")
        self.assertIn("nothing to remove", only_plugin.stdout)
        self.assertIn("The peerhooks plugin still runs the hooks", only_plugin.stdout)
        self.set_enabled(self.box.settings, False)
        self.assertNotIn("still runs", self.install_ok("--uninstall").stdout)

    def test_check_passes_on_a_fresh_home_where_no_session_has_started(self):
        """Before Claude Code's first session there is no sessions/ folder: normal, so a note only."""
        os.rmdir(os.path.join(self.box.claude, "sessions"))
        os.rmdir(self.box.claude)
        self.install_ok()
        completed = self.box.run("--check")
        self.assertEqual(completed.returncode, 0, completed.stdout)
        self.assertIn("note   %s does not exist yet" % os.path.join(self.box.claude, "sessions"), completed.stdout)

    def test_check_finds_a_missing_script_and_a_syntax_error(self):
        self.install_ok()
        os.remove(os.path.join(self.box.checkout, "scripts", "peers.py"))
        self.box.write(os.path.join(self.box.checkout, "scripts", "cold_start.py"), "def broken(:\n")
        completed = self.box.run("--check")
        self.assertEqual(completed.returncode, 1)
        self.assertIn("scripts/peers.py does not exist", completed.stdout)
        self.assertIn("scripts/cold_start.py does not compile: line 1", completed.stdout)

    # -- keeping the user's file as it was -----------------------------------------------------------

    def write_bytes(self, path, data):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)

    def read_bytes(self, path):
        with open(path, "rb") as handle:
            return handle.read()

    def test_install_then_uninstall_gives_back_hand_formatted_files_byte_for_byte(self):
        cases = dict(HAND_FORMATTED, **{"the user's own hooks": HAND_FORMATTED_WITH_HOOKS})
        for name, original in cases.items():
            with self.subTest(name):
                self.write_bytes(self.box.settings, original)
                self.install_ok()
                installed = self.read_bytes(self.box.settings)
                self.assertEqual(len([c for c in commands(json.loads(installed.decode("utf-8-sig")))
                                      if wiring.script_of(c)]), len(wiring.CLAUDE_HOOKS))
                self.install_ok("--uninstall")
                self.assertEqual(self.read_bytes(self.box.settings), original)

    def test_install_writes_in_the_files_style(self):
        self.write_bytes(self.box.settings, HAND_FORMATTED["CRLF"])
        self.install_ok()
        text = self.read_bytes(self.box.settings).decode()
        self.assertNotIn("\n", text.replace("\r\n", ""))
        self.assertTrue(text.startswith(HAND_FORMATTED["CRLF"].decode()[:-5]))  # the user's part untouched
        self.write_bytes(self.box.settings, HAND_FORMATTED["tabs"])
        self.install_ok()
        self.assertIn('\n\t"hooks": {\n\t\t"SessionStart": [\n', self.box.read(self.box.settings))

    def test_uninstall_after_the_user_edited_removes_only_our_entries_in_the_files_style(self):
        original = HAND_FORMATTED["four spaces, escapes, no final newline"]
        self.write_bytes(self.box.settings, original)
        self.install_ok()
        edited = self.read_bytes(self.box.settings).replace(b'"model": "opus"', b'"model": "s\\u00f6nnet"')
        self.write_bytes(self.box.settings, edited)
        completed = self.install_ok("--uninstall")
        self.assertEqual(self.read_bytes(self.box.settings),
                         original.replace(b'"model": "opus"', b'"model": "s\\u00f6nnet"'))
        self.assertNotIn("bytes from before", completed.stdout)

    def test_the_users_own_hook_events_stay_byte_for_byte_through_install_and_an_edited_uninstall(self):
        self.write_bytes(self.box.settings, HAND_FORMATTED_WITH_HOOKS)
        self.install_ok()
        installed = self.read_bytes(self.box.settings)
        self.assertIn(b'"Stop": [{"hooks": [{"type": "command",\n        "command": "say d\\u00f6ne"}]}]', installed)
        self.write_bytes(self.box.settings, installed.replace(b'"opus"', b'"sonnet"'))
        self.install_ok("--uninstall")
        self.assertEqual(self.read_bytes(self.box.settings), HAND_FORMATTED_WITH_HOOKS.replace(b'"opus"', b'"sonnet"'))

    def test_a_users_one_line_hook_entries_keep_their_bytes_through_install_and_an_edited_uninstall(self):
        self.write_bytes(self.box.settings, ONE_LINE_ENTRIES)
        self.install_ok()
        installed = self.read_bytes(self.box.settings)
        for part in ONE_LINE_USER_PARTS:
            self.assertIn(part, installed)
        settings = json.loads(installed)
        self.assertEqual(len([c for c in commands(settings) if wiring.script_of(c)]), len(wiring.CLAUDE_HOOKS))
        self.assertNotIn("/old/scripts/", installed.decode())  # the old copy of ours left the user's group
        self.write_bytes(self.box.settings, installed.replace(b'"opus"', b'"sonnet"'))  # edited: no record applies
        completed = self.install_ok("--uninstall")
        self.assertNotIn("bytes from before", completed.stdout)
        expected = ONE_LINE_ENTRIES.replace(b'"opus"', b'"sonnet"').replace(
            b', {"type": "command", "command": "python3 /old/scripts/memory_delta.py"}', b"")
        self.assertEqual(self.read_bytes(self.box.settings), expected)

    def test_the_agent_key_paragraph_is_printed_only_when_the_wiring_changed(self):
        self.assertIn("LI_PLUS_AGENT_KEY", self.install_ok().stdout)
        self.assertNotIn("LI_PLUS_AGENT_KEY", self.install_ok().stdout)
        self.assertNotIn("LI_PLUS_AGENT_KEY", self.install_ok("--dry-run").stdout)
        moved = self.box.copy_checkout("moved here")
        self.assertIn("LI_PLUS_AGENT_KEY", self.install_ok(checkout=moved).stdout)

    def test_a_symlinked_settings_file_is_written_through_and_stays_a_link(self):
        dotfiles = os.path.join(self.box.root, "dotfiles")
        target = os.path.join(dotfiles, "claude-settings.json")
        self.write_bytes(target, HAND_FORMATTED["tabs"])
        os.symlink(target, self.box.settings)
        completed = self.install_ok()
        self.assertTrue(os.path.islink(self.box.settings))
        self.assertIn("through the link", completed.stdout)
        self.assertEqual(len(commands(json.loads(self.box.read(target)))), len(wiring.CLAUDE_HOOKS))
        self.install_ok("--uninstall")
        self.assertTrue(os.path.islink(self.box.settings))
        self.assertEqual(os.readlink(self.box.settings), target)
        self.assertEqual(self.read_bytes(target), HAND_FORMATTED["tabs"])
        self.assertEqual(sorted(os.listdir(dotfiles)), ["claude-settings.json"])  # no backup, temp or lock there

    def test_a_dangling_symlink_is_refused_untouched(self):
        os.symlink(os.path.join(self.box.root, "gone.json"), self.box.settings)
        completed = self.refused()
        self.assertIn("which does not exist", completed.stderr)
        self.assertTrue(os.path.islink(self.box.settings))
        self.assertFalse(os.path.exists(os.path.join(self.box.root, "gone.json")))

    def test_an_edit_saved_while_install_runs_is_kept(self):
        """In process: the user's editor saves the file after install.py read it, before it replaces it."""
        self.write_bytes(self.box.settings, HAND_FORMATTED["tabs"])
        real_parse = hooksfile.parse
        calls = []

        def parse_then_user_saves(path, data):
            calls.append(data)
            if len(calls) == 1:
                self.write_bytes(self.box.settings, data.replace(b'"opus"', b'"sonnet"'))
            return real_parse(path, data)

        out = io.StringIO()
        with mock.patch.object(hooksfile, "parse", parse_then_user_saves):
            code = install.main([], environ=self.box.env, cwd=self.box.root, out=out, now=NOW)
        self.assertEqual(code, 0, out.getvalue())
        self.assertEqual(len(calls), 2)
        settings = json.loads(self.box.read(self.box.settings))
        self.assertEqual(settings["model"], "sonnet")
        self.assertEqual(len(commands(settings)), len(wiring.CLAUDE_HOOKS))

    def test_backups_stay_bounded_and_the_output_says_where(self):
        self.write_bytes(self.box.settings, HAND_FORMATTED["tabs"])
        for _ in range(5):
            self.install_ok()
            completed = self.install_ok("--uninstall")
        folder = os.path.join(self.box.claude, install.BACKUPS)
        self.assertIn("kept in %s" % folder, completed.stdout)
        self.assertEqual(len(self.box.backups()), userfile.KEEP_BACKUPS)
        self.assertEqual(self.box.leftovers(), ["peerhooks"])  # the backup folder; nothing beside settings.json
        for name in os.listdir(folder):  # settings can hold API keys under "env"
            self.assertEqual(os.stat(os.path.join(folder, name)).st_mode & 0o777, 0o600, name)
        self.assertIn("keeps backups of the files it changed in %s" % folder, self.box.run("--check").stdout)

    def test_local_scope_install_and_uninstall_leave_the_checkout_clean(self):
        repo = self.box.make_repo()
        self.install_ok("--scope", "local", cwd=repo)
        self.assertTrue(os.path.isfile(os.path.join(repo, ".claude", "settings.local.json")))
        self.install_ok("--scope", "local", "--uninstall", cwd=repo)
        status = subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=repo, stdout=subprocess.PIPE,
                                universal_newlines=True, check=True).stdout
        self.assertEqual(status, "")
        self.assertFalse(os.path.exists(os.path.join(repo, ".claude")))

    def test_local_scope_uninstall_keeps_a_claude_folder_the_user_had(self):
        repo = self.box.make_repo()
        self.box.write(os.path.join(repo, ".claude", "settings.json"), '{"model": "opus"}\n')
        self.install_ok("--scope", "local", cwd=repo)
        self.install_ok("--scope", "local", "--uninstall", cwd=repo)
        self.assertEqual(os.listdir(os.path.join(repo, ".claude")), ["settings.json"])

    # -- what an uninstall leaves, and --purge --------------------------------------------------------

    def start_session(self, folder, checkout=None):
        """A session start in folder, as Claude Code runs the cold-start hook: it writes its state."""
        payload = dict(PAYLOADS["SessionStart"], session_id="1" * 8, cwd=folder, transcript_path="")
        completed = subprocess.run([sys.executable, "-S", os.path.join(checkout or self.box.checkout, "scripts",
                                                                        "cold_start.py")],
                                   cwd=folder, env=self.box.env, input=json.dumps(payload) + "\n",
                                   universal_newlines=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        self.assertEqual(completed.returncode, 0, completed.stderr)
        state = os.path.join(os.path.realpath(folder), ".claude", "state")
        self.assertTrue(os.path.isdir(state), "the cold start wrote no state in %s" % folder)
        return state

    def test_uninstall_says_what_stays_and_how_to_remove_it(self):
        self.install_ok()
        repo = self.box.make_repo()
        state = self.start_session(repo)
        completed = self.install_ok("--uninstall", cwd=repo)
        self.assertIn("What stays: %s%s (" % (os.path.join(self.box.claude, "peerhooks"), os.sep), completed.stdout)
        self.assertIn("the cold-start state in %s%s" % (state, os.sep), completed.stdout)
        self.assertIn("--uninstall --purge` removes them", completed.stdout)
        self.assertTrue(os.listdir(state))  # said, not done

    def test_uninstall_purge_removes_peerhooks_state_and_nothing_else(self):
        self.install_ok()
        repo = self.box.make_repo()
        state = self.start_session(repo)
        elsewhere = self.box.make_repo("elsewhere")  # known to Claude Code only by a transcript's cwd
        other_state = self.start_session(elsewhere)
        self.box.write(os.path.join(self.box.claude, "projects", "-elsewhere", "s.jsonl"),
                       json.dumps({"type": "user", "cwd": os.path.realpath(elsewhere)}) + "\n")
        self.box.write(os.path.join(self.box.claude, "history.jsonl"),  # and repo by a prompt typed there
                       json.dumps({"display": "hi", "timestamp": 1, "project": os.path.realpath(repo)}) + "\n")
        self.box.write(os.path.join(state, "last-cold-start-emit.json.corrupt-20261201T020000Z"), "torn")
        self.box.write(os.path.join(state, ".cold-start-inputs.txt.123.0a1b2c3d.tmp"), "half")
        self.box.write(os.path.join(state, "notes.md"), "the user's own")  # not ours: stays
        self.box.write(os.path.join(other_state, ".gitignore"), "*.log\n")  # the user's words: stays
        home_state = os.path.join(self.box.claude, "peerhooks")
        self.box.write(os.path.join(home_state, "roster", "s.json"), "{}")
        completed = self.install_ok("--uninstall", "--purge", cwd=self.box.root)
        self.assertIn("Purged peerhooks' state:", completed.stdout)
        self.assertIn("removed %s%s (" % (home_state, os.sep), completed.stdout)
        self.assertFalse(os.path.exists(home_state))
        self.assertEqual(os.listdir(state), ["notes.md"])
        self.assertIn("removed .cold-start-inputs.txt.123.0a1b2c3d.tmp, .gitignore, cold-start-inputs.txt, "
                      "last-cold-start-emit.json, last-cold-start-emit.json.corrupt-20261201T020000Z, "
                      "last-cold-start-emit.json.lock from %s%s\n" % (state, os.sep), completed.stdout)
        self.assertEqual(os.listdir(other_state), [".gitignore"])
        self.assertEqual(sorted(os.listdir(self.box.claude)), ["history.jsonl", "projects", "sessions"])
        self.assertEqual(self.install_ok("--uninstall", "--purge").stdout.splitlines()[-1],
                         "No state of peerhooks' is left to purge.")

    def test_a_purged_workspace_is_as_clean_as_before(self):
        repo = self.box.make_repo()
        self.install_ok("--scope", "local", cwd=repo)
        self.start_session(repo)
        self.install_ok("--scope", "local", "--uninstall", "--purge", cwd=repo)
        self.assertEqual(os.listdir(repo), [".git"])

    def test_purge_follows_no_link_and_removes_no_link(self):
        outside = os.path.join(self.box.root, "outside")
        self.box.write(os.path.join(outside, "keep.json"), "{}")
        os.symlink(outside, os.path.join(self.box.claude, "peerhooks"))  # a peerhooks folder that is a link
        repo = self.box.make_repo()
        shared = os.path.join(self.box.root, "shared-claude")
        self.box.write(os.path.join(shared, "state", "last-cold-start-emit.json"), "{}")
        os.symlink(shared, os.path.join(repo, ".claude"))  # a workspace's .claude that is a link
        completed = self.install_ok("--uninstall", "--purge", cwd=repo)
        self.assertIn("left    %s (a symlink" % os.path.join(self.box.claude, "peerhooks"), completed.stdout)
        self.assertIn("left    %s (a symlink or under one" % os.path.join(repo, ".claude", "state"), completed.stdout)
        self.assertEqual(os.listdir(outside), ["keep.json"])
        self.assertEqual(os.listdir(os.path.join(shared, "state")), ["last-cold-start-emit.json"])
        home_state = os.path.join(self.box.root, "home2", "peerhooks")  # a link inside our folder stays
        self.box.write(os.path.join(home_state, "names.json"), "{}")
        os.symlink(os.path.join(outside, "keep.json"), os.path.join(home_state, "link.json"))
        self.box.env["CLAUDE_CONFIG_DIR"] = os.path.dirname(home_state)
        completed = self.install_ok("--uninstall", "--purge", cwd=self.box.root)
        self.assertEqual(os.listdir(home_state), ["link.json"])
        self.assertIn("left    %s (a symlink" % os.path.join(home_state, "link.json"), completed.stdout)
        self.assertEqual(os.listdir(outside), ["keep.json"])

    def test_purge_removes_nothing_while_another_install_still_runs_the_hooks(self):
        repo = self.box.make_repo()
        self.install_ok(cwd=repo)
        self.install_ok("--scope", "project", cwd=repo)
        state = self.start_session(repo)
        before = sorted(os.listdir(state))
        completed = self.refused("--uninstall", "--purge", cwd=self.box.root)  # the project is not in sight here
        project_settings = os.path.join(os.path.realpath(repo), ".claude", "settings.json")
        self.assertIn("--purge removed nothing: the hooks still run from %s" % project_settings, completed.stderr)
        self.assertFalse(os.path.exists(self.box.settings))  # the uninstall itself was done
        self.assertEqual(sorted(os.listdir(state)), before)
        self.assertTrue(os.path.isdir(os.path.join(self.box.claude, "peerhooks")))
        self.assertNotIn("What stays", self.install_ok("--uninstall", cwd=repo).stdout)  # in use: nothing to say

    def test_the_plugins_state_is_purged_once_the_plugin_is_uninstalled(self):
        self.plugin_copy()
        repo = self.box.make_repo()
        state = self.start_session(repo)
        completed = self.refused("--uninstall", "--purge", cwd=repo)
        self.assertIn("the hooks still run from plugin peerhooks@local", completed.stderr)
        self.assertTrue(os.listdir(state))
        os.remove(os.path.join(self.box.claude, "plugins", "installed_plugins.json"))  # `claude plugin uninstall`
        shutil.rmtree(os.path.join(self.box.claude, "plugins", "cache"))
        self.install_ok("--uninstall", "--purge", cwd=repo)
        self.assertFalse(os.path.exists(os.path.join(repo, ".claude")))

    def test_purge_dry_run_says_what_it_would_remove_and_removes_nothing(self):
        self.install_ok()
        repo = self.box.make_repo()
        state = self.start_session(repo)
        before = sorted(os.listdir(state))
        completed = self.install_ok("--uninstall", "--purge", "--dry-run", cwd=repo)
        self.assertIn("would remove %s%s (" % (os.path.join(self.box.claude, "peerhooks"), os.sep), completed.stdout)
        self.assertIn("from %s%s\n" % (state, os.sep), completed.stdout)
        self.assertEqual(sorted(os.listdir(state)), before)
        self.assertTrue(os.path.isfile(self.box.settings))

    def test_purge_goes_only_with_uninstall(self):
        self.assertIn("--purge goes with --uninstall", self.refused("--purge").stderr)

    # -- Codex -----------------------------------------------------------------------------------------

    def test_check_says_codex_hooks_are_untrusted_and_how_to_trust_them(self):
        self.install_ok("--codex")
        completed = self.box.run("--check")
        self.assertEqual(completed.returncode, 1, completed.stdout)
        hooks_file = os.path.join(self.box.codex, "hooks.json")
        self.assertIn("found  cold_start.py for SessionStart in Codex hooks %s (NOT trusted" % hooks_file,
                      completed.stdout)
        self.assertIn("%d Codex hooks are not trusted" % len(wiring.CODEX_HOOKS), completed.stdout)
        self.assertIn("/hooks and press t", completed.stdout)
        self.assertIn("--dangerously-bypass-hook-trust", completed.stdout)
        self.assertIn("only Codex", completed.stdout)

    def test_check_says_codex_ignores_project_hooks_in_an_untrusted_folder(self):
        repo = os.path.realpath(self.box.make_repo())
        self.install_ok("--codex", "--scope", "project", cwd=repo)
        completed = self.box.run("--check", cwd=repo)
        self.assertIn("Codex ignores %s until the folder %s is trusted" % (
            os.path.join(repo, ".codex", "hooks.json"), repo), completed.stdout)
        self.box.write(os.path.join(self.box.codex, "config.toml"),
                       '[projects."%s"]\ntrust_level = "trusted"\n' % repo)
        self.assertNotIn("Codex ignores", self.box.run("--check", cwd=repo).stdout)

    def _trust_installed_codex_hooks(self, change=lambda handler: handler):
        hooks_file = os.path.join(self.box.codex, "hooks.json")
        hooks = json.loads(self.box.read(hooks_file))["hooks"]
        self.box.write(os.path.join(self.box.codex, "config.toml"), "".join(
            '[hooks.state."%s:%s:%d:0"]\ntrusted_hash = "%s"\n\n' % (
                hooks_file, codextrust.snake_case(event), index,
                codextrust.trust_hash(event, group.get("matcher"), change(dict(group["hooks"][0]))))
            for event, groups in hooks.items() for index, group in enumerate(groups)))

    def test_check_sees_codex_trust_recorded_in_config_toml(self):
        self.install_ok("--codex")
        self._trust_installed_codex_hooks()
        completed = self.box.run("--check")
        self.assertEqual(completed.returncode, 0, completed.stdout)
        self.assertIn("(trusted)", completed.stdout)

    def test_check_says_a_hook_changed_since_it_was_trusted_is_skipped(self):
        self.install_ok("--codex")
        self._trust_installed_codex_hooks(lambda handler: dict(handler, command=handler["command"] + " --old"))
        completed = self.box.run("--check")
        self.assertNotEqual(completed.returncode, 0, completed.stdout)
        self.assertIn("(CHANGED since it was trusted: Codex skips it)", completed.stdout)

    def test_installed_commands_run_as_claude_code_runs_them(self):
        """End to end: sh -c "<command>" with the event's payload on stdin, as Claude Code does."""
        self.install_ok()
        settings = json.loads(self.box.read(self.box.settings))
        repo = self.box.make_repo()
        ran = 0
        for event, groups in settings["hooks"].items():
            for group in groups:
                for handler in group["hooks"]:
                    payload = dict(PAYLOADS[event], session_id="0" * 8, cwd=repo, transcript_path="")
                    completed = subprocess.run(["sh", "-c", handler["command"]], cwd=repo, env=self.box.env,
                                               input=json.dumps(payload) + "\n", universal_newlines=True,
                                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
                    self.assertEqual(completed.returncode, 0, "%s: %s" % (handler["command"], completed.stderr))
                    ran += 1
        self.assertEqual(ran, len(wiring.CLAUDE_HOOKS))



if __name__ == "__main__":
    unittest.main()
