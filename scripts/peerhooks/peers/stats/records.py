"""What a transcript's records say for `peers.py --stats`: one session's findings (SessionScan), and
what one decoded record adds to them (a listing, a delivered message, a received one, a guard
refusal, a handoff). scan.py decides which lines are decoded at all.

A message counts as sent only once its tool result says it was delivered (2.1.197 answers `No agent
named '…' is currently addressable`), and a message from another session counts as received from
the user record that carries `<cross-session-message …>` (the `queue-operation` record before it
holds the same text and is not counted). Since 2.1.332 a transcript also holds `api-request-blob`
records that repeat the messages of each request: only `assistant` and `user` records count.
"""
import json
import re
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Optional, Tuple

from ...claude.formats import EDIT_TOOLS
from ...claude.formats import HANDOFF_NAME as HANDOFF_FILE
from ...guard.reason import REFUSAL_MARK

# Claude Code hands a PreToolUse refusal to the model as a tool_result `PreToolUse:Bash hook error:
# [<cmd>]: <stderr>`, and the guard's stderr opens with its mark; the mark alone would also match
# someone reading the guard's source, hence both.
GUARD_PHRASE = REFUSAL_MARK
HOOK_ERROR_PHRASE = "PreToolUse"

LIST_TOOLS = ("ListAgents",)  # Claude Code's tool that lists other sessions, where the build has it
SEND_TOOLS = ("SendMessage",)
SPAWN_TOOLS = ("Agent", "Task")  # `Task` is the subagent tool's older name
HANDOFF_NAME = HANDOFF_FILE.lower()  # compared case-insensitively
# SendMessage named its recipient `recipient` (2.1.2x-3x team tools) and `to` (later builds); an
# Agent call names its subagent with `name` (team members); its id is the subagents/agent-<id> file.
RECIPIENT_FIELDS = ("to", "recipient", "target", "to_member")
# Records that are what a session said or was told; 2.1.332's `api-request-blob` repeats them.
COUNTED_RECORD_TYPES = ("assistant", "user")
# How a message from another session reaches a session (2.1.332): a user record whose content is
# `Another Claude session sent a message:\n<cross-session-message from="uds:…" from-name="…" …>`.
RECEIVED_MARK = "<cross-session-message"
_CLAUDE_AGENTS = re.compile(r"(?:^|[\s;&|(`])claude\s+agents(?=$|[\s;&|)`])")
_PATH_SEPARATORS = re.compile(r"[\\/]")


@dataclass(frozen=True)
class Send:
    at_ms: int
    recipient: Optional[str]
    tool_use_id: Optional[str] = None


@dataclass
class SessionScan:
    """What one top-level transcript says, before any windowing."""

    session_id: str
    project: str  # the projects/ folder name, used to group when no cwd was found
    cwd: Optional[str]
    first_ms: int
    last_ms: int
    listings: List[int] = field(default_factory=list)  # times it listed other sessions
    sends: List[Send] = field(default_factory=list)  # delivered messages only
    received: List[int] = field(default_factory=list)  # times a message from another session arrived
    refusals: List[int] = field(default_factory=list)
    handoffs: List[int] = field(default_factory=list)
    own_agents: FrozenSet[str] = frozenset()  # names and ids of the subagents it spawned
    # SendMessage calls whose result is not read yet, by tool_use id (scan state, not a finding)
    pending_sends: Dict[str, Send] = field(default_factory=dict, repr=False, compare=False)
    # (record uuid, event list, index) of each event: a fork's copy of its parent's record has the
    # parent's uuid, so the event is dropped from the later session (drop_inherited)
    origins: List[Tuple[str, str, int]] = field(default_factory=list, repr=False, compare=False)


def _content(record):
    message = record.get("message")
    return message.get("content") if isinstance(message, dict) else None


def _tool_uses(record):
    """(name, input, id) of each tool_use block."""
    content = _content(record)
    if not isinstance(content, list):
        return
    for item in content:
        if isinstance(item, dict) and item.get("type") == "tool_use" and isinstance(item.get("input"), dict):
            yield item.get("name"), item["input"], item.get("id")


def _text_of(body):
    if isinstance(body, str):
        return body
    if isinstance(body, list):
        texts = [part.get("text") for part in body if isinstance(part, dict)]
        return "\n".join(t for t in texts if isinstance(t, str))
    return ""


def _tool_result_texts(record):
    """(tool_use id, is_error, text) of each tool_result block."""
    content = _content(record)
    if not isinstance(content, list):
        return
    for item in content:
        if isinstance(item, dict) and item.get("type") == "tool_result":
            yield item.get("tool_use_id"), bool(item.get("is_error")), _text_of(item.get("content"))


def is_delivered(is_error, text):
    """Whether a SendMessage result says the message went out: not an error, and, where the result
    is JSON with `success` (2.1.332: `{"success":true,…}`), a true one."""
    if is_error:
        return False
    try:
        answer = json.loads(text)
    except (ValueError, RecursionError):
        return True  # a plain-text confirmation (team messages of earlier builds)
    return not isinstance(answer, dict) or "success" not in answer or answer["success"] is True


def is_received_message(record):
    """A user record carrying a message from another session (not the queue-operation before it)."""
    return record.get("type") == "user" and RECEIVED_MARK in _text_of(_content(record))


def recipient_of(tool_input):
    for key in RECIPIENT_FIELDS:
        value = tool_input.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def is_guard_refusal(is_error, text):
    return is_error and GUARD_PHRASE in text and HOOK_ERROR_PHRASE in text


def lists_sessions(name, tool_input):
    if name in LIST_TOOLS:
        return True
    command = tool_input.get("command") if name == "Bash" else None
    return isinstance(command, str) and _CLAUDE_AGENTS.search(command) is not None


def writes_handoff(name, tool_input):
    path = tool_input.get("file_path") if name in EDIT_TOOLS else None
    return isinstance(path, str) and is_handoff_path(path)


def is_handoff_path(path):
    return _PATH_SEPARATORS.split(path)[-1].lower() == HANDOFF_NAME


def note_record(record, at_ms, into, agent_names):
    """Add what a decoded record says to a session's lists (and spawned names to agent_names).
    Only what the session said or was told counts: records that repeat it do not."""
    if record.get("type") not in COUNTED_RECORD_TYPES:
        return
    if is_received_message(record):
        into.received.append(at_ms)
    for name, tool_input, use_id in _tool_uses(record):
        if lists_sessions(name, tool_input):
            into.listings.append(at_ms)
        elif name in SEND_TOOLS:
            send = Send(at_ms, recipient_of(tool_input), use_id if isinstance(use_id, str) else None)
            into.pending_sends[send.tool_use_id] = send
        elif name in SPAWN_TOOLS:
            spawned = tool_input.get("name")
            if isinstance(spawned, str) and spawned:
                agent_names.add(spawned)
        elif writes_handoff(name, tool_input):
            into.handoffs.append(at_ms)
    for use_id, is_error, text in _tool_result_texts(record):
        if is_guard_refusal(is_error, text):
            into.refusals.append(at_ms)
        send = into.pending_sends.pop(use_id, None) if isinstance(use_id, str) else None
        if send is not None and is_delivered(is_error, text):
            into.sends.append(send)
