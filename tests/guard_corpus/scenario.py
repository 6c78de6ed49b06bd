"""Builds a world (worlds.py) for real: the shared base every world starts from, then each session's
tool calls replayed in time order, and, for the guard's runs, the transcripts, registry entries and
live processes Claude Code would leave.

    ~/                      HOME (and ~/.claude, the Claude home)
    ~/work/app              the shared checkout (branch main)
    ~/work/app-feature      a linked worktree (branch feature)
    ~/work/app-self         a linked worktree (branch self-wt) self sometimes runs from
    ~/work/origin.git       a bare "origin", one commit ahead (so fetch/pull/push work offline)
    ~/work/other            an unrelated repository nobody else works in
    ~/app-link              a symlink to ~/work/app

Every world has the same folders and tracked files, so a corpus line's cwd exists in each. Git
objects are deterministic (fixed dates), so every build of a world has the same commits; paths are
all under HOME so a line can say `~/work/app` or `$HOME/work/app`.

What the oracle protects is read from git once the replay is done: every path an owner other than
self touched that is not clean now (its `Item`), the stash entries they pushed that are still there,
each such owner's checkout (its branch, its commit still in it, and a linked worktree's existence).
A path self changed too is judged by lines: each owner's `markers` are the lines its own calls added.
"""
import os
import subprocess
import sys
from typing import NamedTuple, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
for folder in (HERE, os.path.dirname(HERE), REPO):
    if folder not in sys.path:
        sys.path.insert(0, folder)

from fixtures.claudehome import (ClaudeHome, LiveSession, MINUTE_MS, agent_record, bash_record,  # noqa: E402
                                 clear_records, edit_record, now_ms, subagent_meta, tool_result, user_prompt)
import pathstate  # noqa: E402
import worlds  # noqa: E402
from worlds import Bash, Edit, Rewrite  # noqa: E402

WORK = "work"  # relative to HOME
SELF = "self"
FIXED_DATE = "2026-11-20T10:00:00+00:00"
GIT_IDENTITY = {"GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.invalid",
                "GIT_COMMITTER_NAME": "Dev", "GIT_COMMITTER_EMAIL": "dev@example.invalid",
                "GIT_AUTHOR_DATE": FIXED_DATE, "GIT_COMMITTER_DATE": FIXED_DATE}
RECORD_STEP_MS = 20 * 1000  # transcripts span the last hour, one record every 20 s

HANDLERS = "".join("def handle_%s(request):\n    return request\n%s" % (verb, "\n\n" if verb != "delete" else "")
                   for verb in ("get", "head", "post", "put", "delete"))  # hunks 16 lines apart
TRACKED = {
    "README.md": "# app\n\nA small service.\n",
    "CHANGELOG.md": "# Changelog\n\n## 0.1\n- first release\n",
    "Makefile": (".PHONY: test commit status\ntest:\n\tpython -m pytest\ncommit:\n\tgit add -A && git commit -qm save\n"
                 "status:\n\tgit status --short\n"),
    "package.json": ('{"name": "app", "scripts": {"test": "pytest -q", "commit": "git add -A && git commit -qm wip", '
                     '"clean": "git clean -fdq", "status": "git status --short"}}\n'),
    "scripts/commit.sh": "#!/bin/sh\ngit add -A\ngit commit -qm \"${1:-wip}\"\n",
    "Dockerfile": "FROM python:3.12-slim\nCOPY . /app\n",
    "setup.cfg": "[metadata]\nname = app\n",
    ".gitignore": "*.log\nbuild/\n__pycache__/\n",
    "src/__init__.py": "",
    "src/app.py": "def main():\n    return 0\n",
    "src/util.py": "def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n",
    "src/api.py": "def get(path):\n    return path\n",
    "src/routes.py": "ROUTES = []\n",
    "src/models.py": "class User:\n    pass\n",
    "src/handlers.py": HANDLERS,
    "lib/helpers.py": "def helper():\n    return 1\n",
    "lib/format.py": "def fmt(x):\n    return str(x)\n",
    "docs/index.md": "# Docs\n",
    "docs/usage.md": "# Usage\n\nRun it.\n",
    "docs/guide.md": ("# Guide\n\n## Install\n\nRun pip install.\n\n## Configure\n\nEdit config/settings.json.\n\n"
                      "## Deploy\n\nRun scripts/deploy.sh.\n\n## Troubleshoot\n\nRead the logs.\n"),
    "tests/test_app.py": "def test_main():\n    assert True\n",
    "scripts/deploy.sh": "#!/bin/sh\necho deploy\n",
    "config/settings.json": "{\"debug\": false}\n",
    "services/billing/__init__.py": "",
    "services/billing/invoice.py": "def total(items):\n    return sum(items)\n",
    "services/billing/tax.py": "RATE = 0.2\n",
    "services/shipping/rates.py": "RATES = {}\n",
}
# Commits between the import and the sessions' work, on files nobody is working on.
HISTORY = [("docs/index.md", "\nSee usage.\n"), ("setup.cfg", "version = 0.1\n"),
           ("config/settings.json", "\n"), ("scripts/deploy.sh", "echo done\n")]
