"""The hooks driven as Claude Code 2.1.332 drives them: the payload on stdin (shapes of
fixtures/samples/2.1.332/hook-*.json), the environment it gives a hook, the hook a child of the
session's process, and the answer read as the client reads it:

- PreToolUse: exit 2 blocks the call (stderr is the reason); exit 0 with stdout starting with `{` is
  JSON whose `hookSpecificOutput.permissionDecision` is `deny`, `ask` or `allow`, and whose
  `additionalContext` reaches the model; anything else (another code, a crash, a timeout) lets the
  call go ahead.
- SessionStart and UserPromptSubmit: stdout of exit 0 is added to the model's context.

The scripts run are the checkout's own (`scripts/`), as install.py registers them: `<python> -S <script>`.
"""
import json
import os
import sys
import time
import uuid
from typing import NamedTuple, Optional

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(REPO, "scripts")
GUARD = "git_index_guard.py"
EDIT_NOTICE = "edit_notice.py"
MEMORY_DELTA = "memory_delta.py"
PEERS = "peers.py"
COLD_START = "cold_start.py"
INSTEAD = "Instead, run:"
FENCE = "```"


class Answer(NamedTuple):
    """A PreToolUse hook's answer as Claude Code reads it."""
    decision: str  # "allow", "deny" or "ask"
    text: str  # the reason of a deny or ask, or the context added to an allowed call
    hook_failed: bool = False  # exited with a code other than 0 and 2, or timed out


def read_pretooluse(code, stdout, stderr):
    """Claude Code's reading of a PreToolUse hook's exit. Pure."""
    if code == 2:
        return Answer("deny", stderr)
    if code != 0:
        return Answer("allow", "", hook_failed=True)
    if not stdout.startswith("{"):
        return Answer("allow", "")
    try:
        output = json.loads(stdout).get("hookSpecificOutput") or {}
    except (ValueError, AttributeError):
        return Answer("allow", "", hook_failed=True)
    decision = output.get("permissionDecision") or "allow"
    if decision in ("deny", "ask"):
        return Answer(decision, output.get("permissionDecisionReason") or "")
    return Answer("allow", output.get("additionalContext") or "")


def suggestion(reason):
    """The command a refusal offers to run instead (the block after `Instead, run:`), or None."""
    lines = reason.splitlines()
    if INSTEAD not in lines:
        return None
    start = lines.index(INSTEAD) + 1
    if start >= len(lines) or not lines[start].startswith(FENCE):
        return None
    end = next((i for i in range(start + 1, len(lines)) if lines[i] == lines[start]), None)
    return "\n".join(lines[start + 1:end]) if end else None


class Caller(NamedTuple):
    """Who makes a hook call: the session's process, its current id and transcript, and a subagent."""
    process: object  # host.SessionProcess
    session_id: str
    transcript: str
    cwd: str
    agent_id: Optional[str] = None


class HookRunner:
    """Runs the hooks for one world's sessions; keeps every run's wall time for the report."""

    def __init__(self, claude, python=sys.executable):
        self.claude, self.python = claude, python
        self.seconds = []
        self.failures = []  # (script, exit code, first line of stderr) of runs that were not clean

    def env(self, caller):
        """The environment 2.1.332 gives a hook (fixtures/samples/2.1.332/hook-SessionStart-*.json)."""
        pid = caller.process.pid
        return self.claude.env(CLAUDECODE="1", CLAUDE_CODE_ENTRYPOINT="cli", CLAUDE_PROJECT_DIR=caller.cwd,
                               CLAUDE_CODE_SESSION_ID=caller.session_id, CLAUDE_PID=str(pid),
                               CLAUDE_CODE_CHILD_SESSION="1", CLAUDE_CODE_SESSION_ATTENDED="1",
                               CLAUDE_CODE_MESSAGING_SOCKET=os.path.join(self.claude.root, "cc-socks", "%d.sock" % pid))

    def _run(self, caller, script, payload, args=()):
        started = time.monotonic()
        ran = caller.process.run([self.python, "-S", os.path.join(SCRIPTS, script)] + list(args), caller.cwd,
                                 self.env(caller), json.dumps(payload) + "\n")
        self.seconds.append(time.monotonic() - started)
        if ran.code not in (0, 2) or (ran.code == 0 and ran.stderr.strip()):
            self.failures.append((script, ran.code, (ran.stderr.strip().splitlines() or [""])[0][:200]))
        return ran

    def _base(self, caller, event):
        payload = {"session_id": caller.session_id, "transcript_path": caller.transcript, "cwd": caller.cwd}
        if event != "SessionStart":
            payload.update(prompt_id=_prompt_id(caller), permission_mode="acceptEdits")
        if caller.agent_id:
            payload.update(agent_id=caller.agent_id, agent_type="general-purpose")
        return payload

    def session_start(self, caller, source):
        """SessionStart: peers.py --hook, then cold_start.py; the context they added."""
        payload = dict(self._base(caller, "SessionStart"), hook_event_name="SessionStart", source=source)
        if source == "startup":
            payload["model"] = "claude-opus-5-5"
        said = []
        for script, args in ((PEERS, ["--hook"]), (COLD_START, [])):
            ran = self._run(caller, script, payload, args)
            said.append(ran.stdout if ran.code == 0 else "")
        return "".join(said)

    def prompt(self, caller, text):
        """UserPromptSubmit: memory_delta.py; the context it added (exit 2 would erase the prompt)."""
        payload = dict(self._base(caller, "UserPromptSubmit"), hook_event_name="UserPromptSubmit", prompt=text)
        ran = self._run(caller, MEMORY_DELTA, payload)
        return ran.stdout if ran.code == 0 else ""

    def pretooluse(self, caller, tool_name, tool_input, tool_use_id):
        """PreToolUse on Bash (the guard) or an edit tool (the edit notice); the Answer."""
        script = GUARD if tool_name == "Bash" else EDIT_NOTICE
        payload = dict(self._base(caller, "PreToolUse"), effort={"level": "medium"}, hook_event_name="PreToolUse",
                       tool_name=tool_name, tool_input=tool_input, tool_use_id=tool_use_id)
        ran = self._run(caller, script, payload)
        if ran.code is None:
            return Answer("allow", "", hook_failed=True)
        return read_pretooluse(ran.code, ran.stdout, ran.stderr)


def _prompt_id(caller):
    return str(uuid.uuid5(uuid.NAMESPACE_URL, caller.session_id))
