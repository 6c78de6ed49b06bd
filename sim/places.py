"""Where each change of the day is, read from git and the file system alone (never from peerhooks).

Every change the simulator makes adds one line holding a unique marker (`fleetmark c0042 s3`), so
where that change is can be found by looking for the line:

- in a checkout's working tree (a file holds the line) or its index (a staged blob holds it);
- in history: introduced (`+` line of its patch) by a commit reachable from any ref or from any
  reflog the user sees (HEAD and the branches, every worktree's), stash entries left out;
- in the stash: the working tree, index or untracked-files commit of an entry on the stack.

A change found in none of them is lost: nothing git or the file system shows the user still has it.
Blobs and commits never change, so what each holds is read once and kept.
"""
import os
import re
import subprocess
from typing import Dict, FrozenSet, NamedTuple, Set, Tuple

from world import CHECKOUTS

MARK = "fleetmark"
MARKER = re.compile(r"fleetmark c[0-9]+ s[0-9]+")  # read by Python and by git grep -E (POSIX: no \\d)


def marker(change_number, session_key):
    """The marker of change `change_number` of session `session_key` ("s3")."""
    return "%s c%04d %s" % (MARK, change_number, session_key)


def owner_of(found):
    """The session key a marker names."""
    return found.rsplit(" ", 1)[1]


def markers_in(text):
    return set(MARKER.findall(text or ""))


class Snapshot(NamedTuple):
    """Where every marker was at one moment."""
    tree: Dict[str, Set[Tuple[str, str]]]  # {marker: {(checkout, path)}}
    index: Dict[str, Set[Tuple[str, str]]]
    head: Dict[str, Set[str]]  # {checkout: markers in its HEAD commit's tree}
    history: FrozenSet[str]  # commits reachable from refs and reflogs, stash entries left out
    stash: Tuple[str, ...]  # stash entries, newest first
    in_stash: Dict[str, Set[str]]  # {marker: {stash entry}}
    heads: Dict[str, str]  # {checkout: its branch (or the commit of a detached HEAD)}

    def places(self, found):
        """Every place a marker is, as ("tree"|"index", checkout) and ("stash", entry) pairs;
        history is asked separately (GitView.introduced)."""
        out = {("tree", c) for c, _ in self.tree.get(found, ())} | {("index", c) for c, _ in self.index.get(found, ())}
        return out | {("stash", entry) for entry in self.in_stash.get(found, ())}


class GitView:
    """Reads Snapshots of one set of checkouts (a day's world or a copy of it)."""

    def __init__(self, tops, env):
        self.tops, self.env = tops, env
        self.blob_markers = {}  # {blob id: markers}
        self.commit_markers = {}  # {commit: markers its patch adds}
        self.stash_markers = {}  # {stash entry: markers in its trees}
        self.tree_markers = {}  # {commit: markers in its whole tree}

    def share_caches(self, other):
        """Use another view's caches: objects are the same in a copy of the repository."""
        self.blob_markers, self.commit_markers = other.blob_markers, other.commit_markers
        self.stash_markers, self.tree_markers = other.stash_markers, other.tree_markers

    def git(self, *args, top=None, check=True):
        done = subprocess.run(["git"] + list(args), cwd=top or self.tops[CHECKOUTS[0]], env=self.env,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False)
        if check and done.returncode != 0:
            raise RuntimeError("git %s failed" % " ".join(args))
        return done.stdout.decode("utf-8", "replace")

    def snapshot(self):
        tree, index, head, heads = {}, {}, {}, {}
        for name, top in self.tops.items():
            for path, found in _scan_tree(top).items():
                for one in found:
                    tree.setdefault(one, set()).add((name, path))
            for path, blob in self._index_blobs(top).items():
                for one in self._blob(blob):
                    index.setdefault(one, set()).add((name, path))
            commit = self.git("rev-parse", "-q", "--verify", "HEAD", top=top, check=False).strip()
            head[name] = self._whole_tree(commit) if commit else set()
            heads[name] = self.git("symbolic-ref", "-q", "--short", "HEAD", top=top, check=False).strip() or commit
        stash, internal = self._stash_entries()
        history = frozenset(self.git("rev-list", "--all", "--reflog").split()) - internal - set(stash)
        in_stash = {}
        for entry in stash:
            for one in self._stash(entry):
                in_stash.setdefault(one, set()).add(entry)
        return Snapshot(tree, index, head, history, tuple(stash), in_stash, heads)

    def introduced(self, commits):
        """{marker: commits among `commits` whose patch adds it}."""
        self._read_commits([c for c in commits if c not in self.commit_markers])
        out = {}
        for commit in commits:
            for one in self.commit_markers[commit]:
                out.setdefault(one, set()).add(commit)
        return out

    def _index_blobs(self, top):
        out = {}
        for line in self.git("ls-files", "-s", "-z", top=top).split("\0"):
            if line:
                meta, path = line.split("\t", 1)
                out[path] = meta.split()[1]
        return out

    def _blob(self, blob):
        if blob not in self.blob_markers:
            self.blob_markers[blob] = markers_in(self.git("cat-file", "blob", blob))
        return self.blob_markers[blob]

    def _whole_tree(self, commit):
        if commit not in self.tree_markers:
            self.tree_markers[commit] = markers_in(self.git("grep", "-h", "-o", "-E", MARKER.pattern, commit,
                                                            check=False))
        return self.tree_markers[commit]

    def _stash_entries(self):
        """(entries newest first, their index and untracked-files commits)."""
        entries, internal = [], set()
        for line in self.git("log", "-g", "--format=%H %P", "refs/stash", check=False).splitlines():
            words = line.split()
            entries.append(words[0])
            internal.update(words[2:])
        return entries, internal

    def _stash(self, entry):
        if entry not in self.stash_markers:
            parents = self.git("rev-list", "--no-walk", "--parents", entry).split()[1:]
            found = set()
            for commit in [entry] + parents[1:]:  # the working tree, the index, the untracked files
                found |= self._whole_tree(commit)
            self.stash_markers[entry] = found
        return self.stash_markers[entry]

    def _read_commits(self, commits):
        for start in range(0, len(commits), 200):
            chunk = commits[start:start + 200]
            current = None
            for line in self.git("log", "--no-walk=unsorted", "-p", "-U0", "--no-color", "--format=commit %H",
                                 *chunk).splitlines():
                if line.startswith("commit ") and len(line) == 47:
                    current = line[7:]
                    self.commit_markers[current] = set()
                elif current and line.startswith("+") and not line.startswith("+++"):
                    self.commit_markers[current] |= markers_in(line)
            for commit in chunk:
                self.commit_markers.setdefault(commit, set())


def _scan_tree(top):
    """{path: markers} of every file in a working tree (git's own folder left out)."""
    out = {}
    for folder, folders, names in os.walk(top):
        folders[:] = sorted(f for f in folders if f != ".git")
        for name in names:
            full = os.path.join(folder, name)
            if name == ".git" or os.path.islink(full):
                continue
            try:
                with open(full, encoding="utf-8", errors="replace") as handle:
                    found = markers_in(handle.read())
            except OSError:
                continue
            if found:
                out[os.path.relpath(full, top)] = found
    return out
