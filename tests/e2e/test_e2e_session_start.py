"""What a new context is told at SessionStart, with the real Claude Code CLI (issue 14).

Oracles as in test_e2e.py: the stub API's request log (the model's view) and the files on disk.
- After /clear a session is not shown itself as "Last session", and cold start stays quiet (the
  cleared context is not an ended session, so the ended-sessions section does not change).
- A finished session is described once per start: by peers.py, not again by cold start.
- A CLAUDE.md edited mid-session: the client's own "modified" note and memory_delta's notice are
  not both given.
- The client puts MEMORY.md's text and the latest commits (gitStatus) in the context itself, and
  cold start's full emit does not repeat them.

Runs on each driven Claude Code version (for_each_version, as in test_e2e.py). Skips with the
reason printed where npm, tmux or the CLI are missing, except under CI=true.
"""
import os
import re
import subprocess
import time
import unittest

from .stub_api import request_text
from .test_e2e import HOOK_SCRIPTS, REPO, SandboxedEachTest, for_each_version, hook_output, make_checkout, turn_context

LAST_SESSION = "Last session in this checkout"


def setUpModule():
    missing = [name for name in HOOK_SCRIPTS if not os.path.exists(os.path.join(REPO, "scripts", name))]
    if missing:
        raise unittest.SkipTest("peerhooks is not complete yet (missing: %s)" % ", ".join(missing))


@for_each_version
class SessionStartTold(SandboxedEachTest):
    """A template: one TestCase per Claude Code version (SessionStartTold_2_1_332, ...); each test
    has its own sandbox, since each starts its sessions from nothing."""

    def checkout(self, name):
        return make_checkout(os.path.join(self.sandbox.root, "work", name))

    def test_after_clear_a_session_is_not_its_own_last_session_and_cold_start_is_quiet(self):
        repo = self.checkout("cleared")
        session = self.sandbox.interactive(repo)
        name = session.name
        first = turn_context(session.prompt("settle in before the clear please"))
        self.assertIn("Cold start: full orientation", hook_output(first, "SessionStart:startup"))
        session.clear()
        told = hook_output(turn_context(session.prompt("what is there to know after the clear")),
                           "SessionStart:clear")
        self.assertNotIn(LAST_SESSION, told)
        self.assertNotIn("%s ended" % name, told)
        self.assertNotIn("Cold start:", told)  # no section changed: cold start says nothing

    def test_cold_start_leaves_the_memory_index_and_commits_to_the_client_that_shows_them(self):
        repo = self.checkout("loaded")
        subprocess.run(["git", "-C", repo, "commit", "-q", "--allow-empty", "-m", "a commit the client lists"],
                       check=True)
        memory = os.path.join(self.sandbox.claude_home, "projects", re.sub(r"[^A-Za-z0-9]", "-", repo), "memory")
        os.makedirs(memory)
        with open(os.path.join(memory, "MEMORY.md"), "w") as handle:
            handle.write("- [Queue](queue.md) - billing jobs move to SQS in March\n")
        session = self.sandbox.interactive(repo)
        bodies = session.prompt("settle in and look around please")
        seen = request_text(bodies[0])
        self.assertIn("billing jobs move to SQS in March", seen)  # Claude Code's own: MEMORY.md's text
        self.assertIn("a commit the client lists", seen)  # and its gitStatus block's recent commits
        told = hook_output(turn_context(bodies), "SessionStart:startup")
        self.assertIn("Cold start: full orientation", told)
        self.assertNotIn("billing jobs move to SQS in March", told)
        self.assertNotIn("a commit the client lists", told)
        self.assertIn("Claude Code put them in your context itself", told)

    def test_a_finished_session_is_described_once_at_the_next_start(self):
        repo = self.checkout("once")
        opening = "write the importer for the ledger files today"
        first = self.sandbox.interactive(repo)
        first.prompt(opening)
        first.exit()
        second = self.sandbox.interactive(repo)
        told = hook_output(turn_context(second.prompt("what happened here before me")),
                           "SessionStart:startup")
        self.assertIn(LAST_SESSION, told)
        self.assertEqual(told.count(opening), 1, told)

    def test_a_rule_file_edited_mid_session_is_announced_once(self):
        repo = self.checkout("rules")
        rule_file = os.path.join(repo, "CLAUDE.md")
        with open(rule_file, "w") as handle:
            handle.write("# Rules\nKeep functions small.\n")
        session = self.sandbox.interactive(repo)
        session.prompt("read the rules and start")
        time.sleep(1.1)  # a new mtime second
        with open(rule_file, "a") as handle:
            handle.write("Never sweep the shared index.\n")
        context = turn_context(session.prompt("carry on with the next step"))
        ours = hook_output(context, "UserPromptSubmit")
        client_noticed = "Never sweep the shared index" in context.replace(ours, "")
        self.assertTrue("CLAUDE.md" in ours or client_noticed, context[-2000:])
        self.assertFalse("CLAUDE.md" in ours and client_noticed,
                         "told twice: by the client and by memory_delta")


if __name__ == "__main__":
    unittest.main()
