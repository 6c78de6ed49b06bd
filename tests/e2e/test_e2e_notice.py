"""The edit notice and the roster with the real Claude Code CLI (issue 20), on each driven version.

A writes a file and leaves it uncommitted, and writes another that is then committed; B reads and
writes the first: the model's request right after that Write holds the notice naming A and the
file (PreToolUse additionalContext: the tool ran). B's second write of it, its own new file and
the file A committed bring none. C starts while B runs: B's next prompt is told C joined, the one
after is not; C exits: B's next prompt is told C ended.

Oracles as in test_e2e.py: the stub API's request log (what the model was shown) and the files.
Skips with the reason printed where npm, tmux or the CLI are missing, except under CI=true.
"""
import os
import subprocess
import unittest

from .stub_api import request_text
from .test_e2e import (HOOK_SCRIPTS, REPO, SandboxedEachTest, for_each_version, hook_output, make_checkout, turn_context,
                       turn_messages)

# peers.py and the notice quote up to 160 characters of a peer's prompt: markers are kept past
# them, so the stub never acts on a marker it reads in another session's text (real-client.md).
PAD = "please take care of the following work for the orders export now, " * 3
NOTICE_MARK = "hook additional context"  # "PreToolUse:Write hook additional context: <text>" (both versions)


def setUpModule():
    missing = [name for name in HOOK_SCRIPTS + ("edit_notice.py",)
               if not os.path.exists(os.path.join(REPO, "scripts", name))]
    if missing:
        raise unittest.SkipTest("peerhooks is not complete yet (missing: %s)" % ", ".join(missing))


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), check=True, capture_output=True, text=True).stdout


def texts_of(body, messages=None):
    """Every text the model was sent in a request (tool results and system reminders included), or
    in the messages given."""
    return request_text({"messages": body.get("messages") or [] if messages is None else messages})


def request_after_write(bodies, path):
    """The first request of a turn that carries the result of a Write to path: what the model read
    right after that write."""
    writes = set()
    for body in bodies:
        for message in body.get("messages") or ():
            for block in message.get("content") if isinstance(message.get("content"), list) else ():
                if block.get("type") == "tool_use" and block.get("name") == "Write" \
                        and block.get("input", {}).get("file_path") == path:
                    writes.add(block["id"])
                elif block.get("type") == "tool_result" and block.get("tool_use_id") in writes:
                    return body
    raise AssertionError("no request carries the result of the Write to %s" % path)


def this_turn(bodies):
    """What the model was sent from this turn's prompt on, over all of the turn's requests."""
    return "\n".join(texts_of(body, turn_messages(body)) for body in bodies)


@for_each_version
class EditNoticeAndRoster(SandboxedEachTest):
    """A template: one TestCase per Claude Code version (for_each_version)."""

    def setUp(self):
        super().setUp()
        with open(os.path.join(self.sandbox.claude_home, "settings.json"), encoding="utf-8") as handle:
            self.assertIn("edit_notice.py", handle.read())

    def test_a_write_over_a_peers_uncommitted_file_is_noticed_once_and_the_roster_stays_true(self):
        repo = make_checkout(os.path.join(self.sandbox.root, "work", "shop"))
        shared, done, mine = (os.path.join(repo, "src", n) for n in ("export.py", "done.py", "b_new.py"))
        a = self.sandbox.interactive(repo)
        a.prompt(PAD + "[[write: %s <<<def export():\n    return []\n>>>]] [[write: %s <<<DONE = 1\n>>>]]" % (shared, done))
        git(repo, "add", "src/done.py")
        git(repo, "commit", "-qm", "A's finished part")  # outside the client: its commit needs no dialog
        self.assertEqual(git(repo, "status", "--porcelain"), "?? src/export.py\n")

        b = self.sandbox.interactive(repo)
        first = b.prompt(PAD + "[[read: %s]] [[write: %s <<<def export():\n    return ['b']\n>>>]]" % (shared, shared))
        after = texts_of(request_after_write(first, shared))
        self.assertIn(NOTICE_MARK, after)
        self.assertIn("src/export.py holds uncommitted work of %s" % a.name, after)
        with open(shared, encoding="utf-8") as handle:
            self.assertIn("'b'", handle.read())  # the tool ran: the notice never blocks

        again = b.prompt(PAD + "[[write: %s <<<def export():\n    return ['b', 2]\n>>>]] "
                               "[[write: %s <<<B = 1\n>>>]] [[read: %s]] [[write: %s <<<DONE = 2\n>>>]]"
                         % (shared, mine, done, done))
        turn = this_turn(again)
        self.assertIn("has been updated successfully", turn)  # the turn's writes are in what was read
        self.assertNotIn("holds uncommitted work", turn)
        self.assertTrue(os.path.exists(mine))
        with open(done, encoding="utf-8") as handle:
            self.assertEqual(handle.read(), "DONE = 2\n")

        c = self.sandbox.interactive(repo)
        joined = hook_output(turn_context(b.prompt(PAD + "carry on with the exporter tests please")), "UserPromptSubmit")
        self.assertIn("- joined: %s" % c.name, joined)
        quiet = hook_output(turn_context(b.prompt(PAD + "and now the importer tests")), "UserPromptSubmit")
        self.assertNotIn("joined", quiet)
        self.assertNotIn(c.name, quiet)
        c_name = c.name
        c.exit()
        ended = hook_output(turn_context(b.prompt(PAD + "one more pass over the exporter")), "UserPromptSubmit")
        self.assertIn("- ended: %s" % c_name, ended)
        self.assertNotIn("joined", ended)


if __name__ == "__main__":
    unittest.main()
