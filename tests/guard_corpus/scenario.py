"""The shared checkout every corpus line is judged and executed in: this session ("self") and live
peers working side by side, built with real git and the fixture Claude home.

    ~/                      HOME (and ~/.claude, the Claude home)
    ~/work/app              the shared checkout (branch main): self and peer A work here
    ~/work/app-feature      a linked worktree (branch feature) where peer B is live
    ~/work/app-self         a linked worktree (branch self-wt) self sometimes runs from
    ~/work/origin.git       a bare "origin", one commit ahead (so fetch/pull/push work offline)
    ~/work/other            an unrelated repository nobody else works in
    ~/app-link              a symlink to ~/work/app

Peer A's work in ~/work/app, each kind the guard must protect (PEER_A_PATHS):
staged (src/util.py modified, src/parser.py new), unstaged (src/api.py, src/routes.py, lib/format.py,
src/__init__.py via Edit; lib/helpers.py via `sed -i` in a Bash command), untracked (src/cache.py,
src/errors.py, src/config_loader.py, src/schema.py, lib/io_utils.py via Write; scripts/peer_gen.sh via
a Bash heredoc; lib/retry.py by a subagent; config/peer.yaml written before the peer's last 12
edited files), a stash entry (src/models.py) and its latest commit on main (src/validate.py).
Self's work: src/app.py and docs/usage.md modified, docs/tutorial.md and tests/test_feature.py new;
docs/ and tests/ hold nothing of anyone else's.

Git objects are deterministic (fixed dates), so every build has the same commits and the oracle's
"before" state is the same wherever the scenario lives; file paths are all under HOME so a line can
say `~/work/app` or `$HOME/work/app`.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from fixtures.claudehome import (ClaudeHome, LiveSession, bash_record, edit_record, now_ms,  # noqa: E402
                                 tool_result, user_prompt, MINUTE_MS)

SELF_ID = "5e1f5e1f-0000-4000-8000-000000000001"
PEER_A_ID = "a0a0a0a0-0000-4000-8000-00000000000a"
PEER_B_ID = "b0b0b0b0-0000-4000-8000-00000000000b"
PEER_A_NAME = "app-peer"
PEER_B_NAME = "feature-peer"
SUBAGENT_ID = "a1b2c3d4e5f6a7b8c"

CHECKOUT = "work/app"  # relative to HOME
FEATURE_WT = "work/app-feature"
SELF_WT = "work/app-self"

FIXED_DATE = "2026-11-20T10:00:00+00:00"
GIT_IDENTITY = {"GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.invalid",
                "GIT_COMMITTER_NAME": "Dev", "GIT_COMMITTER_EMAIL": "dev@example.invalid",
                "GIT_AUTHOR_DATE": FIXED_DATE, "GIT_COMMITTER_DATE": FIXED_DATE}

TRACKED = {
    "README.md": "# app\n\nA small service.\n",
    "CHANGELOG.md": "# Changelog\n\n## 0.1\n- first release\n",
    "Makefile": "test:\n\tpython -m pytest\n",
    "Dockerfile": "FROM python:3.12-slim\nCOPY . /app\n",
    "setup.cfg": "[metadata]\nname = app\n",
    ".gitignore": "*.log\nbuild/\n__pycache__/\n",
    "src/__init__.py": "",
    "src/app.py": "def main():\n    return 0\n",
    "src/util.py": "def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n",
    "src/api.py": "def get(path):\n    return path\n",
    "src/routes.py": "ROUTES = []\n",
    "src/models.py": "class User:\n    pass\n",
    "lib/helpers.py": "def helper():\n    return 1\n",
    "lib/format.py": "def fmt(x):\n    return str(x)\n",
    "docs/index.md": "# Docs\n",
    "docs/usage.md": "# Usage\n\nRun it.\n",
    "tests/test_app.py": "def test_main():\n    assert True\n",
    "scripts/deploy.sh": "#!/bin/sh\necho deploy\n",
    "config/settings.json": "{\"debug\": false}\n",
}

# Peer A's work, by the state it is in. (path, content)
PEER_A_STAGED = [("src/util.py", "def clamp(x, lo, hi):\n    # peer: handle lo > hi\n    return max(lo, min(x, hi))\n"),
                 ("src/parser.py", "def parse(text):\n    return text.split()\n")]
PEER_A_UNSTAGED_EDIT = [("src/api.py", "def get(path):\n    # peer: retry\n    return path\n"),
                        ("src/routes.py", "ROUTES = ['/health']\n"),
                        ("lib/format.py", "def fmt(x):\n    return repr(x)\n"),
                        ("src/__init__.py", "__all__ = ['app']\n")]
PEER_A_UNSTAGED_BASH = [("lib/helpers.py", "def helper():\n    return 2\n")]
PEER_A_UNTRACKED_WRITE = [("src/cache.py", "CACHE = {}\n"), ("src/errors.py", "class AppError(Exception):\n    pass\n"),
                          ("src/config_loader.py", "def load():\n    return {}\n"),
                          ("src/schema.py", "SCHEMA = {}\n"), ("lib/io_utils.py", "def read(p):\n    return p\n")]
PEER_A_UNTRACKED_BASH = [("scripts/peer_gen.sh", "#!/bin/sh\necho generated\n")]
PEER_A_UNTRACKED_SUBAGENT = [("lib/retry.py", "def retry(f):\n    return f()\n")]
PEER_A_UNTRACKED_OLD = [("config/peer.yaml", "peer: true\n")]
PEER_A_STASHED = ("src/models.py", "class User:\n    name = ''\n")
PEER_A_COMMITTED = ("src/validate.py", "def validate(req):\n    return bool(req)\n")

PEER_B_WORK = [("README.md", "# app\n\nA small service (feature branch).\n"), ("notes/design.md", "# design\n")]

SELF_MODIFIED = [("src/app.py", "def main():\n    print('self')\n    return 0\n"),
                 ("docs/usage.md", "# Usage\n\nRun it with `make`.\n")]
SELF_NEW = [("docs/tutorial.md", "# Tutorial\n"), ("tests/test_feature.py", "def test_feature():\n    assert 1\n")]
SELF_WT_MODIFIED = [("src/app.py", "def main():\n    return 1  # self worktree\n")]

# Commits between the import and the peer's commit, on files nobody is working on.
HISTORY = [("docs/index.md", "\nSee usage.\n"), ("setup.cfg", "version = 0.1\n"),
           ("config/settings.json", "\n"), ("scripts/deploy.sh", "echo done\n")]

OTHER_REPO_FILES = {"README.md": "other\n", "main.go": "package main\n"}


def peer_a_paths():
    """Every path holding peer A's uncommitted work in the shared checkout."""
    groups = (PEER_A_STAGED, PEER_A_UNSTAGED_EDIT, PEER_A_UNSTAGED_BASH, PEER_A_UNTRACKED_WRITE,
              PEER_A_UNTRACKED_BASH, PEER_A_UNTRACKED_SUBAGENT, PEER_A_UNTRACKED_OLD)
    return [path for group in groups for path, _ in group]


