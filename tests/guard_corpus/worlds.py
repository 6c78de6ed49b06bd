"""The repository states ("worlds") every corpus line is executed and judged in.

Every world starts from one base (scenario.py builds it: the checkout ~/work/app with its history,
a bare origin, the linked worktrees ~/work/app-feature and ~/work/app-self, an unrelated repository)
and then replays what each session did, in time order, as the tool calls its transcript shows:
`Edit` (one exact old/new string), `Write` (the whole file) and `Bash` (a command run for real in the
session's checkout). What git holds at the end (staged, unstaged, untracked, ignored, deleted,
renamed, stashed, committed) is what those calls did, never written by hand, so a world cannot claim
a state its transcript could not have produced.

A world is data: its sessions (`Owner`) and their steps. Only the judged session is `self`; every
other owner's uncommitted work is what the oracle protects (a finished subagent's files are its main
thread's). The issue-18 states (mixed, a subfolder peer, untracked-only, staged deletions) come first,
then a peer on a linked worktree, a peer whose only work is stashed, work that is committed or staged
identically, a file both sessions changed, a subagent beside its sibling and its main thread, and a
peer that ran /clear.
"""
from typing import NamedTuple, Optional, Tuple

CLI_VERSION = "2.1.197"
CURRENT_VERSION = "2.1.332"

SELF_ID = "5e1f5e1f-0000-4000-8000-000000000001"
PEER_A_ID = "a0a0a0a0-0000-4000-8000-00000000000a"
PEER_A_CLEARED_ID = "a2a2a2a2-0000-4000-8000-00000000000a"  # peer A's id after /clear
PEER_B_ID = "b0b0b0b0-0000-4000-8000-00000000000b"
PEER_P_ID = "c0c0c0c0-0000-4000-8000-00000000000c"
MAIN_ID = "d0d0d0d0-0000-4000-8000-00000000000d"  # the session whose subagent is judged
PEER_A_SUBAGENT = "a1b2c3d4e5f6a7b8c"
SELF_AGENT = "5e1f0a0b0c0d0e0f1"
SIBLING_AGENT = "5b1b0a0b0c0d0e0f2"
FINISHED_AGENT = "f1e1d0a0b0c0d0e03"

CHECKOUT = "app"  # folder names under ~/work: the shared checkout and its linked worktrees
FEATURE_WT = "app-feature"
SELF_WT = "app-self"


class Owner(NamedTuple):
    """A session or a subagent whose tool calls a world replays."""
    key: str
    session_id: str
    name: str  # the registry name of a session; a subagent's task description
    checkout: str = CHECKOUT
    prompt: str = "continue the task"
    agent_id: Optional[str] = None  # a subagent of the session `session_id`
    finished: bool = False  # a subagent that ended: its work is its main thread's now
    work_of: Optional[str] = None  # whose work this owner's files are (default: its own)
    cleared_to: Optional[str] = None  # ran /clear after its steps: the id it has now

    @property
    def is_subagent(self):
        return self.agent_id is not None


class Edit(NamedTuple):
    path: str
    old: str
    new: str


class Write(NamedTuple):
    path: str
    content: str
    recorded: bool = True  # False: no transcript shows it (self's change in its other worktree)


class Rewrite(NamedTuple):
    """A Write of the whole file as it is at that moment with one string replaced: the record holds
    every line, so whose lines are whose cannot be told from it."""
    path: str
    old: str
    new: str


class Bash(NamedTuple):
    command: str
    touches: Tuple[str, ...] = ()  # the files the command changes (a Bash call names none itself)


class Step(NamedTuple):
    owner: str
    action: object  # Edit | Write | Rewrite | Bash


class World(NamedTuple):
    name: str
    about: str
    owners: Tuple[Owner, ...]
    steps: Tuple[Step, ...]  # after the linked worktrees exist
    early: Tuple[Step, ...] = ()  # before them (so their branches start after these commits)
    version: str = CLI_VERSION

    def owner(self, key):
        return next(o for o in self.owners if o.key == key)

    def main_of(self, owner):
        """The session a subagent runs in (its main thread); a session is its own."""
        return next(o for o in self.owners if o.session_id == owner.session_id and not o.is_subagent)

    @property
    def judged(self):
        return self.owner("self")


def steps(owner, *actions):
    return tuple(Step(owner, action) for action in actions)


