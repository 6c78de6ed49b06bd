"""peerhooks under the real Codex CLI 0.171 (issue 12, item 7).

Each scenario runs `codex exec` against the Responses API stub in a temporary CODEX_HOME where
`install.py --codex --scope user` wired the hooks, and asserts from the stub's request log (what the
model was shown: hook stdout as developer messages, a refusal as the exec_command output "Command
blocked by PreToolUse hook: ...") and from the files on disk (git's index, the cold-start state).

Hooks run with --dangerously-bypass-hook-trust, the per-run stand-in for trusting them in /hooks;
one scenario shows what happens without it. Live Claude Code peers are the fixture's (a real process
and a registry entry in the 2.1.197 shape): a Codex session reads the Claude registry, it never
writes one.

Skips with one line where the pinned Codex is not cached, except under CI=true.
"""
import json
import os
import subprocess
import sys
import time
import unittest

from .codex_cli import CodexSandbox, require_codex, trust_entries

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from fixtures.claudehome import ClaudeHome  # noqa: E402

CODEX = None
REFUSED = "Command blocked by PreToolUse hook: "
RULES_BANNER = "━━━ Rules ━━━"
# Records each payload's raw bytes, then stays silent, so it changes nothing the model sees.
RECORDING_HOOK = r'''
import json, os, sys
raw = sys.stdin.buffer.read()
with open(os.environ["PEERHOOKS_RECORD"], "a") as out:
    out.write(json.dumps({"argv": sys.argv[1:], "raw": raw.decode("utf-8", "replace")}) + "\n")
'''


def setUpModule():
    global CODEX
    CODEX = require_codex()


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), capture_output=True, text=True,
                          check=True).stdout


def make_checkout(path, files=None):
    os.makedirs(path)
    git(path, "init", "-q")
    git(path, "config", "user.name", "e2e")
    git(path, "config", "user.email", "e2e@example.invalid")
    for name, text in (files or {"README.md": "shared checkout\n"}).items():
        with open(os.path.join(path, name), "w", encoding="utf-8") as handle:
            handle.write(text)
        git(path, "add", name)
    git(path, "commit", "-q", "-m", "init")
    return path


class CodexSandboxed(unittest.TestCase):
    """A sandbox with peerhooks installed by `install.py --codex`, timed per class."""

    @classmethod
    def setUpClass(cls):
        cls.started = time.monotonic()
        cls.sandbox = CodexSandbox(CODEX)
        try:
            installed = cls.sandbox.install_peerhooks(REPO)
            if installed.returncode != 0:
                raise AssertionError("install.py --codex failed: %s%s" % (installed.stdout, installed.stderr))
        except BaseException:
            cls.sandbox.close()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.sandbox.close()
        print("\n%s: %.1f s" % (cls.__name__, time.monotonic() - cls.started), file=sys.stderr)

    def run_codex(self, cwd, prompt, **kwargs):
        run = self.sandbox.exec(cwd, prompt, **kwargs)
        self.assertEqual(run.returncode, 0, run.stderr[-2000:])
        self.assertTrue(run.bodies, "Codex sent no request to the stub: %s" % run.stderr[-2000:])
        return run


class InstallForCodex(CodexSandboxed):
    def test_install_wires_cold_start_and_guard_into_codex_home_hooks_json(self):
        with open(self.sandbox.hooks_file, encoding="utf-8") as handle:
            hooks = json.load(handle)["hooks"]
        commands = {event: [h["command"] for group in groups for h in group["hooks"]]
                    for event, groups in hooks.items()}
        self.assertTrue(any("cold_start.py" in c and "--host codex" in c for c in commands["SessionStart"]))
        self.assertTrue(any("git_index_guard.py" in c for c in commands["PreToolUse"]))

    def test_every_hook_is_registered_with_host_codex(self):
        # Needs the install helper's change (issue 12): the guard is wired without --host codex here.
        with open(self.sandbox.hooks_file, encoding="utf-8") as handle:
            hooks = json.load(handle)["hooks"]
        for groups in hooks.values():
            for group in groups:
                for handler in group["hooks"]:
                    self.assertIn("--host codex", handler["command"])


