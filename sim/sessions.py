"""The day's sessions as Claude Code 2.1.332 leaves them on disk: a live process registered in
`~/.claude/sessions/<pid>.json`, typed prompts in `history.jsonl` and the transcript, each tool call
an `assistant` record with its `tool_use` written before the PreToolUse hooks run and a `tool_result`
after, `/clear` giving the same process a new id (registry entry rewritten, a new transcript opening
with the `/clear` records), a subagent's records under `<session>/subagents/` beside its meta file,
and an end by `/exit` (the entry removed) or by SIGKILL (the entry left behind).

Record shapes come from fixtures/claudehome.py, which follows fixtures/samples/. Every time written
(records, history, the registry's times) is the day's clock (world.World.ms), as git's dates are.
"""
import os
import uuid

from fixtures.claudehome import (LiveSession, agent_record, bash_record, clear_records, edit_record, exit_records,
                                 subagent_meta, tool_result, user_prompt)
from host import SessionProcess
from hooks import Caller

REJECTED = "The user doesn't want to proceed with this tool use. The tool use was rejected."


class Session:
    """One session of the day: its plan, its process, its current id, and what it is doing."""

    def __init__(self, plan, world, python, clock):
        self.plan, self.world, self.claude, self.clock = plan, world, world.claude, clock
        self.key, self.checkout = plan.key, plan.checkout
        self.cwd = world.tops[plan.checkout]
        self.ids = list(plan.ids[:1])
        self.name = "%s-%s" % (os.path.basename(self.cwd), plan.ids[0][:2])
        self.process = SessionProcess(python, dict(os.environ))
        self.started_ms = clock()
        self.registry = self.claude.registry_entry(self.process.pid, self.session_id, self.cwd, name=self.name,
                                                   started_ms=self.started_ms, updated_ms=self.started_ms)
        self.live = True
        self.prompts = 0
        self.created = []  # new files it wrote, relative to its checkout
        self.stash_entry = None  # the stash entry its `git stash` pushed, until it pops it
        self.branch_before = None  # the branch it left with `git switch -c`, until it goes back
        self.subagent = None  # (session id it was started from, agent id, tool_use id) while it runs

    @property
    def session_id(self):
        return self.ids[-1]

    @property
    def transcript(self):
        return self.claude.transcript_path(self.session_id, self.cwd)

    def caller(self, agent_id=None):
        session_id = self.subagent[0] if agent_id and self.subagent else self.session_id
        return Caller(self.process, session_id, self.claude.transcript_path(session_id, self.cwd), self.cwd, agent_id)

    def _append(self, records, agent_id=None):
        if agent_id:
            self.claude.append_subagent_records(self.subagent[0], self.cwd, agent_id, records)
        else:
            self.claude.append_records(self.session_id, self.cwd, records)

    def prompt(self, text):
        """A typed prompt: history.jsonl and the transcript (the hook runs before the model sees it)."""
        at = self.clock()
        self.prompts += 1
        self.claude.append_history(self.session_id, self.cwd, text, at)
        self._append([user_prompt(self.session_id, self.cwd, text, at)])

    def tool_use(self, tool, tool_input, agent_id=None):
        """The assistant record calling a tool; returns its tool_use id."""
        if tool == "Bash":
            record = bash_record(self.caller(agent_id).session_id, self.cwd, tool_input["command"], self.clock())
        else:
            record = edit_record(self.caller(agent_id).session_id, self.cwd, tool_input["file_path"], self.clock(), tool=tool)
        block = record["message"]["content"][0]
        block["input"] = tool_input
        self._append([record], agent_id)
        return block["id"]

    def tool_result(self, tool_use_id, text, is_error=False, agent_id=None):
        record = tool_result(self.caller(agent_id).session_id, self.cwd, text, self.clock())
        block = record["message"]["content"][0]
        block["tool_use_id"] = tool_use_id
        if is_error:
            block["is_error"] = True
        self._append([record], agent_id)

    def clear(self):
        """`/clear`: a new id in the same process, the registry entry rewritten, a new transcript."""
        new_id = self.plan.ids[len(self.ids)]
        old = LiveSession(self.process.pid, self.session_id, self.name, self.cwd, self.transcript, self.registry)
        self.claude.clear(old, new_id, self.clock())
        self.ids.append(new_id)
        self.claude.append_records(new_id, self.cwd, clear_records(new_id, self.cwd, self.clock(), self.claude.version),
                                   version="2.1.197")  # as the client writes them, not re-shaped as typed prompts

    def start_subagent(self, task):
        """The main thread calls the Agent tool; the subagent's transcript and meta file appear."""
        tool_use_id = "toolu_" + uuid.uuid5(uuid.NAMESPACE_URL, self.plan.agent_id).hex[:24]
        self.subagent = (self.session_id, self.plan.agent_id, tool_use_id)
        self._append([agent_record(self.session_id, self.cwd, "helper", task, self.clock(), tool_use_id)])
        self.claude.append_subagent_records(self.session_id, self.cwd, self.plan.agent_id,
                                            [user_prompt(self.session_id, self.cwd, task, self.clock())])
        self.claude.write_subagent_meta(self.session_id, self.cwd, self.plan.agent_id,
                                        subagent_meta(self.claude.version, "helper", tool_use_id))

    def finish_subagent(self):
        session_id, agent_id, tool_use_id = self.subagent
        self.claude.write_subagent_meta(session_id, self.cwd, agent_id,
                                        subagent_meta(self.claude.version, "helper", tool_use_id, finished=True))
        record = tool_result(session_id, self.cwd, "Done.", self.clock())
        record["message"]["content"][0]["tool_use_id"] = tool_use_id
        self.claude.append_records(session_id, self.cwd, [record])
        self.subagent = None

    def end(self):
        """`/exit` (its records, the registry entry removed, the process gone) or SIGKILL (nothing
        written, the entry left behind), as the plan says."""
        if self.plan.ending == "kill":
            self.process.kill()
        else:
            self.claude.append_records(self.session_id, self.cwd,
                                       exit_records(self.session_id, self.cwd, self.started_ms, self.clock(),
                                                    self.claude.version))
            os.remove(self.registry)
            self.process.exit()
        self.live = False
