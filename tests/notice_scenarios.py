"""A labelled scenario set for the edit notice: who changed a file (a peer, across its /clear, with
Bash, through its subagent, only reading it; this session itself, across its /clear, its finished,
running or calling subagent; nobody), what git holds of that change now (untracked, modified,
staged, committed, stashed, reverted, committed and then changed by nobody's transcript), which
tool is about to write it, who calls (the main thread, a subagent, a Codex session) and which
client version wrote the files (2.1.197, 2.1.332 shapes).

Each file's label is decided by construction (is its writer a party for this caller, per the rules
of identity.parties, and is the writer's change still in the tree) and checked against git itself
(`git status --porcelain`: the uncommitted states must show the file changed, the others clean, the
last one changed by nobody's transcript). A quarter of the scenarios, chosen by a stable hash, are
the held-out part: reported on their own, and never looked at while tuning the notice.

    python3 tests/notice_scenarios.py    # precision and recall per part and per dimension
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import namedtuple

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import support  # noqa: E402  (scripts/ and the repository on sys.path)
from fixtures import claudehome  # noqa: E402
from fixtures.claudehome import bash_record, edit_record, now_ms, tool_result  # noqa: E402
from peerhooks.claude import names, registry  # noqa: E402

VERSIONS = (claudehome.CURRENT_VERSION, claudehome.CLI_VERSION)
CALLERS = ("main", "subagent", "codex")
WRITERS = ("peer", "peer-bash", "peer-before-clear", "peer-subagent", "peer-read", "own", "own-before-clear",
           "own-finished-subagent", "own-running-subagent", "caller-subagent", "nobody", "peer-then-own")
# committed-then-changed: a change nobody's transcript shows after the commit; ...-by-own: this
# session's main thread changed the file after the commit (its record says so).
STATES = ("untracked", "modified", "staged", "committed", "stashed", "reverted", "committed-then-changed",
          "committed-then-changed-by-own")
UNCOMMITTED = ("untracked", "modified", "staged")
CLAUDE_TOOLS = ("Write", "Edit", "MultiEdit", "NotebookEdit")
PEER, SELF = "shop-peer", "shop-self"
FINISHED, RUNNING, CALLING = "f0000000000000001", "r0000000000000002", "c0000000000000003"
HELD_OUT_EVERY = 4

Scenario = namedtuple("Scenario", "version caller writer state tool rel held_out")
Outcome = namedtuple("Outcome", "scenario expected told text")  # expected, told: sets of party names


def held_out(version, caller, writer, state):
    digest = hashlib.sha256(("%s|%s|%s|%s" % (version, caller, writer, state)).encode()).digest()
    return digest[0] % HELD_OUT_EVERY == 0


def changes_of(item):
    """[(who made a change, whether git still holds that change)] for a scenario."""
    in_tree = item.state in UNCOMMITTED
    if item.writer == "peer-then-own":
        found = [("peer", in_tree), ("own", in_tree)]
    else:
        found = [(item.writer, in_tree)]
    if item.state == "committed-then-changed-by-own":
        found.append(("own", True))
    return found


def expected_parties(item):
    """The parties a correct notice names for a scenario: each whose change is still in the tree."""
    return {label for label in (party_label(who, item.caller, item.version) for who, in_tree in changes_of(item)
                                if in_tree) if label}


def party_label(writer, caller, version):
    """The name the notice gives the writer's party, or None when the writer's change is this
    caller's own (or no change at all): the rules of identity.parties, written out."""
    if writer in ("peer-read", "nobody"):
        return None
    if writer.startswith("peer"):
        return PEER
    if caller == "codex":  # a Codex session is in no registry: the Claude session S is a peer
        return SELF
    if caller == "main":
        # a subagent is a party while it runs; 2.1.197's run in the foreground, so none runs while
        # the main thread makes a call (identity.is_running)
        running = writer == "own-running-subagent" and version != claudehome.CLI_VERSION
        return "%s/subagent-%s" % (SELF, RUNNING[:8]) if running else None
    if writer == "caller-subagent":
        return None
    if writer == "own-running-subagent":
        return "%s/subagent-%s" % (SELF, RUNNING[:8])
    return "this session's main thread"  # own, before its /clear, finished subagents: the main thread's


