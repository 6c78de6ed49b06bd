"""A stand-in for the Anthropic Messages API, so the real Claude Code CLI runs whole sessions offline.

The request log is the oracle of the end-to-end tests: whatever the hooks print reaches the model only
as part of a request body (SessionStart stdout as `SessionStart:startup hook success: ...`,
UserPromptSubmit stdout beside the prompt, a PreToolUse refusal as an `is_error` tool_result). So the
stub records every body, in memory and as JSONL, and the tests read what the model was really shown.

The "model" is scripted by markers in the user's prompt, so a test decides what the session does:
  [[bash: <command>]]                      a Bash tool call running <command>
  [[write: <abs path> <<<content>>>]]      a Write of <content> to <abs path>
  [[edit: <abs path> <<<old>>> <<<new>>>]] an Edit replacing <old> by <new>
  [[read: <abs path>]]                     a Read of <abs path> (a Write over an existing file needs one)
  [[agent: <<<prompt>>>]]                  a subagent (Agent tool) given <prompt>, which may hold markers
  [[send: <name> <<<message>>>]]           SendMessage to the session called <name>
  [[list-agents]]                          a ListAgents call (the other sessions on the machine)
Several markers run one after the other, one tool call per model turn; when all have run (or the
prompt has none) the reply is plain text and the turn ends.
"""
import json
import os
import re
import uuid
from dataclasses import dataclass
from typing import Optional

from .loopback import JsonHandler, LoggedRequest, LoopbackStub

# `<<<...>>>` is consumed whole, so a block may itself contain `]]` (an agent prompt with markers).
MARKER = re.compile(r"\[\[(bash|write|edit|read|agent|send|list-agents):?((?:<<<.*?>>>|.)*?)\]\]", re.DOTALL)
BLOCK = re.compile(r"<<<(.*?)>>>", re.DOTALL)
# Hook output and other harness notes reach the model inside these; a peer's prompt quoted there
# (peers.py shows opening prompts) must not be mistaken for this prompt's markers.
SYSTEM_REMINDER = re.compile(r"<system-reminder>.*?</system-reminder>", re.DOTALL)
DONE_TEXT = "Done."
STUB_MODEL = "claude-stub"
# The CLI names its subagent tool differently across versions; take whichever the request offers.
AGENT_TOOL_NAMES = ("Agent", "Task")
# 2.1.332 defers SendMessage (named in the system prompt, its schema fetched with ToolSearch), so it
# is absent from `tools`; the client still runs a call to it, as it would after a ToolSearch.
DEFERRED_TOOLS = ("SendMessage",)
SEND_SUMMARY = "stub message"


@dataclass(frozen=True)
class ToolCall:
    name: str
    input: dict


@dataclass(frozen=True)
class Reply:
    """What the stub model says in one turn: text, or text followed by one tool call."""
    text: str
    tool_call: Optional[ToolCall] = None


def parse_actions(prompt, agent_tool="Agent"):
    """The tool calls a prompt's markers ask for, in order."""
    calls = []
    for match in MARKER.finditer(prompt):
        kind, rest = match.group(1), match.group(2)
        blocks = BLOCK.findall(rest)
        head = BLOCK.sub("", rest).strip()
        if kind == "bash":
            calls.append(ToolCall("Bash", {"command": rest.strip(), "description": "stub command"}))
        elif kind == "write":
            calls.append(ToolCall("Write", {"file_path": head, "content": blocks[0] if blocks else ""}))
        elif kind == "read":
            calls.append(ToolCall("Read", {"file_path": head}))
        elif kind == "edit" and len(blocks) >= 2:
            calls.append(ToolCall("Edit", {"file_path": head, "old_string": blocks[0],
                                           "new_string": blocks[1], "replace_all": False}))
        elif kind == "agent":
            calls.append(ToolCall(agent_tool, {"description": "stub subagent",
                                               "prompt": blocks[0] if blocks else head,
                                               "subagent_type": "general-purpose"}))
        elif kind == "send":
            calls.append(ToolCall("SendMessage", {"to": head, "summary": SEND_SUMMARY,
                                                  "message": blocks[0] if blocks else ""}))
        elif kind == "list-agents":
            calls.append(ToolCall("ListAgents", {}))
    return calls


def _blocks(message):
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content or [] if isinstance(b, dict)]


def _is_tool_result_turn(message):
    return any(b.get("type") == "tool_result" for b in _blocks(message))


def current_prompt(messages):
    """The text the user typed for the turn in progress (system reminders removed), and how many
    tool calls the model has made since: the messages after the last user turn that is not only
    tool results."""
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if message.get("role") != "user" or _is_tool_result_turn(message):
            continue
        texts = [b.get("text", "") for b in _blocks(message) if b.get("type") == "text"]
        prompt = SYSTEM_REMINDER.sub("", "\n".join(texts))
        calls_made = sum(
            1 for later in messages[index + 1:]
            if later.get("role") == "assistant"
            and any(b.get("type") == "tool_use" for b in _blocks(later)))
        return prompt, calls_made
    return "", 0


