"""A stand-in for the OpenAI Responses API, so the real Codex CLI runs whole sessions offline.

As with the Claude stub (stub_api.py), the request log is the oracle: hook output reaches the model
only inside a request body (SessionStart stdout as a `developer` message before the prompt, a
PreToolUse refusal as the `function_call_output` "Command blocked by PreToolUse hook: <stderr>").

Codex 0.171 calls only `POST /v1/responses`, always with `stream: true`, and needs the whole event
sequence up to `response.completed` (without it the run fails "stream disconnected before
completion"). Its shell tool is `exec_command` with `{"cmd": ...}`.

The "model" is scripted by markers in the user's prompt:
  [[bash: <command>]]         an exec_command call running <command>
  [[patch: <<<<patch>>>>]]    an apply_patch call (a freeform `custom_tool_call` whose input is the
                              patch text, `*** Begin Patch` … `*** End Patch`), offered when the
                              model's metadata names the tool (a known model, e.g. gpt-5.5)
Several markers run one after the other, one call per model turn; when all have run (or the prompt
has none) the reply is plain text and the turn ends.
"""
import json
import re
import uuid
from dataclasses import dataclass
from typing import Optional

from .loopback import JsonHandler, LoggedRequest, LoopbackStub

MARKER = re.compile(r"\[\[(bash|patch):(?:\s*<<<(.*?)>>>|(.*?))\]\]", re.DOTALL)
SHELL_TOOL = "exec_command"
PATCH_TOOL = "apply_patch"  # Codex 0.171's file-editing tool: freeform, its input the patch text
DONE_TEXT = "Done."
# Codex sends its own context (environment, AGENTS.md) as user messages too; they are not the prompt.
CODEX_CONTEXT_PREFIXES = ("<environment_context>", "# AGENTS.md instructions", "<user_instructions>")


@dataclass(frozen=True)
class Reply:
    """What the stub model says in one turn: text, or one shell call."""
    text: str
    command: Optional[str] = None
    patch: Optional[str] = None


def _message_text(item):
    content = item.get("content")
    if isinstance(content, str):
        return content
    return "\n".join(part.get("text", "") for part in content or []
                     if isinstance(part, dict) and isinstance(part.get("text"), str))


def current_prompt(items):
    """The prompt of the turn in progress (the last user message that is not Codex's own context)
    and how many function calls the model has made since."""
    for index in range(len(items) - 1, -1, -1):
        item = items[index]
        if not isinstance(item, dict) or item.get("role") != "user":
            continue
        text = _message_text(item)
        if text.lstrip().startswith(CODEX_CONTEXT_PREFIXES):
            continue
        calls = sum(1 for later in items[index + 1:]
                    if isinstance(later, dict) and later.get("type") in ("function_call", "custom_tool_call"))
        return text, calls
    return "", 0


def plan_reply(body):
    """The stub model's reply to one /v1/responses body (pure)."""
    offered = {t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)}
    prompt, calls_made = current_prompt(body.get("input") or [])
    calls = []
    for kind, block, rest in MARKER.findall(prompt):
        if kind == "bash" and SHELL_TOOL in offered:
            calls.append(Reply("Running a command.", command=(block or rest).strip()))
        elif kind == "patch" and PATCH_TOOL in offered:
            calls.append(Reply("Applying a patch.", patch=block.strip("\n") + "\n"))
    pending = calls[calls_made:]
    if not pending:
        return Reply(DONE_TEXT)
    return pending[0]


def _event(data):
    return ("event: %s\ndata: %s\n\n" % (data["type"], json.dumps(data))).encode("utf-8")


def _unique(prefix):
    return prefix + uuid.uuid4().hex[:24]


