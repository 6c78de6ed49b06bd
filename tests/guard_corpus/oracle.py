"""The execution oracle: what a command line really does, in each world, to the work of every session
but the judged one ("self"), and what it does to self's own files.

Each line runs with bash in a fresh copy of a world (scenario.py builds it from worlds.py), then the
state is compared with the state before: for every path holding another owner's uncommitted work,
its HEAD blob, index entry and working-tree content (for a file self changed too, where that owner's
own lines are: in HEAD, in the index, in the tree); the stash entries they pushed; the branch of each
checkout they work in, whether the commit they made last is still in it, and whether a linked
worktree they work in still exists. Any difference is harm (work lost, swept into a commit, moved
between staged/unstaged/untracked, stash entry gone, branch switched or rewound): label `harmful`;
otherwise `harmless`. Self's paths are compared the same way and kept beside the label (`self`, a
digest `self_state`, and `commit` when the line made one), so a suggestion can be checked to do to
self's files what the refused line did.

    python3 tests/guard_corpus/oracle.py --relabel [--world W]   # re-run every line, rewrite labels
    python3 tests/guard_corpus/oracle.py --check [--world W]     # re-run every line, report disagreements
    python3 tests/guard_corpus/oracle.py --line 'git add -A' [--cwd docs] [--world W]   # what one line does

How a line runs: `bash -c <line>` in <checkout>/<cwd>, stdin /dev/null (Claude Code's Bash tool has no
terminal), HOME = the world's home, no network and a private /tmp (`unshare -n -m` where the machine
allows it; origin is a local bare repo anyway), GIT_EDITOR/GIT_SEQUENCE_EDITOR/EDITOR = `true` (an
editor that accepts what it is given, so `git commit` without -m aborts on an empty message, `rebase
-i` runs its default todo), pagers `cat`, GIT_TERMINAL_PROMPT=0, a 10 s timeout on the whole process
group. Interactive prompts (`git add -p`, `git clean -i`) read EOF and quit unless the line itself
pipes answers in. Only the end state is compared: a line that stashes the peer's work and pops it
back is harmless here even though the peer's files vanished for a moment (README.md says why).
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from typing import Dict, List, NamedTuple, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import pathstate  # noqa: E402
import scenario  # noqa: E402
import worlds  # noqa: E402

CORPUS = os.path.join(HERE, "corpus.jsonl")
LINE_TIMEOUT_S = 10  # the slowest honest line (a pull with a merge) takes ~0.2 s; a hang is a prompt
WORKERS = 2  # the machine has 2 cores shared with others
CHECKOUT_HARM = "(checkout)"  # in `harmed`: the owner's checkout itself (branch, commit, worktree)


class Measure(NamedTuple):
    heads: Dict[str, Optional[pathstate.Head]]  # {toplevel: HEAD} of every checkout of the repository
    items: Dict[scenario.Item, tuple]  # {item: (PathState, marker counts or None)}, other owners' work
    self_items: Dict[scenario.Item, tuple]
    stash: List[str]


class Verdict(NamedTuple):
    label: str
    effects: List[str]
    exit: object
    harmed: Dict[str, List[str]]  # {owner key: [path or stash@{N} or CHECKOUT_HARM]}
    self_effects: List[str]
    self_state: str
    commit: Optional[str]  # the message of the newest commit HEAD moved onto (made or pulled) in its checkout

    def as_label(self):
        """The world's entry in the corpus (empty fields left out)."""
        out = {"label": self.label, "effects": self.effects, "exit": self.exit}
        if self.harmed:
            out["harmed"] = self.harmed
        if self.self_effects:
            out["self"] = self.self_effects
        out["self_state"] = self.self_state
        if self.commit:
            out["commit"] = self.commit
        return out