def scenarios():
    found = []
    for version in VERSIONS:
        for caller in CALLERS:
            index = 0
            for writer in WRITERS:
                if writer == "caller-subagent" and caller != "subagent":
                    continue
                for state in STATES:
                    tool = "apply_patch" if caller == "codex" else CLAUDE_TOOLS[index % len(CLAUDE_TOOLS)]
                    rel = "src/%s/%s.py" % (writer, state)
                    found.append(Scenario(version, caller, writer, state, tool, rel,
                                          held_out(version, caller, writer, state)))
                    index += 1
    return found


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), check=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True).stdout


class World:
    """One repository per (version, caller): a live peer P and this session S, each with an earlier
    id from before a /clear (remembered as names.py remembers it), S with a finished, a running and
    (for a subagent caller) a calling subagent, P with a subagent; one file per (writer, state)."""

    def __init__(self, claude, root, version, caller, items):
        self.claude, self.version, self.caller, self.items = claude, version, caller, items
        tracked = {s.rel: "x = 1\n" for s in items if s.state != "untracked"}
        tracked["README.md"] = "scenarios\n"
        self.repo = claudehome.make_repo(os.path.join(root, "%s-%s" % (version.replace(".", "_"), caller)), tracked)
        # Every change is made after the commit that made its file, and before the commits that
        # take it (git keeps seconds): the first commit is dated an hour back, the records after it.
        made = int(time.time()) - 3600
        subprocess.run(["git", "-C", self.repo, "commit", "-q", "--amend", "--no-edit", "--date=@%d" % made],
                       check=True, env=dict(os.environ, GIT_COMMITTER_DATE="@%d" % made))
        start = (made + 1) * 1000
        self.at = iter(range(start, start + 100000, 10))
        self.peer = self.session(PEER, "p")
        self.me = self.session(SELF, "s")
        self.codex_id = "01a2334e-%s-0000-codex-session" % version.replace(".", "")
        self.transcripts = {}
        self.write_records()
        self.apply_states()

    def session(self, name, letter):
        """A live session cleared once: its earlier id, then its current one, remembered by process."""
        process = self.claude.spawn()
        world = "%s-%s" % (self.version.replace(".", ""), self.caller)
        ids = ["%s-%s-before-clear" % (letter, world), "%s-%s-after-clear" % (letter, world)]
        for session_id in ids:
            self.claude.write_session_files(session_id, self.repo, prompts=["work on the %s scenarios now" % name],
                                            version=self.version)
            self.claude.registry_entry(process.pid, session_id, self.repo, name=name, version=self.version)
            names.remember(self.claude.home, registry.read_sessions(self.claude.home), now_ms())
        return ids

    def transcript(self, session_id):
        return self.claude.transcript_path(session_id, self.repo)

    def subagent(self, session_id, agent_id, finished):
        """A subagent transcript of a session (its meta as the version writes it) and its path."""
        folder = os.path.join(self.transcript(session_id)[:-len(".jsonl")], "subagents")
        os.makedirs(folder, exist_ok=True)
        meta = {"agentType": "general-purpose", "description": "scenario %s" % agent_id[:1], "toolUseId": "toolu_" + agent_id}
        if self.version != claudehome.CLI_VERSION:
            meta["finished"] = finished
        with open(os.path.join(folder, "agent-%s.meta.json" % agent_id), "w", encoding="utf-8") as handle:
            json.dump(meta, handle)
        if finished and self.version == claudehome.CLI_VERSION:  # 2.1.197: its result came back
            record = tool_result(session_id, self.repo, "done", next(self.at))
            record["message"]["content"][0]["tool_use_id"] = "toolu_" + agent_id
            with open(self.transcript(session_id), "a", encoding="utf-8") as handle:  # compact, as the client writes
                handle.write(json.dumps(record, separators=(",", ":")) + "\n")
        return os.path.join(folder, "agent-%s.jsonl" % agent_id)

    def write_records(self):
        peer_sub = self.subagent(self.peer[1], "a0000000000000009", False)
        own_subs = {"own-finished-subagent": self.subagent(self.me[1], FINISHED, True),
                    "own-running-subagent": self.subagent(self.me[1], RUNNING, False),
                    "caller-subagent": self.subagent(self.me[1], CALLING, False)}
        for item in self.items:
            path = os.path.join(self.repo, item.rel)
            at = next(self.at)
            writer = item.writer
            if writer == "nobody":
                continue
            if writer == "peer-then-own":
                for session_id in (self.peer[1], self.me[1]):
                    self.claude.append_records(session_id, self.repo, [edit_record(session_id, self.repo, path,
                                                                                   next(self.at))], self.version)
                continue
            session = self.peer if writer.startswith("peer") else self.me
            session_id = session[0] if writer.endswith("before-clear") else session[1]
            if writer == "peer-bash":
                record = bash_record(session_id, self.repo, "printf 'x = 2\\n' > %s" % item.rel, at)
            else:
                record = edit_record(session_id, self.repo, path, at, tool="Read" if writer == "peer-read" else "Edit")
            if writer in own_subs or writer == "peer-subagent":
                target = own_subs.get(writer, peer_sub)
                with open(target, "a", encoding="utf-8") as handle:
                    handle.write(json.dumps(dict(record, isSidechain=True)) + "\n")
            else:
                self.claude.append_records(session_id, self.repo, [record], self.version)

    def apply_states(self):
        """Leave each file as its state says, with one git call per kind of change (the records
        lie before, the commits are made now)."""
        by_state = {}
        for item in self.items:
            by_state.setdefault(item.state, []).append(item.rel)
            claudehome.leave_changed(self.repo, [item.rel], "x = 2  # %s's change\n" % item.writer)
        later = by_state.get("committed-then-changed", []) + by_state.get("committed-then-changed-by-own", [])
        commit = by_state.get("committed", []) + later
        if by_state.get("staged") or commit:
            git(self.repo, "add", "--", *(by_state.get("staged", []) + commit))
        if commit:
            git(self.repo, "commit", "-qm", "the writers' changes", "--", *commit)
        if by_state.get("stashed"):
            git(self.repo, "stash", "push", "-q", "--", *by_state["stashed"])
        if by_state.get("reverted"):
            git(self.repo, "checkout", "-q", "--", *by_state["reverted"])
        claudehome.leave_changed(self.repo, later, "x = 3  # a change after the commit\n")
        by_own = by_state.get("committed-then-changed-by-own", [])
        if by_own:  # the main thread's change after the commit, two seconds on (git keeps seconds)
            later_ms = now_ms() + 2000
            self.claude.append_records(self.me[1], self.repo, [
                edit_record(self.me[1], self.repo, os.path.join(self.repo, rel), later_ms) for rel in by_own], self.version)
        changed = {line[3:] for line in git(self.repo, "status", "--porcelain", "--untracked-files=all").splitlines()}
        for item in self.items:  # the labels' premise, checked against git itself
            dirty = item.state in UNCOMMITTED + ("committed-then-changed", "committed-then-changed-by-own")
            if (item.rel in changed) != dirty:
                raise AssertionError("%s: git says %s" % (item, "changed" if item.rel in changed else "clean"))

    def payload(self, item):
        path = os.path.join(self.repo, item.rel)
        if self.caller == "codex":
            return {"session_id": self.codex_id, "transcript_path": "/nonexistent/rollout.jsonl", "cwd": self.repo,
                    "hook_event_name": "PreToolUse", "model": "gpt-5.5", "tool_name": "apply_patch",
                    "tool_input": {"command": "*** Begin Patch\n*** Update File: %s\n@@\n-x = 2\n+x = 4\n*** End Patch\n"
                                   % item.rel}, "tool_use_id": "call_1"}
        tool_input = {"file_path": path, "content": "x = 4\n"}
        if item.tool == "Edit":
            tool_input = {"file_path": path, "old_string": "x", "new_string": "y", "replace_all": False}
        elif item.tool == "MultiEdit":
            tool_input = {"file_path": path, "edits": [{"old_string": "x", "new_string": "y"}]}
        elif item.tool == "NotebookEdit":
            tool_input = {"notebook_path": path, "new_source": "x = 4"}
        payload = {"session_id": self.me[1], "transcript_path": self.transcript(self.me[1]), "cwd": self.repo,
                   "hook_event_name": "PreToolUse", "tool_name": item.tool, "tool_input": tool_input,
                   "tool_use_id": "toolu_1"}
        if self.caller == "subagent":
            payload.update(agent_id=CALLING, agent_type="general-purpose")
        return payload