def peer_b_paths():
    return [path for path, _ in PEER_B_WORK]


def git_env(home):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "CLAUDE"))}
    env.update(GIT_IDENTITY, HOME=home, GIT_CONFIG_NOSYSTEM="1", LC_ALL="C")
    return env


def _git(cwd, env, *args):
    subprocess.run(["git"] + list(args), cwd=cwd, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _new_repo(path, env, files, message):
    """A repository on `main` whose one commit holds `files` ({relative path: content})."""
    os.makedirs(path)
    _git(path, env, "init", "-q", "-b", "main")
    for relative, content in files.items():
        _write(path, relative, content)
    _git(path, env, "add", "--all")
    _git(path, env, "commit", "-q", "-m", message)


def _write(root, relative, content):
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(content)


class Scenario:
    """One built scenario: where things are, and the Claude home (close() ends live processes)."""

    def __init__(self, home, claude):
        self.home = home
        self.claude = claude
        self.checkout = os.path.join(home, CHECKOUT)
        self.feature_wt = os.path.join(home, FEATURE_WT)
        self.self_wt = os.path.join(home, SELF_WT)
        self.peers = []

    def cwd(self, relative):
        """A corpus cwd (relative to the shared checkout) as an absolute path."""
        return os.path.normpath(os.path.join(self.checkout, relative))

    def stop_peers(self):
        for peer in self.peers:
            peer.stop()

    def close(self):
        self.claude.close()


def build(home, live=True):
    """Build the scenario under `home` (created; must not exist). live: spawn real processes for
    self and both peers with registry entries (the guard needs them; the oracle does not)."""
    home = os.path.realpath(home) if os.path.exists(home) else os.path.abspath(home)
    os.makedirs(home)
    home = os.path.realpath(home)
    env = git_env(home)
    with open(os.path.join(home, ".gitconfig"), "w") as handle:
        handle.write("[user]\n\tname = Dev\n\temail = dev@example.invalid\n"
                     "[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n"
                     "[advice]\n\tdetachedHead = false\n")
    claude = ClaudeHome(home)
    scenario = Scenario(home, claude)
    app, work = scenario.checkout, os.path.join(home, "work")

    _new_repo(app, env, TRACKED, "Initial import")
    for number, (relative, line) in enumerate(HISTORY):  # depth for bisect, HEAD~3 and the like
        _write(app, relative, TRACKED[relative] + line)
        _git(app, env, "commit", "-q", "-am", "History %d: %s" % (number + 1, relative))
    _git(work, env, "clone", "-q", "--bare", app, "origin.git")
    _git(app, env, "remote", "add", "origin", os.path.join(work, "origin.git"))
    _write(app, "CHANGELOG.md", TRACKED["CHANGELOG.md"] + "\n## 0.2\n- upstream fix\n")
    _git(app, env, "commit", "-q", "-am", "Upstream: changelog for 0.2")
    _git(app, env, "push", "-q", "origin", "main")
    _git(app, env, "fetch", "-q", "origin")
    _git(app, env, "reset", "-q", "--hard", "HEAD~1")
    _git(app, env, "branch", "-q", "--set-upstream-to=origin/main")
    _write(app, PEER_A_COMMITTED[0], PEER_A_COMMITTED[1])
    _git(app, env, "add", PEER_A_COMMITTED[0])
    _git(app, env, "commit", "-q", "-m", "Add request validation")
    _git(app, env, "worktree", "add", "-q", "-b", "feature", scenario.feature_wt)
    _git(app, env, "worktree", "add", "-q", "-b", "self-wt", scenario.self_wt)
    _git(app, env, "branch", "-q", "release-1.2")

    _write(app, PEER_A_STASHED[0], PEER_A_STASHED[1])
    _git(app, env, "stash", "push", "-q", "-m", "wip: models refactor", "--", PEER_A_STASHED[0])
    for relative, content in PEER_A_STAGED:
        _write(app, relative, content)
        _git(app, env, "add", relative)
    for group in (PEER_A_UNSTAGED_EDIT, PEER_A_UNSTAGED_BASH, PEER_A_UNTRACKED_WRITE, PEER_A_UNTRACKED_BASH,
                  PEER_A_UNTRACKED_SUBAGENT, PEER_A_UNTRACKED_OLD, SELF_MODIFIED, SELF_NEW):
        for relative, content in group:
            _write(app, relative, content)
    for relative, content in PEER_B_WORK:
        _write(scenario.feature_wt, relative, content)
    for relative, content in SELF_WT_MODIFIED:
        _write(scenario.self_wt, relative, content)

    other = os.path.join(work, "other")
    _new_repo(other, env, OTHER_REPO_FILES, "Other repo")
    _write(other, "main.go", "package main\n\nfunc main() {}\n")
    os.symlink(os.path.join("work", "app"), os.path.join(home, "app-link"))

    _write_transcripts(claude, scenario)
    if live:
        _register(claude, scenario)
    return scenario


def _write_transcripts(claude, scenario):
    """What each session's transcript shows it did, in the order it did it."""
    app, end = scenario.checkout, now_ms()
    at = iter(range(end - 60 * MINUTE_MS, end, 20 * 1000))
    records = [user_prompt(PEER_A_ID, app, "refactor the request layer and add a parser", next(at))]
    for path, content in PEER_A_UNTRACKED_OLD:
        records.append(edit_record(PEER_A_ID, app, os.path.join(app, path), next(at), tool="Write", content=content))
    records.append(edit_record(PEER_A_ID, app, os.path.join(app, PEER_A_STASHED[0]), next(at)))
    records.append(bash_record(PEER_A_ID, app, "git stash push -m 'wip: models refactor' -- src/models.py", next(at)))
    records.append(edit_record(PEER_A_ID, app, os.path.join(app, PEER_A_COMMITTED[0]), next(at), tool="Write"))
    records.append(bash_record(PEER_A_ID, app, "git add src/validate.py && git commit -m 'Add request validation'",
                               next(at)))
    for path, content in PEER_A_STAGED:
        tool = "Edit" if path in TRACKED else "Write"
        records.append(edit_record(PEER_A_ID, app, os.path.join(app, path), next(at), tool=tool, content=content))
    records.append(bash_record(PEER_A_ID, app, "git add src/util.py src/parser.py", next(at)))
    for path, content in PEER_A_UNTRACKED_WRITE + PEER_A_UNSTAGED_EDIT:
        tool = "Edit" if path in TRACKED else "Write"
        records.append(edit_record(PEER_A_ID, app, os.path.join(app, path), next(at), tool=tool, content=content))
    records.append(bash_record(PEER_A_ID, app, "sed -i 's/return 1/return 2/' lib/helpers.py", next(at)))
    records.append(bash_record(PEER_A_ID, app, "mkdir -p scripts && cat > scripts/peer_gen.sh <<'EOF'\n#!/bin/sh\n"
                               "echo generated\nEOF", next(at)))
    records.append(tool_result(PEER_A_ID, app, "", next(at)))
    claude.append_records(PEER_A_ID, app, records)

    subagent = os.path.join(claude.project_dir(app), PEER_A_ID, "subagents")
    os.makedirs(subagent)
    sub_records = [user_prompt(PEER_A_ID, app, "write a retry helper in lib/", next(at))]
    for path, content in PEER_A_UNTRACKED_SUBAGENT:
        sub_records.append(edit_record(PEER_A_ID, app, os.path.join(app, path), next(at), tool="Write", content=content))
    _append_jsonl(os.path.join(subagent, "agent-%s.jsonl" % SUBAGENT_ID), sub_records, sidechain=True)
    with open(os.path.join(subagent, "agent-%s.meta.json" % SUBAGENT_ID), "w") as handle:
        handle.write('{"agentType":"general-purpose","description":"retry helper","spawnDepth":1}')

    feature = scenario.feature_wt
    records = [user_prompt(PEER_B_ID, feature, "document the feature design", next(at))]
    for path, content in PEER_B_WORK:
        tool = "Edit" if path in TRACKED else "Write"
        records.append(edit_record(PEER_B_ID, feature, os.path.join(feature, path), next(at), tool=tool, content=content))
    claude.append_records(PEER_B_ID, feature, records)

    records = [user_prompt(SELF_ID, app, "add a tutorial and print from main", next(at))]
    for path, content in SELF_MODIFIED + SELF_NEW:
        tool = "Edit" if path in TRACKED else "Write"
        records.append(edit_record(SELF_ID, app, os.path.join(app, path), next(at), tool=tool, content=content))
    claude.append_records(SELF_ID, app, records)


def _append_jsonl(path, records, sidechain=False):
    with open(path, "a", encoding="utf-8") as handle:
        for record in records:
            if sidechain:
                record = dict(record, isSidechain=True, agentId=SUBAGENT_ID)
            handle.write(json.dumps(record) + "\n")


def _register(claude, scenario):
    """Real processes and registry entries for self and both peers."""
    for session_id, cwd, name in ((SELF_ID, scenario.checkout, "app-self-session"),
                                  (PEER_A_ID, scenario.checkout, PEER_A_NAME),
                                  (PEER_B_ID, scenario.feature_wt, PEER_B_NAME)):
        process = claude.spawn()
        registry = claude.registry_entry(process.pid, session_id, cwd, name=name)
        session = LiveSession(process.pid, session_id, name, cwd, claude.transcript_path(session_id, cwd),
                              registry, process)
        if session_id != SELF_ID:
            scenario.peers.append(session)