class ColdStartPerAgentKeyUnderCodex(CodexSandboxed):
    """Two agent keys each see an AGENTS.md change once; a third start sees nothing new; the state
    lives under .codex/state/, and CLAUDE.md, which Codex does not load, is not a rule file here."""

    def test_each_agent_key_sees_an_agents_md_change_once(self):
        repo = make_checkout(os.path.join(self.sandbox.root, "work", "keys"),
                             {"AGENTS.md": "# Rules\nKeep functions small.\n",
                              "CLAUDE.md": "# Claude's rules\n"})

        def start(key, token):
            return self.run_codex(repo, "%s start of %s" % (token, key),
                                  LI_PLUS_AGENT_KEY=key).hook_context()

        lin_first = start("lin", "first-lin")
        start("lay", "first-lay")
        self.assertIn("Cold start: full orientation", lin_first)
        self.assertIn(os.path.join(repo, "AGENTS.md"), lin_first)
        self.assertNotIn("CLAUDE.md", lin_first)

        with open(os.path.join(repo, "AGENTS.md"), "a", encoding="utf-8") as handle:
            handle.write("Never sweep the shared index.\n")
        lay_again = start("lay", "second-lay")
        lin_again = start("lin", "second-lin")
        lin_third = start("lin", "third-lin")
        for told in (lay_again, lin_again):
            self.assertIn("orientation material changed", told)
            rules = told[told.find(RULES_BANNER):].split("━━━", 3)[2]
            self.assertIn(os.path.join(repo, "AGENTS.md"), rules)
        self.assertNotIn("Cold start:", lin_third)  # nothing new: cold start says nothing
        self.assertNotIn(RULES_BANNER, lin_third)

        with open(os.path.join(repo, ".codex", "state", "last-cold-start-emit.json"),
                  encoding="utf-8") as handle:
            self.assertEqual(sorted(json.load(handle)["agents"]), ["lay", "lin"])
        self.assertFalse(os.path.exists(os.path.join(repo, ".claude", "state")))