class _Reader:
    """Reads a world's state, caching what cannot change under a fixed id (a commit's tree, a blob)."""

    def __init__(self, scn):
        self.scn = scn
        self.env = scenario.git_env(scn.home)
        self.trees, self.blobs = {}, {}
        self.indexes = {}  # {toplevel: index blobs} as last read
        self.pristine = {}  # {toplevel: index blobs} of the world as built
        self.tops = sorted({i.top for i in scn.items + scn.self_items})

    def _tree(self, top, commit):
        if commit not in self.trees:
            self.trees[commit] = pathstate.tree_blobs(top, self.env, commit) if commit else {}
        return self.trees[commit]

    def _state(self, item, tree, index, top):
        work = pathstate.work_blob(top, item.path)
        state = pathstate.PathState(tree.get(item.path), index.get(item.path), work)
        if not item.markers:
            return state, None
        missing = [s for s in state[:2] if s and s not in self.blobs and s != pathstate.CONFLICT]
        self.blobs.update(pathstate.contents(top, self.env, missing))
        texts = [self.blobs.get(sha, b"") if sha else b"" for sha in state[:2]]
        if work is not None:
            with open(os.path.join(top, item.path), "rb") as handle:
                texts.append(handle.read())
        else:
            texts.append(b"")
        counts = tuple(sum(m in set(t.decode("utf-8", "replace").splitlines()) for m in item.markers) for t in texts)
        return state, counts

    def measure(self, same_index=frozenset()):
        """The state of everything watched; `same_index`: checkouts whose index file git has not
        written since the last measure (their entries are read again only when it has)."""
        scn = self.scn
        heads = {top: pathstate.head_of(top) for top in (scn.checkout, scn.feature_wt, scn.self_wt)}
        items, self_items = {}, {}
        for top in self.tops:
            head = heads.get(top)
            if head is None:
                for item in scn.items + scn.self_items:
                    if item.top == top:
                        (items if item in scn.items else self_items)[item] = (pathstate.PathState(None, None, None), None)
                continue
            if top not in same_index or top not in self.indexes:
                self.indexes[top] = pathstate.index_blobs(top, self.env)
            tree, index = self._tree(top, head.commit), self.indexes[top]
            for item in scn.items:
                if item.top == top:
                    items[item] = self._state(item, tree, index, top)
            for item in scn.self_items:
                if item.top == top:
                    self_items[item] = self._state(item, tree, index, top)
        return Measure(heads, items, self_items, pathstate.stash_list(scn.checkout))

    def is_ancestor(self, top, commit, ref):
        return subprocess.run(["git", "merge-base", "--is-ancestor", commit, ref], cwd=top, env=self.env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0

    def commit_made(self, top, before, after):
        """The message of the newest commit when the checkout's HEAD moved onto new commits on top
        of its old one: a commit the line made, or a fast-forward (what it holds of self's and the
        peers' is in self_state and the effects)."""
        if top is None or before is None or after is None or not after.commit or after.commit == before.commit:
            return None
        if before.commit and not self.is_ancestor(top, before.commit, after.commit):
            return None
        message = pathstate.git(top, self.env, "log", "-1", "--format=%B", after.commit) or b""
        return message.decode("utf-8", "replace").rstrip("\n")


def _watched(item, value):
    """What counts of a path's state: where the owner's own lines are in a file others changed too,
    else its blobs."""
    state, lines = value
    return list(lines) if item.markers else list(state)


def _how(was, now, total):
    (old, old_lines), (new, new_lines) = was, now
    if old_lines is not None:
        return "%s -> %s" % (pathstate.describe_lines(old_lines, total), pathstate.describe_lines(new_lines, total))
    how = "%s -> %s" % (pathstate.describe(old), pathstate.describe(new))
    if new.head != old.head:
        how += " (committed)" if new.head is not None and new.head in (old.index, old.work) else " (HEAD changed)"
    return how


def _grouped(changes):
    """[(prefix, how, path)] as one sentence per (prefix, how)."""
    moved = {}
    for prefix, how, path in changes:
        moved.setdefault((prefix, how), []).append(path)
    return ["%s%s: %s" % (prefix, how, " ".join(paths)) for (prefix, how), paths in sorted(moved.items())]


def owner_label(world, key):
    owner = world.owner(key)
    return "subagent %s (%s)" % (owner.agent_id[:7], owner.name) if owner.is_subagent else owner.name


def effects(before, after, scn, reader):
    """(sentences, {owner key: [what was harmed]}) for the other owners' work; empty means harmless."""
    world, found, harmed = scn.world, [], {}

    def harm(key, what, sentence=None):
        harmed.setdefault(key, [])
        if what not in harmed[key]:
            harmed[key].append(what)
        if sentence:
            found.append("%s: %s" % (owner_label(world, key), sentence))

    for top, keys in sorted(scn.guarded.items()):
        old, new = before.heads[top], after.heads[top]
        for key in keys:
            if new is None:
                harm(key, CHECKOUT_HARM, "its worktree was removed")
            elif new.branch != old.branch:
                harm(key, CHECKOUT_HARM, "checkout moved from %s to %s" % (old.branch, new.branch))
            elif new.commit != old.commit and not (new.commit and reader.is_ancestor(top, old.commit, new.commit)):
                harm(key, CHECKOUT_HARM, "its checkout's commit %s is no longer in %s" % (old.commit[:7], old.branch))
    changes = []
    for item, was in before.items.items():
        now = after.items[item]
        if _watched(item, now) != _watched(item, was):
            harm(item.owner, item.path)
            changes.append((owner_label(world, item.owner) + ": ", _how(was, now, len(item.markers)), item.path))
    found.extend(_grouped(changes))
    for commit, key in sorted(scn.stashes.items()):
        if commit not in after.stash:
            name = "stash@{%d}" % before.stash.index(commit)
            harm(key, name, "stash entry %s dropped" % name)
    return found, harmed


def self_effects(before, after, scn):
    """What the line did to self's paths (another checkout's paths prefixed with its folder)."""
    changes = [("", _how(was, after.self_items[item], len(item.markers)),
                item.path if item.top == scn.checkout else "%s:%s" % (os.path.basename(item.top), item.path))
               for item, was in before.self_items.items() if _watched(item, after.self_items[item]) != _watched(item, was)]
    return _grouped(changes)


def self_digest(measure):
    """12 hex digits naming the state of every self path (blobs, and self's lines in a shared file)."""
    data = sorted([os.path.basename(item.top), item.path, _watched(item, value)]
                  for item, value in measure.self_items.items())
    return hashlib.sha1(json.dumps(data).encode()).hexdigest()[:12]


def run_env(home):
    """The environment a line runs in: nothing of the caller's but PATH."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LC_ALL": "C", "LANG": "C",
            "TERM": "dumb", "GIT_EDITOR": "true", "GIT_SEQUENCE_EDITOR": "true", "EDITOR": "true",
            "VISUAL": "true", "GIT_PAGER": "cat", "PAGER": "cat", "GIT_TERMINAL_PROMPT": "0",
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_ASKPASS": "false", "SSH_ASKPASS": "false", "USER": "dev",
            "FILTER_BRANCH_SQUELCH_WARNING": "1"}  # else filter-branch sleeps 10 s before it works


BENCH_PREFIX = "guard-oracle-"


def work_root():
    """Where benches live: memory if we can (copies are the oracle's main cost), never under /tmp
    when the jail gives each line its own /tmp (that would hide the bench)."""
    for candidate in ("/dev/shm", "/var/tmp"):
        if os.path.isdir(candidate) and os.access(candidate, os.W_OK):
            return candidate
    return None


def bench_parent():
    """A new folder for this process's benches, once those of runs that ended without removing
    theirs are gone (a run killed with SIGKILL: a test run's sweep removes only its TMPDIR, and
    benches cannot live under /tmp)."""
    root = work_root()
    for name in os.listdir(root) if root else ():
        pid = name[len(BENCH_PREFIX):].partition("-")[0]
        path = os.path.join(root, name)
        if name.startswith(BENCH_PREFIX) and pid.isdigit() and not _running(int(pid)):
            try:
                if os.stat(path).st_uid == os.getuid():
                    shutil.rmtree(path, True)
            except OSError:
                pass
    return tempfile.mkdtemp(prefix="%s%d-" % (BENCH_PREFIX, os.getpid()), dir=root)


def _running(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's
    return True


# No network, and a private /tmp: lines write /tmp/idx or /tmp/all.patch, which must neither leak
# into the next line nor race with the other worker.
JAIL_SHELL = ["sh", "-c", 'mount -t tmpfs tmpfs /tmp && exec bash -c "$1"', "jail"]
JAILS = (["unshare", "-n", "-m", "--propagation", "private"] + JAIL_SHELL,  # as root
         ["unshare", "-r", "-n", "-m", "--propagation", "private"] + JAIL_SHELL)  # via a user namespace


def jail_for(root):
    """The first jail this machine allows, else plain bash (lines then share the real /tmp)."""
    if root.startswith("/tmp/"):
        return ["bash", "-c"]
    for jail in JAILS:
        try:
            if subprocess.run(jail + ["true"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
                return jail
        except OSError:
            break
    return ["bash", "-c"]


def execute(line, where, home, runner=("bash", "-c")):
    """Run one line as the agent would; returns (exit code or 'timeout', combined output tail)."""
    try:
        result = subprocess.run(list(runner) + [line], cwd=where, env=run_env(home), stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=LINE_TIMEOUT_S,
                                start_new_session=True)
        return result.returncode, result.stdout[-300:].decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""


class Bench:
    """A worker's copy of one world: built once, copied back from its pristine template before
    every line (same absolute path each time, so linked worktrees' absolute links stay right)."""

    def __init__(self, root, world):
        self.root = root
        self.scn = scenario.build(os.path.join(root, "home"), world, live=False)
        _pack_objects(self.scn)
        self.template = os.path.join(root, "template")
        subprocess.run(["cp", "-a", self.scn.home, self.template], check=True)
        self.reader = _Reader(self.scn)
        self.before = self.reader.measure()
        self.pristine = dict(self.reader.indexes)
        self.runner = jail_for(os.path.realpath(root))

    def judge(self, line, cwd=".", elsewhere=None):
        """What `line` does here. `elsewhere`: (home, {path under it: bytes}) of another build of this
        world the line was written for (a suggestion naming a patch the guard saved in its Claude
        home): those files are put here and that home's path in the line is this one's."""
        scn = self.scn
        subprocess.run(["sh", "-c", 'rm -rf "$1" && cp -a "$2" "$1"', "copy", scn.home, self.template], check=True)
        if elsewhere:
            home, files = elsewhere
            line = line.replace(home, scn.home)
            for relative, data in files:
                path = os.path.join(scn.home, relative)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as handle:
                    handle.write(data)
        # A copy gives every file a new inode and ctime, so the index's cached stat data no longer
        # match and git treats every entry as possibly changed: `read-tree -m -u` and `reset --keep`
        # then stop with "not uptodate" where, in the live checkout a peer works in, they run. The
        # copy's indexes are refreshed to the state git keeps them in (`git status` does the same).
        for worktree in (scn.checkout, scn.feature_wt, scn.self_wt):
            subprocess.run(["git", "update-index", "-q", "--refresh"], cwd=worktree, env=run_env(scn.home),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        written = {top: pathstate.index_signature(top) for top in self.reader.tops}
        where = scn.cwd(cwd)
        code, _output = execute(line, where, scn.home, self.runner) if os.path.isdir(where) else (
            "no such cwd", "")
        self.reader.indexes = dict(self.pristine)  # a refreshed copy's entries are the world's
        after = self.reader.measure(frozenset(t for t, s in written.items() if pathstate.index_signature(t) == s))
        found, harmed = effects(self.before, after, scn, self.reader)
        top = scn.toplevel_of(where)
        commit = self.reader.commit_made(top, self.before.heads.get(top), after.heads.get(top))
        return Verdict("harmful" if found else "harmless", found, code, harmed, self_effects(self.before, after, scn),
                       self_digest(after), commit)


def _pack_objects(scn):
    """Each repository's objects in one pack: half the files a copy makes (a line sees the same
    commits, trees and blobs either way)."""
    env = scenario.git_env(scn.home)
    for repo in (scn.checkout, os.path.join(scn.work, "origin.git"), os.path.join(scn.work, "other")):
        subprocess.run(["git", "repack", "-adq"], cwd=repo, env=env, check=True)
        subprocess.run(["git", "prune-packed"], cwd=repo, env=env, check=True)
        objects = subprocess.run(["git", "rev-parse", "--git-path", "objects"], cwd=repo, env=env, check=True,
                                 stdout=subprocess.PIPE).stdout.decode().strip()
        for name in os.listdir(os.path.join(repo, objects)):
            folder = os.path.join(repo, objects, name)
            if len(name) == 2 and not os.listdir(folder):
                os.rmdir(folder)


_BENCHES = {}
_PARENT = None


def _start_worker(parent):
    global _PARENT
    _PARENT = parent


def bench(name):
    """This worker's bench of a world, built the first time it is needed."""
    if name not in _BENCHES:
        _BENCHES[name] = Bench(tempfile.mkdtemp(prefix="%s-" % name, dir=_PARENT), worlds.BY_NAME[name])
    return _BENCHES[name]


def _judge_in_worker(task):
    index, world, line, cwd, elsewhere = task
    return index, bench(world).judge(line, cwd, elsewhere)


def judge_all(tasks, workers=WORKERS):
    """Oracle verdicts for [(world name, line, cwd)] or [(world name, line, cwd, elsewhere)]
    (Bench.judge), in order."""
    items = [(i,) + tuple(task) + (None,) * (4 - len(task)) for i, task in enumerate(tasks)]
    results = [None] * len(items)
    parent = bench_parent()
    try:
        with ProcessPoolExecutor(max_workers=workers, initializer=_start_worker, initargs=(parent,)) as pool:
            for index, verdict in pool.map(_judge_in_worker, items, chunksize=16):
                results[index] = verdict
    finally:
        shutil.rmtree(parent, True)
    return results


def load(path=CORPUS):
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def save(entries, path=CORPUS):
    with open(path, "w", encoding="utf-8") as handle:
        for entry in entries:
            handle.write(json.dumps(entry, ensure_ascii=False, sort_keys=False) + "\n")


def _option(argv, name, default=None):
    return argv[argv.index(name) + 1] if name in argv else default


def main(argv):
    names = [_option(argv, "--world")] if "--world" in argv else list(worlds.NAMES)
    if argv[:1] == ["--line"]:
        tasks = [(name, argv[1], _option(argv, "--cwd", ".")) for name in names]
        for name, verdict in zip(names, judge_all(tasks)):
            print(name, json.dumps(verdict.as_label(), indent=1))
        return 0
    if argv[:1] not in (["--relabel"], ["--check"]):
        sys.stderr.write(__doc__)
        return 2
    entries = load()
    tasks = [(name, e["line"], e["cwd"]) for e in entries for name in names]
    verdicts = iter(judge_all(tasks))
    changed = 0
    for entry in entries:
        for name in names:
            verdict = next(verdicts)
            stored = entry.setdefault("worlds", {}).get(name, {})
            if stored.get("label") != verdict.label:
                changed += 1
                print("%s: %s -> %s  [%s] %s" % (name, stored.get("label"), verdict.label, entry["cwd"], entry["line"]))
            if argv[0] == "--relabel":
                entry["worlds"][name] = verdict.as_label()
        if argv[0] == "--relabel":
            entry["worlds"] = {n: entry["worlds"][n] for n in worlds.NAMES if n in entry["worlds"]}
    if argv[0] == "--relabel":
        save(entries)
        print("relabelled %d lines in %d worlds (%d labels changed)" % (len(entries), len(names), changed))
        return 0
    print("%d lines in %d worlds, %d disagreements" % (len(entries), len(names), changed))
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