def _self_session(name="app-self-session", prompt="add a tutorial and print from main"):
    return Owner("self", SELF_ID, name, prompt=prompt)


# Self's usual work: two files modified, two new (the corpus lines name them); worlds vary their state.
SELF_EDITS = (Edit("src/app.py", "def main():\n", "def main():\n    print('self')\n"),
              Edit("docs/usage.md", "Run it.", "Run it with `make`."))
SELF_NEW = (Write("docs/tutorial.md", "# Tutorial\n"),
            Write("tests/test_feature.py", "def test_feature():\n    assert 1\n"))
SELF_OTHER_WORKTREE = Write("../%s/src/app.py" % SELF_WT, "def main():\n    return 1  # self worktree\n", recorded=False)


# The others' calls several worlds share.
PEER_UTIL = Edit("src/util.py", "def clamp(x, lo, hi):\n", "def clamp(x, lo, hi):\n    # peer: handle lo > hi\n")
PEER_API = Edit("src/api.py", "def get(path):\n", "def get(path):\n    # peer: retry\n")
PARSER = Write("src/parser.py", "def parse(text):\n    return text.split()\n")
CACHE = Write("src/cache.py", "CACHE = {}\n")
IO_UTILS = Write("lib/io_utils.py", "def read(p):\n    return p\n")
FORMAT = Edit("lib/format.py", "str(x)", "repr(x)")


def _self_usual(*extra):
    return steps("self", *(SELF_EDITS + SELF_NEW + extra + (SELF_OTHER_WORKTREE,)))


MIXED = World(
    "mixed", "peer A with staged, unstaged, untracked, subagent-, Bash-written and stashed work and a fresh "
             "commit; peer B on the linked worktree app-feature",
    owners=(_self_session(),
            Owner("a", PEER_A_ID, "app-peer", prompt="refactor the request layer and add a parser"),
            Owner("a-sub", PEER_A_ID, "retry helper", prompt="write a retry helper in lib/", agent_id=PEER_A_SUBAGENT,
                  work_of="a"),
            Owner("b", PEER_B_ID, "feature-peer", checkout=FEATURE_WT, prompt="document the feature design")),
    early=steps("a", Write("config/peer.yaml", "peer: true\n"),  # before its last 12 edited files
                Edit("src/models.py", "    pass\n", "    name = ''\n"),
                Bash("git stash push -q -m 'wip: models refactor' -- src/models.py"),
                Write("src/validate.py", "def validate(req):\n    return bool(req)\n"),
                Bash("git add src/validate.py && git commit -q -m 'Add request validation'")),
    steps=steps("a", PEER_UTIL,
                PARSER,
                Bash("git add src/util.py src/parser.py"),
                CACHE, Write("src/errors.py", "class AppError(Exception):\n    pass\n"),
                Write("src/config_loader.py", "def load():\n    return {}\n"), Write("src/schema.py", "SCHEMA = {}\n"),
                IO_UTILS,
                PEER_API,
                Edit("src/routes.py", "ROUTES = []", "ROUTES = ['/health']"),
                FORMAT,
                Write("src/__init__.py", "__all__ = ['app']\n"),
                Bash("sed -i 's/return 1/return 2/' lib/helpers.py", ("lib/helpers.py",)),
                Bash("mkdir -p scripts && cat > scripts/peer_gen.sh <<'EOF'\n#!/bin/sh\necho generated\nEOF",
                     ("scripts/peer_gen.sh",)))
    + steps("a-sub", Write("lib/retry.py", "def retry(f):\n    return f()\n"))
    + steps("b", Edit("README.md", "A small service.", "A small service (feature branch)."),
            Write("notes/design.md", "# design\n"))
    + _self_usual())

SUBFOLDER = World(
    "subfolder", "the peer works only in services/billing/ (staged, unstaged, untracked, a new folder); self in "
                 "src/, docs/ and tests/, some of it staged",
    owners=(_self_session(), Owner("a", PEER_A_ID, "billing-peer", prompt="add tax to the billing service")),
    steps=steps("a", Edit("services/billing/invoice.py", "return sum(items)", "return round(sum(items), 2)"),
                Bash("git add services/billing/invoice.py"),
                Edit("services/billing/tax.py", "RATE = 0.2", "RATE = 0.21"),
                Write("services/billing/x.py", "def apply_tax(total):\n    return total\n"),
                Write("services/billing/fixtures/sample.json", "{\"items\": [1, 2]}\n"))
    + steps("self", SELF_EDITS[0], Bash("git add src/app.py"), SELF_EDITS[1], Bash("git add docs/usage.md"),
            Edit("docs/usage.md", "# Usage\n", "# Usage of app\n"), SELF_NEW[0], SELF_NEW[1],
            Bash("git add tests/test_feature.py"), SELF_OTHER_WORKTREE))