def told_about(text, item):
    """The parties a notice says hold uncommitted work in the item's file (a list: twice is wrong)."""
    prefix = "peerhooks: %s holds uncommitted work of " % item.rel
    found = []
    for line in (text or "").splitlines():
        if line.startswith(prefix):
            rest = line[len(prefix):]
            if rest.startswith("this session's main thread"):
                found.append("this session's main thread")
            else:
                found.append(rest.split(",", 1)[0].split(" (", 1)[0])
    return found


def run(items=None):
    """[Outcome] of every scenario (each world built in a temporary home of its own)."""
    items = scenarios() if items is None else items
    root = os.path.realpath(tempfile.mkdtemp(prefix="peerhooks-notice-scenarios-"))
    claude = claudehome.ClaudeHome(os.path.join(root, "home"))
    outcomes = []
    try:
        worlds = {}
        for item in items:
            worlds.setdefault((item.version, item.caller), []).append(item)
        for (version, caller), mine in sorted(worlds.items()):
            world = World(claude, root, version, caller, mine)
            args = ["--host", "codex"] if caller == "codex" else []
            for item in mine:
                result = support.run_script("edit_notice.py", world.payload(item), claude.env(), cwd=world.repo,
                                            args=args)
                if result.returncode != 0 or result.stderr:
                    raise AssertionError("%s: exit %d, %s" % (item, result.returncode, result.stderr))
                text = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"] if result.stdout else ""
                outcomes.append(Outcome(item, expected_parties(item), told_about(text, item), text))
    finally:
        claude.close()
        import shutil

        shutil.rmtree(root, ignore_errors=True)
    return outcomes


