"""One run of a day: the script's events played in a fresh world, the hooks driven as the client
drives them (or not at all), every command run for real, and the ledger kept.

Modes:
- `no`: peerhooks on, every ask answered No (the call does not run, the turn ends);
- `yes`: peerhooks on, every ask answered Yes (the call runs);
- `without`: no hooks at all: every command runs.

After a deny the session runs the command the refusal offers (`Instead, run:`), once, through the
guard again, as agents do; a deny without one ends that step. Every deny and ask is labelled by
running the refused command in a copy of the checkouts (label.py).
"""
import os
import random
import sys
from typing import List, NamedTuple

import label as labelling
from hooks import HookRunner, suggestion
from ledger import Ledger
from sessions import REJECTED, Session
from steps import View, resolve
from world import World, read_text, write_text

MODES = ("no", "yes", "without")
PROMPTS = ("add {w} to the {a} code", "fix the failing {w} test in {a}", "refactor {a}: split the {w} helpers",
           "now handle the {w} edge case too", "review {a} and commit what is done", "document the {w} flow in {a}")


class Refusal(NamedTuple):
    minute: float
    session: str
    command: str
    decision: str  # deny or ask
    label: str
    reason_head: str  # the reason's first line
    suggested: str  # the command offered instead, or ""


class Collision(NamedTuple):
    minute: float
    session: str
    path: str
    peers: tuple
    told: bool


class Loss(NamedTuple):
    """A command that made others' changes vanish or committed them as its session's."""
    minute: float
    session: str
    command: str
    lost: tuple
    misattributed: tuple
    ended_owners: tuple  # owners of those changes whose sessions had ended


class RunResult(NamedTuple):
    mode: str
    day: object
    ledger: Ledger
    steps: int
    refusals: List[Refusal]
    collisions: List[Collision]
    losses: List[Loss]
    hook_seconds: List[float]
    hook_failures: list  # (script, exit code, first stderr line) of hook runs that failed or complained
    suggestions_run: int


