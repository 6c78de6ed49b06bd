"""The world a simulated day runs in: a temporary HOME holding a Claude home in Claude Code 2.1.332's
shapes (fixtures/claudehome.py), a real git repository `~/work/app` on `main` and a linked worktree
`~/work/app-wt` on `feature`, and a copy of the checkouts for labelling a refused command by running it.

    ~/                  HOME, with ~/.claude the Claude home and ~/.gitconfig
    ~/work/app          the shared checkout (branch main)
    ~/work/app-wt       a linked worktree of it (branch feature): same stash stack, same refs

Every tracked file is made of lines that each occur once in it, so an Edit can name any line as its
`old_string`, as Claude Code's Edit requires.

The day's clock: minute m of the day is `t0 + m` minutes, with t0 set so that the day ends when the
run starts. Transcripts, history, the registry and git's commit and stash dates all carry it, so the
times the hooks compare are minutes apart as in a real day (the guard tells whose a stash entry is
by matching its date to the `git stash` call a transcript shows; the edit notice asks whether a
commit came after a peer's change), though a run plays the day in a minute of wall time. The hooks'
own "now" is the wall clock, after the whole day: their texts say "5h ago" of a change made a
simulated minute before.
"""
import os
import shutil
import subprocess
import tempfile
import time

from fixtures.claudehome import CURRENT_VERSION, MINUTE_MS, ClaudeHome

CHECKOUT = "app"
WORKTREE = "app-wt"
CHECKOUTS = (CHECKOUT, WORKTREE)
BRANCHES = {CHECKOUT: "main", WORKTREE: "feature"}
AREAS = {  # folder: the modules in it; each session works mostly in one folder
    "src": ("orders", "payments", "invoices", "catalog", "search", "accounts"),
    "lib": ("retry", "cache", "clock", "text"),
    "tests": ("test_orders", "test_payments", "test_search", "test_cache"),
    "docs": ("guide", "api", "deploy"),
}
FUNCTIONS_PER_FILE = 6
IDENTITY = {"GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.invalid",
            "GIT_COMMITTER_NAME": "Dev", "GIT_COMMITTER_EMAIL": "dev@example.invalid"}
GITCONFIG = ("[user]\n\tname = Dev\n\temail = dev@example.invalid\n[init]\n\tdefaultBranch = main\n"
             "[commit]\n\tgpgsign = false\n[advice]\n\tdetachedHead = false\n[gc]\n\tauto = 0\n")


def suffix(folder):
    return ".md" if folder == "docs" else ".py"


def tracked_paths():
    """Every file of the base commit, relative to the checkout, in a fixed order."""
    return tuple("%s/%s%s" % (folder, name, suffix(folder)) for folder, names in AREAS.items() for name in names)


def base_content(path):
    """A file whose every line is unique in it (an Edit may anchor on any of them)."""
    stem = os.path.splitext(os.path.basename(path))[0]
    if path.endswith(".md"):
        lines = ["# %s" % stem, ""] + ["## %s part %d\n\nText of %s, part %d." % (stem, n, stem, n)
                                      for n in range(1, FUNCTIONS_PER_FILE + 1)]
    else:
        lines = ['"""%s."""' % stem, ""] + ["def %s_%d(value):\n    return value + %d  # %s %d" % (stem, n, n, stem, n)
                                            for n in range(1, FUNCTIONS_PER_FILE + 1)]
    return "\n".join(lines) + "\n"


def git_env(home, at_ms=None):
    """The environment git runs in: this HOME's config only, one identity for every session (whose
    commit it was is the ledger's to say, from the command that made it), the day's clock as dates."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "CLAUDE", "PEERHOOKS"))}
    env.update(IDENTITY, HOME=home, GIT_CONFIG_NOSYSTEM="1", LC_ALL="C")
    if at_ms is not None:
        env.update(GIT_AUTHOR_DATE="@%d +0000" % (at_ms // 1000), GIT_COMMITTER_DATE="@%d +0000" % (at_ms // 1000))
    return env


def git(top, env, *args, check=True):
    """git in `top`; its stdout as text."""
    done = subprocess.run(["git"] + list(args), cwd=top, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, check=False)
    if check and done.returncode != 0:
        raise RuntimeError("git %s failed in %s: %s" % (" ".join(args), top, done.stderr.decode(errors="replace")))
    return done.stdout.decode("utf-8", "replace")


class World:
    """One run's temporary HOME, Claude home and repository; `close()` removes all of it."""

    def __init__(self, day_minutes, parent=None):
        self.t0_ms = int(time.time() * 1000) - int((day_minutes + 1) * MINUTE_MS)
        self.root = os.path.realpath(tempfile.mkdtemp(prefix="fleetday-", dir=parent))
        self.work = os.path.join(self.root, "work")
        self.tops = {name: os.path.join(self.work, name) for name in CHECKOUTS}
        self.claude = ClaudeHome(self.root, version=CURRENT_VERSION)
        with open(os.path.join(self.root, ".gitconfig"), "w", encoding="utf-8") as handle:
            handle.write(GITCONFIG)
        self._build_repository()

    def ms(self, minute):
        """Minute `minute` of the day on the day's clock, in epoch ms."""
        return self.t0_ms + int(minute * MINUTE_MS)

    def env(self, minute=0.0):
        return git_env(self.root, self.ms(minute))

    def _build_repository(self):
        app, env = self.tops[CHECKOUT], self.env()
        os.makedirs(app)
        git(app, env, "init", "-q", "-b", "main", "--template=")
        for path in tracked_paths():
            write_text(os.path.join(app, path), base_content(path))
        write_text(os.path.join(app, ".gitignore"), "*.log\n__pycache__/\n")
        git(app, env, "add", "--all")
        git(app, env, "commit", "-q", "-m", "Initial import")
        git(app, env, "worktree", "add", "-q", "-b", BRANCHES[WORKTREE], self.tops[WORKTREE])

    def copy(self):
        """A copy of the checkouts (worktree links repointed, nothing shared with this world) for
        running a command to see what it does; remove it with shutil.rmtree(copy.root)."""
        return CheckoutCopy(self)

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)


class CheckoutCopy:
    """`cp -a` of ~/work, with the linked worktree's two links (its `.git` file and the repository's
    `worktrees/<name>/gitdir`) pointing inside the copy, so that nothing run there reaches the day."""

    def __init__(self, world):
        self.root = os.path.realpath(tempfile.mkdtemp(prefix="fleetday-copy-", dir=os.path.dirname(world.root)))
        self.home, self.ms = world.root, world.ms  # HOME stays: its .gitconfig is only read
        self.work = os.path.join(self.root, "work")
        shutil.copytree(world.work, self.work, symlinks=True)
        self.tops = {name: os.path.join(self.work, name) for name in CHECKOUTS}
        admin = os.path.join(self.tops[CHECKOUT], ".git", "worktrees", WORKTREE)
        write_text(os.path.join(self.tops[WORKTREE], ".git"), "gitdir: %s\n" % admin)
        write_text(os.path.join(admin, "gitdir"), os.path.join(self.tops[WORKTREE], ".git") + "\n")

    def env(self, minute=0.0):
        return git_env(self.home, self.ms(minute))

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)


def write_text(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def read_text(path):
    """A file's text, or None when it is not there."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
