"""The Responses API stub and the trust-hash recipe on their own (no Codex needed)."""
import json
import os
import tempfile
import unittest
import urllib.request

from .codex_cli import event_label, trust_entries, trust_hash
from .codex_stub import DONE_TEXT, CodexStub, current_prompt, plan_reply, sse_stream

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = [{"type": "function", "name": n} for n in ("exec_command", "write_stdin")]
# Hashes `codex app-server` (0.171.0) reported in hooks/list for these handlers.
GUARD_COMMAND = "'/root/.pyenv/versions/3.11.7/bin/python3' '/work/wt/codex/scripts/git_index_guard.py'"
GUARD_HASH = "sha256:acce5028545ad46ca94e8c341cf513eaf8763957824e1dfb291b178efe23935c"
COLD_START_COMMAND = ("'/root/.pyenv/versions/3.11.7/bin/python3' '/work/wt/codex/scripts/cold_start.py'"
                      " --host codex")
COLD_START_HASH = "sha256:a31c997bcc521afc2510cd6e2d9b63cfa4e4d32c3b366caa5f957251cb8c001d"


def message(role, text):
    return {"type": "message", "role": role, "content": [{"type": "input_text", "text": text}]}


def call_and_output(command):
    return [{"type": "function_call", "name": "exec_command", "call_id": "c-" + command,
             "arguments": json.dumps({"cmd": command})},
            {"type": "function_call_output", "call_id": "c-" + command, "output": "ok"}]


def events(stream):
    return [json.loads(chunk.split("data: ", 1)[1]) for chunk in stream.decode("utf-8").split("\n\n")
            if chunk.strip()]


class PlanReplyTest(unittest.TestCase):
    def test_markers_run_one_call_per_turn_then_text_ends_the_turn(self):
        items = [message("user", "<environment_context>\n</environment_context>"),
                 message("developer", "hook output [[bash: rm -rf /]]"),
                 message("user", "do it [[bash: git status]] [[bash: git add -A]]")]
        self.assertEqual(plan_reply({"tools": TOOLS, "input": items}).command, "git status")
        items += call_and_output("git status")
        self.assertEqual(plan_reply({"tools": TOOLS, "input": items}).command, "git add -A")
        items += call_and_output("git add -A")
        self.assertEqual(plan_reply({"tools": TOOLS, "input": items}).text, DONE_TEXT)

    def test_codex_context_messages_are_not_the_prompt(self):
        items = [message("user", "typed [[bash: ls]]"),
                 message("user", "# AGENTS.md instructions for /r\n[[bash: rm -rf /]]")]
        self.assertEqual(current_prompt(items), ("typed [[bash: ls]]", 0))

    def test_a_patch_marker_is_an_apply_patch_call_when_the_model_offers_the_tool(self):
        tools = TOOLS + [{"type": "custom", "name": "apply_patch"}]
        patch = "*** Begin Patch\n*** Add File: a.py\n+A = 1\n*** End Patch"
        reply = plan_reply({"tools": tools, "input": [message("user", "edit [[patch: <<<%s>>>]]" % patch)]})
        self.assertEqual(reply.patch, patch + "\n")
        self.assertIsNone(reply.command)
        sent = events(sse_stream(reply, "m"))
        self.assertEqual(sent[-2]["item"]["type"], "custom_tool_call")
        self.assertEqual(sent[-2]["item"]["input"], patch + "\n")
        self.assertEqual(sent[-1]["type"], "response.completed")
        self.assertIsNone(plan_reply({"tools": TOOLS, "input": [message("user", "[[patch: <<<x>>>]]")]}).patch)

    def test_no_shell_tool_offered_means_plain_text(self):
        body = {"tools": [], "input": [message("user", "[[bash: ls]]")]}
        self.assertIsNone(plan_reply(body).command)


class StreamTest(unittest.TestCase):
    def test_a_call_streams_its_arguments_and_ends_with_response_completed(self):
        sent = events(sse_stream(plan_reply({"tools": TOOLS, "input": [message("user", "[[bash: ls -l]]")]}),
                                 "m"))
        self.assertEqual(sent[0]["type"], "response.created")
        self.assertEqual(sent[-1]["type"], "response.completed")
        [done] = [e for e in sent if e["type"] == "response.output_item.done"]
        self.assertEqual((done["item"]["name"], json.loads(done["item"]["arguments"])),
                         ("exec_command", {"cmd": "ls -l"}))

    def test_server_answers_responses_with_a_stream_and_logs_the_body(self):
        with tempfile.TemporaryDirectory() as folder:
            with CodexStub(os.path.join(folder, "log.jsonl")) as stub:
                body = json.dumps({"stream": True, "tools": TOOLS, "input": [message("user", "hi")]})
                request = urllib.request.Request(stub.base_url + "/responses", data=body.encode(),
                                                 headers={"Content-Type": "application/json"})
                with urllib.request.urlopen(request, timeout=10) as answer:
                    sent = events(answer.read())
                self.assertEqual(sent[-1]["type"], "response.completed")
                self.assertEqual(len(stub.response_bodies()), 1)


class TrustHashTest(unittest.TestCase):
    def test_hashes_match_what_codex_reported_for_the_installed_hooks(self):
        self.assertEqual(trust_hash("PreToolUse", "Bash", {"type": "command", "command": GUARD_COMMAND,
                                                           "timeout": 5}), GUARD_HASH)
        self.assertEqual(trust_hash("SessionStart", "startup|resume|clear",
                                    {"type": "command", "command": COLD_START_COMMAND, "timeout": 10}),
                         COLD_START_HASH)

    def test_the_example_in_docs_is_this_recipe_applied(self):
        with open(os.path.join(REPO, "docs", "codex.md"), encoding="utf-8") as handle:
            docs = handle.read()
        example = json.dumps({"type": "command", "command": GUARD_COMMAND, "timeout": 5})
        self.assertIn("`%s`" % example, docs)
        self.assertIn("`%s`" % trust_hash("PreToolUse", "Bash", json.loads(example)), docs)

    def test_any_change_to_the_handler_changes_the_hash(self):
        handler = {"type": "command", "command": GUARD_COMMAND, "timeout": 5}
        self.assertNotEqual(trust_hash("PreToolUse", "Bash", dict(handler, timeout=6)), GUARD_HASH)
        self.assertNotEqual(trust_hash("PreToolUse", "Bash", dict(handler, command=GUARD_COMMAND + " ")),
                            GUARD_HASH)

    def test_trust_keys_name_the_file_event_group_and_handler(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "hooks.json")
            with open(path, "w", encoding="utf-8") as handle:
                json.dump({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                    {"type": "command", "command": "a"}, {"type": "command", "command": GUARD_COMMAND,
                                                          "timeout": 5}]}]}}, handle)
            entries = trust_entries(path)
        self.assertEqual(entries[path + ":pre_tool_use:0:1"], GUARD_HASH)
        self.assertEqual(event_label("UserPromptSubmit"), "user_prompt_submit")


if __name__ == "__main__":
    unittest.main()