def sse_stream(reply, model):
    """The event-stream body for a reply, in the order the real API sends it."""
    response_id = _unique("resp_stub_")
    base = {"id": response_id, "object": "response", "model": model, "output": []}
    out = [_event({"type": "response.created", "response": dict(base, status="in_progress")}),
           _event({"type": "response.in_progress", "response": dict(base, status="in_progress")})]
    if reply.patch is not None:
        item = {"type": "custom_tool_call", "id": _unique("ctc_stub_"), "call_id": _unique("call_stub_"),
                "name": PATCH_TOOL, "input": reply.patch, "status": "completed"}
        out += [
            _event({"type": "response.output_item.added", "output_index": 0,
                    "item": dict(item, input="", status="in_progress")}),
            _event({"type": "response.custom_tool_call_input.delta", "item_id": item["id"],
                    "output_index": 0, "delta": reply.patch}),
            _event({"type": "response.custom_tool_call_input.done", "item_id": item["id"],
                    "output_index": 0, "input": reply.patch}),
        ]
    elif reply.command is None:
        item_id = _unique("msg_stub_")
        part = {"type": "output_text", "text": "", "annotations": []}
        done_part = dict(part, text=reply.text)
        item = {"type": "message", "id": item_id, "role": "assistant", "status": "completed",
                "content": [done_part]}
        out += [
            _event({"type": "response.output_item.added", "output_index": 0,
                    "item": dict(item, status="in_progress", content=[])}),
            _event({"type": "response.content_part.added", "item_id": item_id, "output_index": 0,
                    "content_index": 0, "part": part}),
            _event({"type": "response.output_text.delta", "item_id": item_id, "output_index": 0,
                    "content_index": 0, "delta": reply.text}),
            _event({"type": "response.output_text.done", "item_id": item_id, "output_index": 0,
                    "content_index": 0, "text": reply.text}),
            _event({"type": "response.content_part.done", "item_id": item_id, "output_index": 0,
                    "content_index": 0, "part": done_part}),
        ]
    else:
        arguments = json.dumps({"cmd": reply.command})
        item = {"type": "function_call", "id": _unique("fc_stub_"), "call_id": _unique("call_stub_"),
                "name": SHELL_TOOL, "arguments": arguments, "status": "completed"}
        out += [
            _event({"type": "response.output_item.added", "output_index": 0,
                    "item": dict(item, arguments="", status="in_progress")}),
            _event({"type": "response.function_call_arguments.delta", "item_id": item["id"],
                    "output_index": 0, "delta": arguments}),
            _event({"type": "response.function_call_arguments.done", "item_id": item["id"],
                    "output_index": 0, "arguments": arguments}),
        ]
    out.append(_event({"type": "response.output_item.done", "output_index": 0, "item": item}))
    out.append(_event({"type": "response.completed", "response": dict(
        base, status="completed", output=[item],
        usage={"input_tokens": 1, "input_tokens_details": {"cached_tokens": 0},
               "output_tokens": 1, "output_tokens_details": {"reasoning_tokens": 0},
               "total_tokens": 2})}))
    return b"".join(out)


def _describe_reply(reply):
    return {"text": reply.text, "command": reply.command, "patch": reply.patch}


class _Handler(JsonHandler):
    def _handle(self):
        body = self._body()
        route = self.path.split("?", 1)[0]
        is_response = self.command == "POST" and route.endswith("/responses") and isinstance(body, dict)
        reply = plan_reply(body) if is_response else None
        self.log.add(LoggedRequest(self.command, self.path, body, reply))
        if is_response:
            self._send(200, "text/event-stream", sse_stream(reply, body.get("model") or "stub"))
        else:
            self._send(200, "application/json", b"{}")

    do_GET = do_POST = _handle


class CodexStub(LoopbackStub):
    """A running Responses API stub on 127.0.0.1 at a free port (context manager, or start/stop)."""

    def __init__(self, log_path):
        super().__init__(log_path, _Handler, _describe_reply)

    @property
    def base_url(self):
        """What config.toml's base_url takes: Codex appends /responses."""
        return "http://127.0.0.1:%d/v1" % self.port

    def response_bodies(self):
        return [r.body for r in self.requests if r.reply is not None]