class GuardBesideALiveClaudePeer(CodexSandboxed):
    """A Codex session in a checkout where a Claude Code session is live: the guard sees the peer
    in the Claude registry and refuses the sweep; the Claude side cannot see Codex at all."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.repo = make_checkout(os.path.join(cls.sandbox.root, "work", "shared"))
        os.makedirs(os.path.join(cls.repo, "src"))
        for name in ("a.py", "b.py"):
            with open(os.path.join(cls.repo, "src", name), "w", encoding="utf-8") as handle:
                handle.write("VALUE = 1\n")
        cls.claude = ClaudeHome(cls.sandbox.home)
        cls.peer = cls.claude.live_session(cls.repo, name="shared-7c",
                                           prompts=["write the parser in src/a.py"],
                                           edits=["src/a.py"])
        cls.sweep = cls.sandbox.exec(cls.repo, "stage everything [[bash: git add -A]]")

    @classmethod
    def tearDownClass(cls):
        cls.claude.close()
        super().tearDownClass()

    def test_git_add_all_is_refused_naming_the_claude_peer(self):
        self.assertEqual(self.sweep.returncode, 0, self.sweep.stderr[-2000:])
        [(command, output)] = self.sweep.tool_outputs()
        self.assertEqual(command, "git add -A")
        self.assertTrue(output.startswith(REFUSED), output)
        self.assertIn(self.peer.name, output)
        self.assertEqual(git(self.repo, "diff", "--cached", "--name-only"), "")

    def test_refusal_under_codex_does_not_point_at_sendmessage(self):
        # Needs the guard helper's change (issue 12): Codex has no SendMessage tool.
        [(_, output)] = self.sweep.tool_outputs()
        self.assertNotIn("SendMessage", output)

    def test_narrow_add_of_its_own_file_goes_through(self):
        run = self.run_codex(self.repo, "stage only mine [[bash: git add src/b.py]]")
        [(command, output)] = run.tool_outputs()
        self.assertFalse(output.startswith(REFUSED), output)
        self.assertIn("src/b.py", git(self.repo, "diff", "--cached", "--name-only"))

    def test_codex_session_leaves_no_entry_in_the_claude_registry(self):
        folder = os.path.join(self.sandbox.claude_home, "sessions")
        self.assertEqual(sorted(os.listdir(folder)), ["%d.json" % self.peer.pid])


class EditNoticeBesideALiveClaudePeer(CodexSandboxed):
    """Codex edits with apply_patch (offered to a model whose metadata names it): a patch updating a
    file a live Claude Code peer left uncommitted brings the notice as a developer message, and the
    patch still applies; a patch of files nobody else changed brings none."""

    PATCH_MODEL = ("-m", "gpt-5.5")

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.repo = make_checkout(os.path.join(cls.sandbox.root, "work", "patched"))
        os.makedirs(os.path.join(cls.repo, "src"))
        with open(os.path.join(cls.repo, "src", "export.py"), "w", encoding="utf-8") as handle:
            handle.write("EXPORT = 1\n")  # the peer's uncommitted file
        cls.claude = ClaudeHome(cls.sandbox.home)
        cls.peer = cls.claude.live_session(cls.repo, name="orders-5e", prompts=["write the CSV exporter for orders"],
                                           edits=["src/export.py"])

    @classmethod
    def tearDownClass(cls):
        cls.claude.close()
        super().tearDownClass()

    def patch(self, text):
        return self.run_codex(self.repo, "patch it [[patch: <<<%s>>>]]" % text, exec_args=self.PATCH_MODEL)

    def test_a_patch_over_the_peers_uncommitted_file_is_noticed_and_applied(self):
        run = self.patch("*** Begin Patch\n*** Update File: src/export.py\n@@\n-EXPORT = 1\n+EXPORT = 2\n*** End Patch")
        told = run.hook_context()
        self.assertIn("src/export.py holds uncommitted work of %s" % self.peer.name, told)
        self.assertIn("Coordinate with %s through the user." % self.peer.name, told)
        self.assertNotIn("SendMessage", told)
        with open(os.path.join(self.repo, "src", "export.py"), encoding="utf-8") as handle:
            self.assertEqual(handle.read(), "EXPORT = 2\n")

    def test_a_patch_of_a_new_file_brings_no_notice(self):
        run = self.patch("*** Begin Patch\n*** Add File: src/mine.py\n+MINE = 1\n*** End Patch")
        self.assertNotIn("holds uncommitted work", run.hook_context())
        self.assertTrue(os.path.exists(os.path.join(self.repo, "src", "mine.py")))


class GuardBesideARealClaudeCodeSession(unittest.TestCase):
    """The same refusal with a real interactive Claude Code session (tmux, Claude stub) live in the
    checkout, both clients under one HOME: Codex's guard sees it; Claude's registry never sees Codex."""

    @classmethod
    def setUpClass(cls):
        from .claude_cli import Sandbox, require_e2e_tools  # only this class needs Claude Code
        cls.started = time.monotonic()
        cls.claude = Sandbox(require_e2e_tools())
        cls.codex = None
        try:
            cls.repo = make_checkout(os.path.join(cls.claude.root, "work", "shared"))
            cls.peer = cls.claude.interactive(cls.repo)
            cls.codex = CodexSandbox(CODEX, home=cls.claude.home)
            installed = cls.codex.install_peerhooks(REPO)
            if installed.returncode != 0:
                raise AssertionError("install.py --codex failed: %s%s" % (installed.stdout, installed.stderr))
            # the Claude Code session's own unfinished file, as its transcript shows it
            cls.peer.prompt("write the new module and leave it for later, please "
                            "[[write: %s/new.py <<<NEW = 1\n>>>]]" % cls.repo)
            cls.sweep = cls.codex.exec(cls.repo, "stage everything [[bash: git add -A]]")
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        if cls.codex is not None:
            cls.codex.close()
        cls.claude.close()
        print("\n%s: %.1f s" % (cls.__name__, time.monotonic() - cls.started), file=sys.stderr)

    def test_git_add_all_is_refused_naming_the_live_claude_code_session(self):
        self.assertEqual(self.sweep.returncode, 0, self.sweep.stderr[-2000:])
        [(command, output)] = self.sweep.tool_outputs()
        self.assertTrue(output.startswith(REFUSED), output)
        self.assertIn(self.peer.name, output)
        self.assertEqual(git(self.repo, "diff", "--cached", "--name-only"), "")

    def test_claude_registry_holds_the_claude_session_only(self):
        self.assertEqual(list(self.claude.registry()), [self.peer.pid])


class PayloadWithoutTrailingNewline(CodexSandboxed):
    """Codex writes each payload without a newline and closes stdin; the hooks still answer."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.record = os.path.join(cls.sandbox.root, "payloads.jsonl")
        recorder = os.path.join(cls.sandbox.root, "record_hook.py")
        with open(recorder, "w", encoding="utf-8") as handle:
            handle.write(RECORDING_HOOK)
        with open(cls.sandbox.hooks_file, encoding="utf-8") as handle:
            wired = json.load(handle)
        for event, matcher in (("SessionStart", "startup"), ("PreToolUse", "Bash")):
            wired["hooks"][event].append({"matcher": matcher, "hooks": [{
                "type": "command", "command": "%s %s %s" % (sys.executable, recorder, event),
                "timeout": 10}]})
        with open(cls.sandbox.hooks_file, "w", encoding="utf-8") as handle:
            json.dump(wired, handle)

    def test_hooks_answer_payloads_that_end_without_a_newline(self):
        repo = make_checkout(os.path.join(self.sandbox.root, "work", "newline"))
        claude = ClaudeHome(self.sandbox.home)
        self.addCleanup(claude.close)
        unfinished = os.path.join(repo, "unfinished.py")
        with open(unfinished, "w", encoding="utf-8") as handle:
            handle.write("PEER = 1\n")
        claude.live_session(repo, name="newline-3b", edits=[unfinished])  # the peer's uncommitted file
        run = self.run_codex(repo, "sweep it [[bash: git add -A]]", PEERHOOKS_RECORD=self.record)
        with open(self.record, encoding="utf-8") as handle:
            payloads = [json.loads(line) for line in handle]
        self.assertEqual(sorted(p["argv"][0] for p in payloads), ["PreToolUse", "SessionStart"])
        for payload in payloads:
            self.assertFalse(payload["raw"].endswith("\n"), payload["raw"][-40:])
        self.assertIn("Cold start: full orientation", run.hook_context())
        [(_, output)] = run.tool_outputs()
        self.assertTrue(output.startswith(REFUSED), output)


