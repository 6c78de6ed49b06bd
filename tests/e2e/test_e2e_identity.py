"""Who a session is, with the real Claude Code CLI (issue 18): a session is the chain of ids its
process had across /clear, and its subagents are parties of their own for the guard.

- After /clear in session A (which staged its file), session B's plain commit is still refused,
  naming A and the file, and B's SessionStart still lists A's file under `editing:` (before, A's
  earlier transcript stopped counting and B's commit took A's staged file).
- Two subagents of one session: the second one's `git add -A && git commit` is refused naming the
  first one's file, and nothing is committed.

Oracles as in test_e2e.py: the stub API's request log (what the model was shown) and git.
Runs on each driven Claude Code version (for_each_version); skips with the reason printed where
npm, tmux or the CLI are missing, except under CI=true.
"""
import json
import os
import subprocess
import unittest

from .claude_cli import wait_for
from .test_e2e import (HOOK_SCRIPTS, REPO, SandboxedEachTest, for_each_version, hook_output, make_checkout,
                       turn_context)

# peers.py shows up to 160 characters of a peer's prompt: markers are kept past them, so the stub
# never acts on a marker it reads in another session's SessionStart text (real-client.md).
PAD = "please take care of the following work for the orders export now, " * 3
SUBAGENT_TIMEOUT_S = 120


def setUpModule():
    missing = [name for name in HOOK_SCRIPTS if not os.path.exists(os.path.join(REPO, "scripts", name))]
    if missing:
        raise unittest.SkipTest("peerhooks is not complete yet (missing: %s)" % ", ".join(missing))


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), check=True, capture_output=True, text=True).stdout.strip()


def bash_results(bodies):
    """{command: (is_error, text)} of every Bash call whose result a request carried."""
    commands, results = {}, {}
    for body in bodies:
        for message in body.get("messages") or ():
            content = message.get("content")
            for block in content if isinstance(content, list) else ():
                if block.get("type") == "tool_use" and block.get("name") == "Bash":
                    commands[block["id"]] = block["input"]["command"]
                elif block.get("type") == "tool_result" and block.get("tool_use_id") in commands:
                    inner = block.get("content")
                    text = inner if isinstance(inner, str) else json.dumps(inner)
                    results[commands[block["tool_use_id"]]] = (bool(block.get("is_error")), text)
    return results


@for_each_version
class SessionIdentity(SandboxedEachTest):
    """A template: one TestCase per Claude Code version."""

    def test_after_clear_a_peers_commit_is_still_refused_and_peers_py_still_lists_the_files(self):
        repo = make_checkout(os.path.join(self.sandbox.root, "work", "shop"))
        first = self.sandbox.interactive(repo)
        target = os.path.join(repo, "src", "export.py")
        first.prompt(PAD + "[[write: %s <<<def export():\n    return []\n>>>]] [[bash: git add src/export.py]]" % target)
        self.assertEqual(git(repo, "diff", "--cached", "--name-only"), "src/export.py")
        first.clear()
        first.prompt(PAD + "nothing more to do after the clear")
        head = git(repo, "rev-parse", "HEAD")
        second = self.sandbox.interactive(repo)
        bodies = second.prompt(PAD + "[[bash: git commit -m 'from the second session']]")
        is_error, text = bash_results(bodies)["git commit -m 'from the second session'"]
        self.assertTrue(is_error, text)
        self.assertIn("%s has src/export.py staged" % first.name, text)
        self.assertEqual(git(repo, "rev-parse", "HEAD"), head)
        told = hook_output(turn_context(bodies), "SessionStart:startup")
        self.assertIn(first.name, told)
        self.assertIn("editing: src/export.py", told)

    def test_one_subagents_sweep_is_refused_naming_its_siblings_file(self):
        repo = make_checkout(os.path.join(self.sandbox.root, "work", "split"))
        session = self.sandbox.interactive(repo)
        sweep = "git add -A && git commit -m second-half"
        session.prompt(PAD + "[[agent: <<<[[bash: echo FIRST = 1 > src/first.py]]>>>]] "
                             "[[agent: <<<[[bash: sleep 3]] [[bash: echo SECOND = 2 > src/second.py]] "
                             "[[bash: %s]]>>>]]" % sweep)

        def refused():  # a background subagent (2.1.332) may still run after its parent's turn ends
            found = bash_results(self.sandbox.stub.message_bodies()).get(sweep)
            return found

        is_error, text = wait_for(refused, SUBAGENT_TIMEOUT_S, "the second subagent's sweep")
        self.assertTrue(is_error, text)
        self.assertIn("src/first.py", text)
        self.assertIn("git add -- src/second.py", text)
        self.assertEqual(git(repo, "log", "--format=%s"), "init")
        self.assertIn("?? src/first.py", git(repo, "status", "--porcelain", "--untracked-files=all"))


if __name__ == "__main__":
    unittest.main()