UNTRACKED_ONLY = World(
    "untracked-only", "the peer's uncommitted work is only untracked files: in tracked folders, in a folder that "
                      "is entirely new, and files .gitignore matches",
    owners=(_self_session(), Owner("a", PEER_A_ID, "vendor-peer", prompt="vendor the new parsing library")),
    steps=steps("a", CACHE, IO_UTILS,
                Write("vendor/newlib/__init__.py", "VERSION = '1.0'\n"),
                Write("vendor/newlib/core.py", "def core():\n    return 1\n"),
                Write("src/debug.log", "peer debug trace\n"),
                Bash("mkdir -p build && echo 'coverage 91%' > build/peer-report.txt", ("build/peer-report.txt",)))
    + steps("self", SELF_EDITS[0], SELF_EDITS[1], Bash("git add docs/usage.md"), SELF_NEW[0], SELF_NEW[1],
            SELF_OTHER_WORKTREE))

STAGED_DELETIONS = World(
    "staged-deletions", "the peer staged deletions (git rm), deleted a file without telling git (rm) and staged "
                        "a rename (git mv)",
    owners=(_self_session(), Owner("a", PEER_A_ID, "cleanup-peer", prompt="remove the dead routing code")),
    steps=steps("a", Bash("git rm -q src/routes.py lib/format.py", ("src/routes.py", "lib/format.py")),
                Bash("rm src/api.py", ("src/api.py",)),
                Bash("git mv src/util.py src/utils.py", ("src/util.py", "src/utils.py")))
    + steps("self", SELF_EDITS[0], SELF_EDITS[1], SELF_NEW[0], Bash("git add docs/tutorial.md"), SELF_NEW[1],
            SELF_OTHER_WORKTREE))

WORKTREE = World(
    "worktree", "the only peer lives in the linked worktree app-feature with mixed work, a commit and a stash "
                "entry; nobody else works in the main checkout",
    owners=(_self_session(),
            Owner("b", PEER_B_ID, "feature-peer", checkout=FEATURE_WT, prompt="build the feature flags")),
    steps=steps("b", Write("src/flags.py", "FLAGS = {}\n"),
                Bash("git add src/flags.py && git commit -q -m 'Feature: add flags'"),
                Edit("lib/format.py", "str(x)", "format(x)"),
                Bash("git stash push -q -m 'wip: format' -- lib/format.py"),
                Edit("src/util.py", "def clamp(x, lo, hi):\n", "def clamp(x, lo, hi):\n    # feature: flags\n"),
                Bash("git add src/util.py"),
                Edit("src/api.py", "def get(path):\n", "def get(path):\n    # feature: flag check\n"),
                Write("notes/design.md", "# design\n"))
    + steps("self", SELF_EDITS[0], SELF_EDITS[1], SELF_NEW[0], SELF_NEW[1], Bash("git add tests/test_feature.py"),
            SELF_OTHER_WORKTREE))

STASH = World(
    "stash", "the peer's only uncommitted work is two stash entries it pushed (one with an untracked file); "
             "self pushed the newest entry",
    owners=(_self_session(), Owner("a", PEER_A_ID, "stash-peer", prompt="park the models refactor")),
    steps=steps("a", Edit("src/models.py", "    pass\n", "    name = ''\n"),
                Bash("git stash push -q -m 'wip: models refactor' -- src/models.py"),
                Edit("src/routes.py", "ROUTES = []", "ROUTES = ['/cache']"), CACHE,
                Bash("git stash push -q -u -m 'wip: routes and cache' -- src/routes.py src/cache.py"))
    + steps("self", Edit("docs/index.md", "# Docs\n", "# Documentation\n"),
            Bash("git stash push -q -m 'self: index wording' -- docs/index.md"))
    + _self_usual())