# Answers a PreToolUse hook could give, by a marker in the command: why the guard refuses with exit 2
# and a non-empty stderr under Codex, and never with `ask`.
ANSWERING_HOOK = r'''
import json, sys
command = json.loads(sys.stdin.buffer.read())["tool_input"]["command"]
if "ask-me" in command:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                             "permissionDecision": "ask",
                                             "permissionDecisionReason": "ASK-REASON"}}))
elif "plain-stdout" in command:
    print("PLAIN-STDOUT-FROM-PRETOOLUSE")
elif "silent-exit-2" in command:
    sys.exit(2)
'''


class WhatCodexDoesWithPreToolUseAnswers(unittest.TestCase):
    """Codex 0.171's side of the protocol, shown with a hook of our own (not peerhooks'): `ask`
    runs the command, plain stdout is dropped, exit 2 without stderr does not block."""

    def test_ask_plain_stdout_and_a_silent_exit_2_all_let_the_command_run(self):
        started = time.monotonic()
        sandbox = CodexSandbox(CODEX)
        self.addCleanup(sandbox.close)
        hook = os.path.join(sandbox.root, "answering_hook.py")
        with open(hook, "w", encoding="utf-8") as handle:
            handle.write(ANSWERING_HOOK)
        with open(sandbox.hooks_file, "w", encoding="utf-8") as handle:
            json.dump({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "%s %s" % (sys.executable, hook), "timeout": 10}]}]}},
                handle)
        repo = make_checkout(os.path.join(sandbox.root, "work", "answers"))
        run = sandbox.exec(repo, "try [[bash: echo ask-me > asked.txt]] [[bash: echo plain-stdout]] "
                                 "[[bash: echo silent-exit-2 > exited.txt]]")
        self.assertEqual(run.returncode, 0, run.stderr[-2000:])
        outputs = run.tool_outputs()
        self.assertEqual(len(outputs), 3)
        for command, output in outputs:
            self.assertIn("Process exited with code 0", output, command)
        self.assertTrue(os.path.exists(os.path.join(repo, "asked.txt")))
        self.assertTrue(os.path.exists(os.path.join(repo, "exited.txt")))
        self.assertNotIn("PLAIN-STDOUT-FROM-PRETOOLUSE", json.dumps(run.bodies[-1]))
        self.assertNotIn("ASK-REASON", json.dumps(run.bodies[-1]))
        print("\n%s: %.1f s" % (type(self).__name__, time.monotonic() - started), file=sys.stderr)


class HookTrust(CodexSandboxed):
    """Codex runs a hook only when config.toml holds its trusted_hash (what /hooks writes) or the
    run passes --dangerously-bypass-hook-trust; otherwise `codex exec` skips it without a word."""

    def test_exec_without_trust_runs_no_hook_and_warns_about_none(self):
        repo = make_checkout(os.path.join(self.sandbox.root, "work", "plain"))
        run = self.run_codex(repo, "hello there", trust_hooks=False)
        self.assertNotIn("Cold start", run.hook_context())
        self.assertFalse(os.path.exists(os.path.join(repo, ".codex", "state")))
        said = (run.stderr + run.stdout).lower()
        self.assertNotIn("hook:", said)  # how Codex announces a hook it runs ("hook: SessionStart")
        self.assertNotIn("trust", said)

    def test_computed_trust_hashes_are_the_ones_codex_reports(self):
        repo = make_checkout(os.path.join(self.sandbox.root, "work", "hashes"))
        reported = {h["key"]: h["currentHash"] for h in self.sandbox.hooks_list(repo)}
        self.assertEqual(reported, trust_entries(self.sandbox.hooks_file))

    def test_hooks_trusted_in_config_toml_run_without_the_bypass_flag(self):
        repo = make_checkout(os.path.join(self.sandbox.root, "work", "trusted"))
        self.sandbox.trust_hooks()
        self.addCleanup(self.sandbox.untrust_hooks)
        self.assertEqual({h["trustStatus"] for h in self.sandbox.hooks_list(repo)}, {"trusted"})
        run = self.run_codex(repo, "hello after trusting", trust_hooks=False)
        self.assertIn("Cold start: full orientation", run.hook_context())


if __name__ == "__main__":
    unittest.main()