OTHER_REPO_FILES = {"README.md": "other\n", "main.go": "package main\n"}


def git_env(home):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "CLAUDE"))}
    env.update(GIT_IDENTITY, HOME=home, GIT_CONFIG_NOSYSTEM="1", LC_ALL="C")
    return env


class Item(NamedTuple):
    """One path holding an owner's work, as the oracle watches it."""
    owner: str  # the key of the owner whose work it is
    top: str  # the checkout's toplevel (absolute)
    path: str  # relative to top
    markers: Tuple[str, ...] = ()  # this owner's lines, in a file another owner changed too


class Scenario:
    """One built world: where things are, whose work is where, and (live) the sessions."""

    def __init__(self, home, claude, world):
        self.home, self.claude, self.world = home, claude, world
        self.work = os.path.join(home, WORK)
        self.checkout = self.top(worlds.CHECKOUT)
        self.feature_wt = self.top(worlds.FEATURE_WT)
        self.self_wt = self.top(worlds.SELF_WT)
        self.items = ()  # every other owner's uncommitted work
        self.self_items = ()  # everything self touched (clean or not), for what a line did to it
        self.stashes = {}  # {stash commit: owner key} of the entries other owners pushed
        self.guarded = {}  # {toplevel: (owner keys)}: checkouts other owners work in
        self.stake = {}  # {owner key: {path or stash@{N}: state}} before any line runs
        self.sessions = {}  # {owner key: LiveSession} of the registered sessions
        self.alone = False  # peers ended and, for a subagent, judged as its main thread

    def top(self, name):
        return os.path.join(self.work, name)

    def cwd(self, relative):
        """A corpus cwd (relative to the shared checkout) as an absolute path."""
        return os.path.normpath(os.path.join(self.checkout, relative))

    def toplevel_of(self, path):
        """The checkout of the world's repository holding `path`, or None."""
        for top in (self.checkout, self.feature_wt, self.self_wt):
            if path == top or path.startswith(top + os.sep):
                return top
        return None

    def owner_names(self, key):
        """What a refusal may call an owner: a session's registry name and id; a subagent's id and task."""
        owner = self.world.owner(key)
        if owner.is_subagent:
            return (owner.agent_id, "agent-" + owner.agent_id, owner.name)
        ids = (owner.session_id, owner.cleared_to) if owner.cleared_to else (owner.session_id,)
        return (owner.name,) + tuple(i for i in ids) + tuple(i[:8] for i in ids)

    def judged_session(self):
        """(session owner, agent id or None) of the tool call the guard judges."""
        judged = self.world.judged
        if not judged.is_subagent:
            return judged, None
        return self.world.main_of(judged), None if self.alone else judged.agent_id

    def transcript(self, owner):
        session_id = owner.cleared_to or owner.session_id
        return self.claude.transcript_path(session_id, self.top(owner.checkout))

    def stop_peers(self):
        own = self.judged_session()[0].key
        for key, session in self.sessions.items():
            if key != own:
                session.stop()

    def go_alone(self):
        """No live peer: the other sessions end; a subagent's siblings finish and the main thread is judged."""
        self.stop_peers()
        for owner in self.world.owners:
            if owner.is_subagent and not owner.finished:
                folder = self.top(self.world.main_of(owner).checkout)
                self.claude.write_subagent_meta(owner.session_id, folder, owner.agent_id, subagent_meta(
                    self.world.version, owner.name, _tool_use_id(owner), finished=True))
        self.alone = True

    def close(self):
        self.claude.close()