COMMITTED = World(
    "committed", "the peer's edits are committed now, and the one file it staged is identical in the working "
                 "tree",
    owners=(_self_session(), Owner("a", PEER_A_ID, "commit-peer", prompt="refactor the request layer")),
    steps=steps("a", PEER_UTIL,
                PEER_API,
                Edit("CHANGELOG.md", "- first release\n", "- first release\n- request layer refactor\n"),
                FORMAT,
                Bash("git add src/util.py src/api.py CHANGELOG.md lib/format.py && git commit -q -m 'Refactor the "
                     "request layer'"),
                PARSER,
                Bash("git add src/parser.py"))
    + _self_usual())

SHARED_FILE = World(
    "shared-file", "self and the peer changed src/handlers.py in separate hunks (each Edit names its own "
                   "strings) and docs/guide.md, which self then rewrote whole (Write)",
    owners=(_self_session(), Owner("a", PEER_A_ID, "handlers-peer", prompt="log errors in the handlers")),
    steps=steps("a", Edit("src/handlers.py", "def handle_delete(request):\n",
                          "def handle_delete(request):\n    # peer: log errors\n"),
                Edit("docs/guide.md", "Read the logs.\n", "Read the logs.\nPeer: check /var/log/app too.\n"),
                PEER_UTIL,
                Bash("git add src/util.py"), CACHE)
    + steps("self", Edit("src/handlers.py", "def handle_get(request):\n",
                         "def handle_get(request):\n    # self: validate input\n"))
    + steps("self", Rewrite("docs/guide.md", "Run pip install.\n", "Run pip install.\nSelf: run make install instead.\n"),
            SELF_EDITS[0], SELF_NEW[0], SELF_NEW[1], SELF_OTHER_WORKTREE))

SUBAGENTS = World(
    "subagents", "the judged session is a subagent; its sibling subagent is unfinished, its main thread has "
                 "its own files (one written by a finished subagent), and another session is live",
    owners=(Owner("self", MAIN_ID, "tutorial writer", prompt="write the tutorial and print from main",
                  agent_id=SELF_AGENT),
            Owner("main", MAIN_ID, "app-main", prompt="split the work between two agents"),
            Owner("sibling", MAIN_ID, "cache layer", prompt="add a cache layer", agent_id=SIBLING_AGENT),
            Owner("finished", MAIN_ID, "retry helper", prompt="write a retry helper in lib/",
                  agent_id=FINISHED_AGENT, finished=True, work_of="main"),
            Owner("p", PEER_P_ID, "app-peer", prompt="tidy the helpers")),
    steps=steps("main", FORMAT,
                PARSER, Bash("git add src/parser.py"))
    + steps("finished", Write("lib/retry.py", "def retry(f):\n    return f()\n"))
    + steps("p", PEER_UTIL,
            Bash("git add src/util.py"), Bash("sed -i 's/return 1/return 2/' lib/helpers.py", ("lib/helpers.py",)))
    + steps("sibling", CACHE,
            Edit("src/api.py", "def get(path):\n", "def get(path):\n    # cache: look up first\n"),
            IO_UTILS)
    + _self_usual(),
    version=CURRENT_VERSION)

CLEARED = World(
    "cleared", "peer A ran /clear: its registry entry carries a new id, its new transcript is nearly empty, "
               "and its earlier transcript holds its edits, a staged file among them",
    owners=(_self_session(),
            Owner("a", PEER_A_ID, "app-peer", prompt="refactor the request layer and add a parser",
                  cleared_to=PEER_A_CLEARED_ID)),
    steps=steps("a", PEER_UTIL,
                PARSER,
                Bash("git add src/util.py src/parser.py"),
                PEER_API,
                CACHE)
    + steps("self", SELF_EDITS[0], Bash("git add src/app.py"), SELF_EDITS[1], SELF_NEW[0], SELF_NEW[1],
            SELF_OTHER_WORKTREE),
    version=CURRENT_VERSION)

WORLDS = (MIXED, SUBFOLDER, UNTRACKED_ONLY, STAGED_DELETIONS, WORKTREE, STASH, COMMITTED, SHARED_FILE, SUBAGENTS,
          CLEARED)
BY_NAME = {w.name: w for w in WORLDS}
NAMES = tuple(w.name for w in WORLDS)