def scores(outcomes):
    """(true positives, false positives, false negatives) over (file, party) pairs: a notice line
    naming an expected party once is a true positive; a party not expected, or named twice, a
    false positive; an expected party not named, a false negative."""
    tp = fp = fn = 0
    for outcome in outcomes:
        named = set()
        for party in outcome.told:
            if party in outcome.expected and party not in named:
                tp += 1
            else:
                fp += 1
            named.add(party)
        fn += len(outcome.expected - named)
    return tp, fp, fn


def ratio(numerator, denominator):
    return "%.3f" % (numerator / denominator) if denominator else "-"


def table(outcomes):
    """Precision and recall per part and per dimension, as Markdown."""
    rows = ["| part | scenarios | expected notices | told correctly | wrong notices | missed | precision | recall |",
            "|---|---|---|---|---|---|---|---|"]

    def row(label, chosen):
        tp, fp, fn = scores(chosen)
        expected = sum(len(o.expected) for o in chosen)
        rows.append("| %s | %d | %d | %d | %d | %d | %s | %s |" % (label, len(chosen), expected, tp, fp, fn,
                                                                  ratio(tp, tp + fp), ratio(tp, tp + fn)))

    row("all", outcomes)
    row("tuned on", [o for o in outcomes if not o.scenario.held_out])
    row("held out", [o for o in outcomes if o.scenario.held_out])
    for field, values in (("version", VERSIONS), ("caller", CALLERS), ("state", STATES), ("writer", WRITERS)):
        for value in values:
            chosen = [o for o in outcomes if getattr(o.scenario, field) == value]
            if chosen:
                row("%s %s" % (field, value), chosen)
    for tool in CLAUDE_TOOLS + ("apply_patch",):
        row("tool %s" % tool, [o for o in outcomes if o.scenario.tool == tool])
    return "\n".join(rows)


if __name__ == "__main__":
    started = time.monotonic()
    results = run()
    print(table(results))
    print("\n%d scenarios in %.1f s" % (len(results), time.monotonic() - started))
    for outcome in results:
        if set(outcome.told) != outcome.expected or len(outcome.told) != len(set(outcome.told)):
            print("WRONG:", outcome.scenario, sorted(outcome.expected), outcome.told)
