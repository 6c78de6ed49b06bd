"""What git holds for a path, read the same way when a world is built and when the oracle compares
before and after a line: its HEAD blob, its index entry and its working-tree content, and the names
the guard's refusals use for that state (`staged`, `unstaged`, `untracked`, `staged-deletion`, …).

Only plumbing that reads (`ls-files`, `ls-tree`, `cat-file`, `stash list`), with an environment that
holds nothing of the caller's GIT_* variables, plus direct reads of HEAD files: the oracle measures
every world after every line, and a git process per question was half its time.
"""
import hashlib
import os
import subprocess
from typing import NamedTuple, Optional

CONFLICT = "conflict"


def blob_id(data):
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def git(top, env, *args, stdin=None):
    """stdout of a read-only git command as bytes, or None when git fails."""
    result = subprocess.run(["git"] + list(args), cwd=top, env=env, input=stdin, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    return result.stdout if result.returncode == 0 else None


def tree_blobs(top, env, commit):
    blobs = {}
    for line in (git(top, env, "ls-tree", "-r", "-z", commit) or b"").split(b"\0"):
        if line:
            meta, _, path = line.partition(b"\t")
            blobs[path.decode("utf-8", "replace")] = meta.split()[2].decode()
    return blobs


def index_blobs(top, env):
    blobs = {}
    for line in (git(top, env, "ls-files", "-s", "-z") or b"").split(b"\0"):
        if line:
            meta, _, path = line.partition(b"\t")
            _mode, sha, stage = meta.split()
            blobs[path.decode("utf-8", "replace")] = sha.decode() if stage == b"0" else CONFLICT
    return blobs


def work_blob(top, path):
    full = os.path.join(top, path)
    if os.path.islink(full) or not os.path.isfile(full):
        return None
    with open(full, "rb") as handle:
        return blob_id(handle.read())


def contents(top, env, shas):
    """{blob id: bytes} for the given blob ids, in one `git cat-file --batch`."""
    wanted = [s for s in dict.fromkeys(shas) if s and s != CONFLICT]
    if not wanted:
        return {}
    out = git(top, env, "cat-file", "--batch", stdin=("\n".join(wanted) + "\n").encode()) or b""
    found, at = {}, 0
    for sha in wanted:
        end = out.index(b"\n", at)
        header = out[at:end].split()
        if len(header) < 3:  # "<sha> missing"
            at = end + 1
            continue
        size = int(header[2])
        found[sha] = out[end + 1:end + 1 + size]
        at = end + 1 + size + 1
    return found


def stash_list(top):
    """Commit ids of the stash entries, stash@{0} first: the reflog of refs/stash, newest last in
    its file, as `git stash list` reads it (there is no stash while the ref does not exist)."""
    git_dir = _git_dir(top)
    common = _common_dir(git_dir) if git_dir else None
    if common is None or not _ref(common, "refs/stash"):
        return []
    try:
        with open(os.path.join(common, "logs", "refs", "stash"), encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return []
    return [line.split()[1] for line in reversed(lines) if len(line.split()) > 1]


def index_signature(top):
    """What changes whenever git writes a checkout's index (it writes a new file and renames it)."""
    git_dir = _git_dir(top)
    try:
        found = os.stat(os.path.join(git_dir, "index"))
    except (OSError, TypeError):
        return None
    return found.st_ino, found.st_size, found.st_mtime_ns


def _git_dir(top):
    dot_git = os.path.join(top, ".git")
    if os.path.isdir(dot_git):
        return dot_git
    try:
        with open(dot_git, encoding="utf-8") as handle:
            line = handle.readline().strip()
    except OSError:
        return None
    if not line.startswith("gitdir: "):
        return None
    return os.path.normpath(os.path.join(top, line[len("gitdir: "):]))


def _common_dir(git_dir):
    try:
        with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as handle:
            return os.path.normpath(os.path.join(git_dir, handle.readline().strip()))
    except OSError:
        return git_dir


def _ref(common, name):
    try:
        with open(os.path.join(common, name), encoding="utf-8") as handle:
            return handle.readline().strip()
    except OSError:
        pass
    try:
        with open(os.path.join(common, "packed-refs"), encoding="utf-8") as handle:
            for line in handle:
                parts = line.split()
                if len(parts) == 2 and parts[1] == name:
                    return parts[0]
    except OSError:
        pass
    return ""


class Head(NamedTuple):
    branch: str  # refs/heads/<name>, or "detached"
    commit: str  # "" when HEAD names no commit


def head_of(top):
    """The checkout's branch and commit, read from its HEAD file (as `git symbolic-ref` and
    `git rev-parse` would say); None when the checkout is gone."""
    git_dir = _git_dir(top) if os.path.isdir(top) else None
    if git_dir is None:
        return None
    try:
        with open(os.path.join(git_dir, "HEAD"), encoding="utf-8") as handle:
            head = handle.readline().strip()
    except OSError:
        return None
    if head.startswith("ref: "):
        name = head[len("ref: "):]
        return Head(name, _ref(_common_dir(git_dir), name))
    return Head("detached", head)


class PathState(NamedTuple):
    head: Optional[str]
    index: Optional[str]
    work: Optional[str]


def describe(state, ignored=False):
    """The name of a path's state, in the words of the guard's `At stake:` line (and `clean`,
    `absent`, `conflicted` for the states no refusal names)."""
    head, index, work = state
    if index == CONFLICT:
        return "conflicted"
    if head is None and index is None:
        if work is None:
            return "absent"
        return "ignored" if ignored else "untracked"
    if index is None:
        return "staged-deletion"
    staged = index != head
    if work is None:
        return "staged+unstaged" if staged else "unstaged-deletion"
    unstaged = work != index
    if staged and unstaged:
        return "staged+unstaged"
    return "staged" if staged else "unstaged" if unstaged else "clean"


def describe_lines(counts, total):
    """Where an owner's own lines of a shared file are: counts of them in (HEAD, index, tree)."""
    words = []
    for count, where in zip(counts, ("committed", "staged", "in the tree")):
        if count == total:
            words.append(where)
        elif count:
            words.append("partly " + where)
    return "its lines " + (", ".join(words) if words else "gone")