class Run:
    def __init__(self, day, mode, python=sys.executable, parent=None):
        self.day, self.mode, self.python = day, mode, python
        self.world = World(day.events[-1].minute, parent)
        self.ledger = Ledger(self.world.tops, self.world.env())
        self.hooks = HookRunner(self.world.claude, python) if mode != "without" else None
        self.sessions = {}
        self.told = {}  # {(context id, checkout, path, peer): the newest change of the peer it was told of}
        self.refusals, self.collisions, self.losses = [], [], []
        self.steps = self.suggestions_run = 0
        self.minute = 0.0

    # -- the day ---------------------------------------------------------------------------------
    def play(self):
        handlers = {"start": self._start, "prompt": self._prompt, "step": self._step, "clear": self._clear,
                    "subagent": self._subagent, "subagent-write": self._subagent_write,
                    "subagent-done": self._subagent_done, "end": self._end}
        for event in self.day.events:
            self.minute = event.minute
            session = self.sessions.get(event.session)
            if event.kind != "start" and (session is None or not session.live):
                continue
            handlers[event.kind](event, session)
        self.ledger.touch()
        self.ledger.refresh()
        return RunResult(self.mode, self.day, self.ledger, self.steps, self.refusals, self.collisions, self.losses,
                         self.hooks.seconds if self.hooks else [], self.hooks.failures if self.hooks else [],
                         self.suggestions_run)

    def close(self):
        for session in self.sessions.values():
            session.process.kill()
        self.world.close()

    def __enter__(self):
        return self

    def __exit__(self, *_exc):
        self.close()

    def clock(self):
        """Now on the day's clock (epoch ms)."""
        return self.world.ms(self.minute)

    def live_keys(self):
        return {key for key, s in self.sessions.items() if s.live}

    def _start(self, event, _session):
        session = Session(self.day.session(event.session), self.world, self.python, self.clock)
        self.sessions[event.session] = session
        if self.hooks:
            self.hooks.session_start(session.caller(), "startup")

    def _prompt(self, event, session):
        rng = random.Random(event.draw)
        text = rng.choice(PROMPTS).format(w=rng.choice(("export", "retry", "cache", "audit")), a=session.plan.area)
        session.prompt(text)
        if self.hooks:
            self.hooks.prompt(session.caller(), text)

    def _clear(self, _event, session):
        session.clear()
        if self.hooks:
            self.hooks.session_start(session.caller(), "clear")

    def _subagent(self, _event, session):
        if session.subagent is None:
            session.start_subagent("write the %s helpers for %s" % (session.plan.area, session.key))

    def _subagent_write(self, event, session):
        if session.subagent is not None:
            self.steps += 1
            action = resolve("write_new" if event.draw % 2 else "edit", event.draw, self._view(session))
            self._edit(session, action, session.subagent[1])

    def _subagent_done(self, _event, session):
        if session.subagent is not None:
            session.finish_subagent()

    def _end(self, _event, session):
        session.end()

    def _step(self, event, session):
        self.steps += 1
        self.ledger.refresh()
        action = resolve(event.action, event.draw, self._view(session))
        if action.tool == "Bash":
            self._bash(session, action.command, action.kind)
        else:
            self._edit(session, action, None)

    def _view(self, session):
        peers = set()
        for key in self.live_keys() - {session.key}:
            peers.update(self.ledger.dirty_files(key, session.checkout))
        return View(session.key, session.checkout, session.plan.area, session.plan.style, tuple(session.created),
                    tuple(self.ledger.dirty_files(session.key, session.checkout)), tuple(sorted(peers)),
                    session.stash_entry is not None, session.branch_before,
                    lambda path: read_text(os.path.join(session.cwd, path)))

    # -- an edit ---------------------------------------------------------------------------------
    def _edit(self, session, action, agent_id):
        self.ledger.refresh()
        colliding = self._colliding(session, action.path)
        count = max(1, len(action.anchors))
        changes = [self.ledger.add(session.key, agent_id, session.checkout, action.path, self.minute, action.tool)
                   for _ in range(count)]
        lines = ["# " + c.marker for c in changes]
        tool_input, text = _edit_input(session.cwd, action, lines)
        tool_use_id = session.tool_use(action.tool, tool_input, agent_id)
        context = ""
        if self.hooks:
            context = self.hooks.pretooluse(session.caller(agent_id), action.tool, tool_input, tool_use_id).text
        self._count_collision(session, agent_id, action.path, colliding, context)
        write_text(os.path.join(session.cwd, action.path), text)
        self.ledger.touch()
        if action.whole is None and action.path not in session.created:
            session.created.append(action.path)
        session.tool_result(tool_use_id, "The file %s has been updated successfully." % tool_input["file_path"],
                            agent_id=agent_id)

    def _colliding(self, session, path):
        """{peer: its newest change number in the file} of live peers with uncommitted work in it."""
        owners = self.ledger.uncommitted_owners(session.checkout, path)
        live = self.live_keys() - {session.key}
        return {peer: max(c.number for c in changes) for peer, changes in owners.items() if peer in live}

    def _count_collision(self, session, agent_id, path, colliding, context):
        if not colliding:
            return
        context_id = agent_id or session.session_id
        told_all = True
        for peer, newest in sorted(colliding.items()):
            key = (context_id, session.checkout, path, peer)
            if self.sessions[peer].name in context and os.path.basename(path) in context:
                self.told[key] = newest
            told_all = told_all and self.told.get(key, 0) >= newest
        self.collisions.append(Collision(self.minute, session.key, path, tuple(sorted(colliding)), told_all))

    # -- a command -------------------------------------------------------------------------------
    def _bash(self, session, command, kind, offered=False):
        tool_input = {"command": command, "description": "Run git"}
        tool_use_id = session.tool_use("Bash", tool_input)
        if self.hooks:
            answer = self.hooks.pretooluse(session.caller(), "Bash", tool_input, tool_use_id)
            if answer.decision in ("deny", "ask"):
                if not self._refused(session, command, answer, tool_use_id, offered):
                    return
        self.ledger.refresh()
        before = self.ledger.last
        ran = session.process.run(["bash", "-c", command], session.cwd, self._command_env())
        effect = self.ledger.observe(session.key, command, self.minute, self.live_keys())
        if effect.lost or effect.misattributed:
            owners = {m.rsplit(" ", 1)[1] for m in effect.lost | effect.misattributed}
            self.losses.append(Loss(self.minute, session.key, command, tuple(sorted(effect.lost)),
                                    tuple(sorted(effect.misattributed)), tuple(sorted(owners - self.live_keys()))))
        self._follow_state(session, kind, ran.code, before)
        session.tool_result(tool_use_id, (ran.stdout + ran.stderr)[-2000:], is_error=ran.code != 0)

    def _refused(self, session, command, answer, tool_use_id, offered):
        """Count and label a deny or ask; True when the command runs anyway (an ask answered Yes)."""
        self.ledger.refresh()
        found = labelling.label(self.world, self.ledger, session.key, session.checkout, command, self.minute)
        instead = suggestion(answer.text) if answer.decision == "deny" else None
        self.refusals.append(Refusal(self.minute, session.key, command, answer.decision, found.name,
                                     (answer.text.splitlines() or [""])[0][:200], instead or ""))
        if answer.decision == "ask" and self.mode == "yes":
            return True
        session.tool_result(tool_use_id, answer.text if answer.decision == "deny" else REJECTED, is_error=True)
        if instead and not offered:
            self.suggestions_run += 1
            self._bash(session, instead, "suggested", offered=True)
        return False

    def _command_env(self):
        env = self.world.env(self.minute)
        env.update(CLAUDECODE="1", CLAUDE_CODE_ENTRYPOINT="cli")
        return env

    def _follow_state(self, session, kind, code, before):
        after = self.ledger.last
        if kind == "stash" and after.stash and after.stash[0] not in before.stash:
            session.stash_entry = after.stash[0]
        elif kind == "stash_pop" and code == 0:
            session.stash_entry = None
        elif kind == "switch" and code == 0:
            session.branch_before = before.heads.get(session.checkout)
        elif kind == "switch_back" and code == 0:
            session.branch_before = None


def _edit_input(cwd, action, lines):
    """(tool_input, the file's text after the call) of an edit that adds `lines`."""
    full = os.path.join(cwd, action.path)
    if action.tool == "Write":
        if action.whole is None:
            text = '"""%s."""\n%s\n' % (os.path.basename(action.path), "\n".join(lines))
        else:
            text = action.whole + ("" if action.whole.endswith("\n") else "\n") + "\n".join(lines) + "\n"
        return {"file_path": full, "content": text}, text
    text = read_text(full)
    edits = []
    for anchor, line in zip(action.anchors, lines):
        edits.append({"old_string": anchor, "new_string": anchor + "\n" + line, "replace_all": False})
        text = text.replace(anchor, anchor + "\n" + line, 1)
    if action.tool == "MultiEdit":
        return {"file_path": full, "edits": edits}, text
    return dict(edits[0], file_path=full), text


def run_day(day, mode, python=sys.executable, parent=None):
    """Play `day` in `mode` in a fresh world; everything it made is removed before it returns."""
    with Run(day, mode, python, parent) as run:
        return run.play()