def plan_reply(body):
    """The stub model's reply to one /v1/messages body (pure)."""
    offered = {t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)}
    if not offered:  # side requests (titles, summaries, quota probes) never get tool calls
        return Reply(DONE_TEXT)
    agent_tool = next((n for n in AGENT_TOOL_NAMES if n in offered), AGENT_TOOL_NAMES[0])
    prompt, calls_made = current_prompt(body.get("messages") or [])
    pending = [c for c in parse_actions(prompt, agent_tool)
               if c.name in offered or c.name in DEFERRED_TOOLS][calls_made:]
    if not pending:
        return Reply(DONE_TEXT)
    return Reply("Running %s." % pending[0].name, pending[0])


def _event(name, data):
    return ("event: %s\ndata: %s\n\n" % (name, json.dumps(data))).encode("utf-8")


def sse_stream(reply, model):
    """The event-stream body for a reply, in the order the real API sends it."""
    message_id = "msg_stub_" + uuid.uuid4().hex[:20]
    out = [_event("message_start", {"type": "message_start", "message": {
        "id": message_id, "type": "message", "role": "assistant", "model": model, "content": [],
        "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1}}})]
    out.append(_event("content_block_start", {"type": "content_block_start", "index": 0,
                                              "content_block": {"type": "text", "text": ""}}))
    out.append(_event("content_block_delta", {"type": "content_block_delta", "index": 0,
                                              "delta": {"type": "text_delta", "text": reply.text}}))
    out.append(_event("content_block_stop", {"type": "content_block_stop", "index": 0}))
    if reply.tool_call is not None:
        out.append(_event("content_block_start", {"type": "content_block_start", "index": 1,
                                                  "content_block": {
                                                      "type": "tool_use",
                                                      "id": "toolu_stub_" + uuid.uuid4().hex[:20],
                                                      "name": reply.tool_call.name, "input": {}}}))
        out.append(_event("content_block_delta", {"type": "content_block_delta", "index": 1, "delta": {
            "type": "input_json_delta", "partial_json": json.dumps(reply.tool_call.input)}}))
        out.append(_event("content_block_stop", {"type": "content_block_stop", "index": 1}))
    stop_reason = "tool_use" if reply.tool_call is not None else "end_turn"
    out.append(_event("message_delta", {"type": "message_delta",
                                        "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                                        "usage": {"output_tokens": 1}}))
    out.append(_event("message_stop", {"type": "message_stop"}))
    return b"".join(out)


def whole_message(reply, model):
    """The same reply as one JSON message, for a request that did not ask to stream."""
    content = [{"type": "text", "text": reply.text}]
    if reply.tool_call is not None:
        content.append({"type": "tool_use", "id": "toolu_stub_" + uuid.uuid4().hex[:20],
                        "name": reply.tool_call.name, "input": reply.tool_call.input})
    return {"id": "msg_stub_" + uuid.uuid4().hex[:20], "type": "message", "role": "assistant",
            "model": model, "content": content,
            "stop_reason": "tool_use" if reply.tool_call is not None else "end_turn",
            "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}


def _describe_reply(reply):
    return {"text": reply.text,
            "tool_call": None if reply.tool_call is None else {"name": reply.tool_call.name,
                                                               "input": reply.tool_call.input}}


class _Handler(JsonHandler):
    def _handle(self):
        body = self._body()
        route = self.path.split("?", 1)[0]
        is_message = self.command == "POST" and route == "/v1/messages" and isinstance(body, dict)
        reply = plan_reply(body) if is_message else None
        self.log.add(LoggedRequest(self.command, self.path, body, reply))
        if route.endswith("/count_tokens"):
            self._send_json({"input_tokens": 1})
        elif is_message:
            model = body.get("model") or STUB_MODEL
            if body.get("stream"):
                self._send(200, "text/event-stream", sse_stream(reply, model))
            else:
                self._send_json(whole_message(reply, model))
        else:
            self._send_json({})

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _handle

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()


class StubAPI(LoopbackStub):
    """A running Messages API stub on 127.0.0.1 at a free port. Use as a context manager, or
    start()/stop()."""

    def __init__(self, log_path):
        super().__init__(log_path, _Handler, _describe_reply)

    @property
    def base_url(self):
        return "http://127.0.0.1:%d" % self.port

    def message_bodies(self):
        """Bodies of the /v1/messages calls that offered tools: the main loop's and subagents'
        turns, where hook output and tool results live."""
        return [r.body for r in self.requests
                if r.path.split("?", 1)[0] == "/v1/messages" and isinstance(r.body, dict)
                and r.body.get("tools")]


def body_session_id(body):
    """The Claude Code session a request came from: the CLI puts it in metadata.user_id, a JSON
    string (`{"device_id":…,"session_id":…}` on 2.1.197)."""
    try:
        return json.loads(body["metadata"]["user_id"]).get("session_id")
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def request_text(body):
    """Every string in a request body joined: what the model could read (for assertions)."""
    parts = []

    def walk(value):
        if isinstance(value, str):
            parts.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(body)
    return "\n".join(parts)


if __name__ == "__main__":  # run by hand: python3 tests/e2e/stub_api.py /tmp/stub.jsonl
    import sys
    import time
    stub = StubAPI(sys.argv[1] if len(sys.argv) > 1 else os.devnull).start()
    print(stub.base_url, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        stub.stop()