def _git(cwd, env, *args):
    subprocess.run(["git"] + list(args), cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def _write(root, relative, content):
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(content)


def _read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _new_repo(path, env, files, message):
    """A repository on `main` whose one commit holds `files`, without git's sample hooks (every copy
    the oracle makes pays for each file)."""
    os.makedirs(path)
    _git(path, env, "init", "-q", "-b", "main", "--template=")
    for folder in ("hooks", "info"):
        os.makedirs(os.path.join(path, ".git", folder), exist_ok=True)
    for relative, content in files.items():
        _write(path, relative, content)
    _git(path, env, "add", "--all")
    _git(path, env, "commit", "-q", "-m", message)


def build(home, world, live=True, scripts=None):
    """Build `world` under `home` (created; must not exist). live: also the transcripts, and real
    processes with registry entries for every session (the guard needs them; the oracle does not);
    `scripts`, the folder whose peers.py runs the SessionStart hooks a /clear needs."""
    os.makedirs(home)
    home = os.path.realpath(home)
    env = git_env(home)
    with open(os.path.join(home, ".gitconfig"), "w") as handle:
        handle.write("[user]\n\tname = Dev\n\temail = dev@example.invalid\n"
                     "[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n"
                     "[advice]\n\tdetachedHead = false\n")
    scn = Scenario(home, ClaudeHome(home, version=world.version), world)
    _base(scn, env)
    replay = _Replay(scn, env, now_ms())
    replay.run(world.early)
    _git(scn.checkout, env, "worktree", "add", "-q", "-b", "feature", scn.feature_wt)
    _git(scn.checkout, env, "worktree", "add", "-q", "-b", "self-wt", scn.self_wt)
    _git(scn.checkout, env, "branch", "-q", "release-1.2")
    replay.run(world.steps)
    other = os.path.join(scn.work, "other")
    _new_repo(other, env, OTHER_REPO_FILES, "Other repo")
    _write(other, "main.go", "package main\n\nfunc main() {}\n")
    os.symlink(os.path.join(WORK, worlds.CHECKOUT), os.path.join(home, "app-link"))
    replay.settle()
    if live:
        replay.write_transcripts()
        _register(scn, scripts, replay.end_ms)
    return scn


def _base(scn, env):
    app = scn.checkout
    _new_repo(app, env, TRACKED, "Initial import")
    for number, (relative, line) in enumerate(HISTORY):  # depth for bisect, HEAD~3 and the like
        _write(app, relative, TRACKED[relative] + line)
        _git(app, env, "commit", "-q", "-am", "History %d: %s" % (number + 1, relative))
    _git(scn.work, env, "clone", "-q", "--bare", "--template=", app, "origin.git")
    _git(app, env, "remote", "add", "origin", os.path.join(scn.work, "origin.git"))
    _write(app, "CHANGELOG.md", TRACKED["CHANGELOG.md"] + "\n## 0.2\n- upstream fix\n")
    _git(app, env, "commit", "-q", "-am", "Upstream: changelog for 0.2")
    _git(app, env, "push", "-q", "origin", "main")
    _git(app, env, "fetch", "-q", "origin")
    _git(app, env, "reset", "-q", "--hard", "HEAD~1")
    _git(app, env, "branch", "-q", "--set-upstream-to=origin/main")


def _tool_use_id(owner):
    return "toolu_corpus_%s" % owner.agent_id


class _Replay:
    """Runs each step for real and keeps what the transcripts show and whose work is where."""

    def __init__(self, scn, env, end_ms):
        self.scn, self.env, self.end_ms = scn, env, end_ms
        self.at = end_ms - 60 * MINUTE_MS
        self.records = {}  # {owner key: [record]}
        self.touched = {}  # {(work key, toplevel, path): set of lines its calls added}
        self.stashed = {}  # {stash commit: work key of the owner that pushed it}

    def _next_ms(self):
        self.at += RECORD_STEP_MS
        return self.at

    def _say(self, owner, record):
        if owner.key not in self.records:
            self.records[owner.key] = [user_prompt(owner.session_id, self.scn.top(owner.checkout), owner.prompt,
                                                   self._next_ms())]
            if owner.is_subagent:
                parent = self.scn.world.main_of(owner)
                self._say(parent, agent_record(owner.session_id, self.scn.top(parent.checkout), owner.name,
                                               owner.prompt, self._next_ms(), _tool_use_id(owner)))
        self.records[owner.key].append(record)

    def _touch(self, owner, full, before, after):
        top = self.scn.toplevel_of(full)
        added = set((after or "").splitlines()) - set((before or "").splitlines())
        self.touched.setdefault((owner.work_of or owner.key, top, os.path.relpath(full, top)), set()).update(added)

    def run(self, steps):
        for step in steps:
            owner = self.scn.world.owner(step.owner)
            base, action = self.scn.top(owner.checkout), step.action
            if isinstance(action, Bash):
                stash = pathstate.stash_list(base)
                subprocess.run(["bash", "-c", action.command], cwd=base, env=self.env, check=True,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
                key = owner.work_of or owner.key
                for commit in pathstate.stash_list(base):
                    if commit not in stash:
                        self.stashed[commit] = key
                for path in action.touches:
                    self._touch(owner, os.path.join(base, path), None, None)
                self._say(owner, bash_record(owner.session_id, base, action.command, self._next_ms()))
                self._say(owner, tool_result(owner.session_id, base, "", self._next_ms()))
                continue
            full = os.path.normpath(os.path.join(base, action.path))
            before = _read(full) if os.path.exists(full) else None
            if isinstance(action, Edit):
                assert action.old in before, (self.scn.world.name, action)
                after, tool, said = before.replace(action.old, action.new, 1), "Edit", action.new
            elif isinstance(action, Rewrite):
                assert action.old in before, (self.scn.world.name, action)
                after = before.replace(action.old, action.new, 1)
                tool, said = "Write", after
            else:
                after, tool, said = action.content, "Write", action.content
            _write(base, action.path, after)
            self._touch(owner, full, before, after)
            if getattr(action, "recorded", True):
                old = action.old if isinstance(action, Edit) else "a"
                self._say(owner, edit_record(owner.session_id, base, full, self._next_ms(), tool=tool, content=said,
                                             old=old))

    def settle(self):
        """Whose work is where now, read from git: the scenario's items, stash entries, checkouts."""
        scn, env = self.scn, self.env
        states = {}
        for top in {top for _k, top, _p in self.touched}:
            tree = pathstate.tree_blobs(top, env, "HEAD")
            index = pathstate.index_blobs(top, env)
            for key, t, path in self.touched:
                if t == top:
                    states[(t, path)] = pathstate.PathState(tree.get(path), index.get(path), pathstate.work_blob(top, path))
        by_path = {}
        for key, top, path in self.touched:
            by_path.setdefault((top, path), []).append(key)
        items, self_items = [], []
        for (key, top, path), added in self.touched.items():
            shared = len(by_path[(top, path)]) > 1 and SELF in by_path[(top, path)]
            item = Item(key, top, path, tuple(sorted(added)) if shared else ())
            if key == SELF:
                self_items.append(item)
            elif pathstate.describe(states[(top, path)]) not in ("clean", "absent"):
                items.append(item)
        scn.items, scn.self_items = tuple(items), tuple(self_items)
        ignored = set()
        for top in {i.top for i in items}:
            out = pathstate.git(top, env, "check-ignore", "--", *[i.path for i in items if i.top == top]) or b""
            ignored.update((top, p) for p in out.decode().splitlines())
        for item in items:
            scn.stake.setdefault(item.owner, {})[item.path] = pathstate.describe(states[(item.top, item.path)],
                                                                               (item.top, item.path) in ignored)
        stash = pathstate.stash_list(scn.checkout)
        scn.stashes = {commit: key for commit, key in self.stashed.items() if key != SELF and commit in stash}
        for commit, key in scn.stashes.items():
            scn.stake.setdefault(key, {})["stash@{%d}" % stash.index(commit)] = "stash"
        for owner in scn.world.owners:
            key = owner.work_of or owner.key
            if key != SELF:
                top = scn.top(owner.checkout)
                scn.guarded[top] = tuple(sorted(set(scn.guarded.get(top, ()) + (key,))))

    def write_transcripts(self):
        scn, claude, version = self.scn, self.scn.claude, self.scn.world.version
        for owner in scn.world.owners:
            records = self.records.get(owner.key, [])
            cwd = scn.top(scn.world.main_of(owner).checkout)
            if owner.is_subagent:
                claude.append_subagent_records(owner.session_id, cwd, owner.agent_id, records)
                claude.write_subagent_meta(owner.session_id, cwd, owner.agent_id, subagent_meta(
                    version, owner.name, _tool_use_id(owner), finished=owner.finished))
                continue
            if owner.cleared_to:
                # The transcript /clear ended opens with a last-prompt record without lastPrompt (samples).
                claude.append_records(owner.session_id, cwd, [
                    {"type": "last-prompt", "leafUuid": records[-1]["uuid"], "sessionId": owner.session_id}],
                    version=worlds.CLI_VERSION)
            claude.append_records(owner.session_id, cwd, records)
            if owner.cleared_to:  # written as the client writes them, not re-shaped as typed prompts
                claude.append_records(owner.cleared_to, cwd, clear_records(owner.cleared_to, cwd, self.end_ms, version),
                                      version=worlds.CLI_VERSION)


def _register(scn, scripts, at_ms):
    """Real processes and registry entries for every session; a session that ran /clear gets its
    names-table entries as the product writes them: peers.py's SessionStart hook at startup, then
    the registry rewritten with the new id, then the hook again with source `clear`."""
    claude = scn.claude
    for owner in scn.world.owners:
        if owner.is_subagent:
            continue
        process = claude.spawn()
        cwd = scn.top(owner.checkout)
        registry = claude.registry_entry(process.pid, owner.session_id, cwd, name=owner.name)
        scn.sessions[owner.key] = LiveSession(process.pid, owner.session_id, owner.name, cwd,
                                              claude.transcript_path(owner.session_id, cwd), registry, process)
    cleared = [o for o in scn.world.owners if o.cleared_to]
    if not cleared:
        return
    for owner in scn.world.owners:
        if owner.key in scn.sessions:
            _session_start(scn, scripts, scn.sessions[owner.key], "startup")
    for owner in cleared:
        scn.sessions[owner.key] = claude.clear(scn.sessions[owner.key], owner.cleared_to, at_ms)
        _session_start(scn, scripts, scn.sessions[owner.key], "clear")


def _session_start(scn, scripts, session, source):
    """peers.py --hook as Claude Code runs it for `session` (payload and environment of 2.1.332)."""
    payload = {"session_id": session.session_id, "transcript_path": session.transcript, "cwd": session.cwd,
               "hook_event_name": "SessionStart", "source": source}
    if source == "startup":
        payload["model"] = "claude-opus-5-5"
    env = scn.claude.env(CLAUDECODE="1", CLAUDE_CODE_ENTRYPOINT="cli", CLAUDE_PROJECT_DIR=session.cwd,
                         CLAUDE_CODE_SESSION_ID=session.session_id, CLAUDE_PID=str(session.pid),
                         CLAUDE_CODE_CHILD_SESSION="1")
    import support  # how the suite starts a hook: under a simulated platform, through its launcher

    subprocess.run(support.started(os.path.join(scripts, "peers.py")) + ["--hook"], cwd=session.cwd, env=env,
                   input=support.payload_bytes(payload), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   timeout=30, check=False)
