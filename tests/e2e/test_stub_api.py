"""The stub Messages API on its own (no CLI needed): markers, turn sequencing, SSE, the log."""
import json
import os
import shutil
import tempfile
import unittest
import urllib.request

from .stub_api import StubAPI, body_session_id, current_prompt, parse_actions, plan_reply, sse_stream

TOOLS = [{"name": n} for n in ("Agent", "Bash", "Edit", "Write")]
REMINDER = "<system-reminder>\nquoted peer prompt [[bash: rm -rf /]]\n</system-reminder>\n\n"


def user(*texts):
    return {"role": "user", "content": [{"type": "text", "text": t} for t in texts]}


def tool_turn(name):
    return [{"role": "assistant", "content": [{"type": "tool_use", "id": "t-" + name, "name": name,
                                               "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t-" + name,
                                          "content": "ok"}]}]


class MarkerTest(unittest.TestCase):
    def test_markers_become_tool_calls_in_order(self):
        calls = parse_actions("a [[write: /r/x y.py <<<x]]y\n>>>]] b [[edit: /r/e.py <<<1>>> <<<2>>>]] "
                              "c [[bash: git add -A && echo ]ok]]")
        self.assertEqual([c.name for c in calls], ["Write", "Edit", "Bash"])
        self.assertEqual(calls[0].input, {"file_path": "/r/x y.py", "content": "x]]y\n"})
        self.assertEqual((calls[1].input["old_string"], calls[1].input["new_string"]), ("1", "2"))
        self.assertEqual(calls[2].input["command"], "git add -A && echo ]ok")

    def test_a_read_marker_reads_the_file_it_names(self):
        [call] = parse_actions("first [[read: /r/src/a b.py]]")
        self.assertEqual((call.name, call.input), ("Read", {"file_path": "/r/src/a b.py"}))

    def test_send_and_list_agents_markers_call_the_messaging_tools(self):
        calls = parse_actions("[[list-agents]] then [[send: repo-3f <<<leave src/a.py to me>>>]]")
        self.assertEqual([c.name for c in calls], ["ListAgents", "SendMessage"])
        self.assertEqual(calls[1].input["to"], "repo-3f")
        self.assertEqual(calls[1].input["message"], "leave src/a.py to me")

    def test_send_message_is_called_though_the_request_defers_it(self):
        # 2.1.332 leaves SendMessage out of `tools` (deferred); its client runs the call all the same
        body = {"tools": TOOLS, "messages": [user("tell them [[send: repo-3f <<<hi>>>]]")]}
        self.assertEqual(plan_reply(body).tool_call.name, "SendMessage")

    def test_agent_prompt_keeps_its_own_markers_for_the_subagent(self):
        [call] = parse_actions("[[agent: <<<please [[bash: ls]] now>>>]]")
        self.assertEqual((call.name, call.input["prompt"]), ("Agent", "please [[bash: ls]] now"))

    def test_markers_inside_system_reminders_are_not_the_prompt(self):
        prompt, _ = current_prompt([user(REMINDER, "just talk")])
        self.assertEqual(prompt.strip(), "just talk")


class ReplyTest(unittest.TestCase):
    def test_each_turn_runs_the_next_marker_then_ends_with_text(self):
        messages = [user("go [[bash: one]] [[bash: two]]")]
        first = plan_reply({"tools": TOOLS, "messages": messages})
        self.assertEqual(first.tool_call.input["command"], "one")
        second = plan_reply({"tools": TOOLS, "messages": messages + tool_turn("Bash")})
        self.assertEqual(second.tool_call.input["command"], "two")
        third = plan_reply({"tools": TOOLS, "messages": messages + tool_turn("Bash") * 2})
        self.assertIsNone(third.tool_call)

    def test_request_without_tools_gets_text_even_with_markers(self):
        self.assertIsNone(plan_reply({"messages": [user("[[bash: ls]]")]}).tool_call)

    def test_stream_has_the_event_order_of_the_real_api(self):
        reply = plan_reply({"tools": TOOLS, "messages": [user("[[bash: ls]]")]})
        events = [line[len("event: "):] for line in sse_stream(reply, "m").decode().splitlines()
                  if line.startswith("event: ")]
        self.assertEqual(events, ["message_start", "content_block_start", "content_block_delta",
                                  "content_block_stop", "content_block_start", "content_block_delta",
                                  "content_block_stop", "message_delta", "message_stop"])

    def test_session_id_is_read_from_the_metadata_user_id_string(self):
        body = {"metadata": {"user_id": json.dumps({"device_id": "d", "session_id": "s-1"})}}
        self.assertEqual(body_session_id(body), "s-1")
        self.assertIsNone(body_session_id({}))


class ServerTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="peerhooks-stub-")
        self.addCleanup(shutil.rmtree, self.folder, True)
        self.stub = StubAPI(os.path.join(self.folder, "log.jsonl")).start()
        self.addCleanup(self.stub.stop)

    def post(self, path, body):
        request = urllib.request.Request(self.stub.base_url + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.headers.get("Content-Type"), response.read()

    def test_answers_count_tokens_messages_and_anything_else_and_logs_each(self):
        self.assertEqual(self.post("/v1/messages/count_tokens?beta=true", {})[1], b'{"input_tokens": 1}')
        kind, data = self.post("/v1/messages?beta=true",
                               {"stream": True, "tools": TOOLS, "messages": [user("hi")]})
        self.assertEqual(kind, "text/event-stream")
        self.assertIn(b"end_turn", data)
        self.assertEqual(self.post("/api/other", {"x": 1})[1], b"{}")
        with open(self.stub.log_path) as handle:
            logged = [json.loads(line)["path"] for line in handle]
        self.assertEqual(logged, ["/v1/messages/count_tokens?beta=true", "/v1/messages?beta=true",
                                  "/api/other"])
        self.assertEqual(len(self.stub.message_bodies()), 1)


if __name__ == "__main__":
    unittest.main()
