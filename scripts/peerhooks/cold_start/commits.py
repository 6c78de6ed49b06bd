"""Git as cold-start sections: the recent commits of HEAD's branch and the worktrees of the
repository, and the files that say when either changed (for the quiet path).

At most one `git` process runs (`git log`, and only when HEAD moved); worktrees, the branch and the
HEAD commit are read from the filesystem.
"""
import io
import os

from ..git import gitrepo
from ..text import peertext
from .files import head
from .sections import cap, section
from ..claude.home import state_dir
from ..state.safefiles import is_private_folder, open_regular, read_regular
from ..state.statefiles import UnusableJSON, parse_json, write_atomically

RECENT_COMMITS = 15  # about a day of work on a busy branch
COMMIT_HASH_CHARS = 12  # fixed, unlike %h, which grows with the object count and would churn
COMMITS_CACHE_NAME = "cold-start-commits.json"
COMMITS_CACHE_FORMAT = 2  # bump when commits_body changes, so old bodies are not reused
COMMITS_CACHE_CHECKOUTS = 32  # checkouts remembered; the oldest entry goes first


def _head_ref(git_folder):
    """`branch <name>` or `detached` from a HEAD file; None if unreadable."""
    text = head(os.path.join(git_folder, "HEAD"), 1)
    if not text:
        return None
    if text.startswith("ref: refs/heads/"):
        return "branch " + text[len("ref: refs/heads/"):]
    return "detached HEAD"


def head_commit(toplevel):
    """The commit HEAD points at, read from the filesystem (loose ref, then packed-refs); None
    when it cannot be told that way (unborn branch, reftable), and then git is asked."""
    own = gitrepo.git_dir(toplevel)
    common = gitrepo.git_common_dir(toplevel)
    text = head(os.path.join(own, "HEAD"), 1) if own else None
    if not text:
        return None
    if not text.startswith("ref: "):
        return text if _is_sha(text) else None
    ref = text[len("ref: "):]
    for folder in (own, common):
        loose = head(os.path.join(folder, *ref.split("/")), 1)
        if loose and _is_sha(loose):
            return loose
    try:
        with io.TextIOWrapper(open_regular(os.path.join(common, "packed-refs")), encoding="utf-8") as handle:
            for line in handle:
                sha, _, name = line.rstrip("\n").partition(" ")
                if name == ref and _is_sha(sha):
                    return sha
    except (OSError, ValueError):
        pass
    return None


def _is_sha(text):
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)


def commits_body(toplevel):
    """The recent-commits body straight from one `git log`."""
    out = gitrepo.run_git(toplevel, ["log", "-%d" % RECENT_COMMITS, "--no-color",
                                     "--format=%H%x09%an%x09%s"])
    lines = []
    for row in (out or "").splitlines():
        parts = row.split("\t", 2)
        if len(parts) == 3:
            # an author and a subject are anyone's to write: each one line of text (peertext)
            lines.append("%s  %s  %s" % (parts[0][:COMMIT_HASH_CHARS], peertext.name(parts[1]),
                                         peertext.one_line(parts[2])))
    if not lines:
        return ""
    own = gitrepo.git_dir(toplevel)
    where = _head_ref(own) if own else None
    title = "Latest commits%s (hash, author, subject):" % (" on " + where if where else "")
    return cap(title + "\n" + "\n".join(lines))


def _read_commits_cache(path):
    if not is_private_folder(os.path.dirname(path), 1):
        return {}  # peerhooks' folder is a link: what it holds is not ours to show
    try:
        value = parse_json(read_regular(path, 4 * 1024 * 1024, follow_symlinks=False))
    except (OSError, UnusableJSON):
        return {}  # a cache: rewritten whole by the next start that runs git
    return value if isinstance(value, dict) and value.get("format") == COMMITS_CACHE_FORMAT else {}


def gather_recent_commits(toplevel, home):
    """The last commits of the current branch. `git log` from one commit always prints the same
    thing, so its body is kept per checkout under peerhooks' folder, keyed by the HEAD commit
    and branch: a start with no new commit runs no git at all."""
    if toplevel is None:
        return section("recent_commits", "")
    commit = head_commit(toplevel)
    own = gitrepo.git_dir(toplevel)
    key = "%s %s" % (commit, _head_ref(own) if own else None)
    path = os.path.join(state_dir(home), COMMITS_CACHE_NAME)
    cache = _read_commits_cache(path) if commit else {}
    entries = cache.get("checkouts") if isinstance(cache.get("checkouts"), dict) else {}
    entry = entries.get(toplevel)
    if isinstance(entry, dict) and entry.get("key") == key and isinstance(entry.get("body"), str):
        return section("recent_commits", entry["body"])
    body = commits_body(toplevel)
    if commit and body:
        entries.pop(toplevel, None)
        entries[toplevel] = {"key": key, "body": body}
        kept = dict(list(entries.items())[-COMMITS_CACHE_CHECKOUTS:])
        try:
            import json

            write_atomically(path, json.dumps({"format": COMMITS_CACHE_FORMAT,
                                               "checkouts": kept}).encode("utf-8"))
        except OSError:
            pass  # a cache: the next start runs git again
    return section("recent_commits", body)


def worktree_lines(common_dir):
    """`<path>  <branch>` for the main and every linked worktree, read from the common dir."""
    linked = []
    folder = os.path.join(common_dir, "worktrees")
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        names = []
    for name in names:
        admin = os.path.join(folder, name)
        target = head(os.path.join(admin, "gitdir"), 1)
        if not target:
            continue
        path = os.path.dirname(os.path.normpath(os.path.join(admin, target)))
        flags = ""
        if os.path.exists(os.path.join(admin, "locked")):
            flags += " (locked)"
        if not os.path.isdir(path):
            flags += " (missing)"
        linked.append("%s  %s%s" % (peertext.clean(path), peertext.clean(_head_ref(admin)) or "unknown HEAD", flags))
    if not linked:
        return []
    main = []
    if os.path.basename(os.path.normpath(common_dir)) == ".git":
        main.append("%s  %s (main)" % (peertext.clean(os.path.dirname(os.path.normpath(common_dir))),
                                       peertext.clean(_head_ref(common_dir)) or "unknown HEAD"))
    return main + sorted(linked)


def gather_worktrees(toplevel):
    common = gitrepo.git_common_dir(toplevel) if toplevel else None
    lines = worktree_lines(common) if common else []
    body = ("Worktrees of this repository (path, checked out):\n" + "\n".join(lines)) if lines else ""
    return section("worktrees", cap(body))


def git_inputs(top):
    """The git files whose change could change the recent commits or the worktrees: HEAD, its
    reflog and branch ref, packed-refs, and each linked worktree's admin files and folder."""
    own = gitrepo.git_dir(top)
    common = gitrepo.git_common_dir(top)
    if not own or not common:
        return [os.path.join(top, ".git")]
    # .git itself only when it is a linked worktree's file: a main checkout's .git folder changes
    # with every index lock, and would make the quiet path useless.
    dot_git = os.path.join(top, ".git")
    paths = [dot_git] if os.path.isfile(dot_git) else []
    paths += [os.path.join(own, "HEAD"), os.path.join(own, "logs", "HEAD"),
              os.path.join(common, "packed-refs"), os.path.join(common, "worktrees")]
    text = head(os.path.join(own, "HEAD"), 1) or ""
    if text.startswith("ref: "):
        ref = text[len("ref: "):].split("/")
        paths += [os.path.join(own, *ref), os.path.join(common, *ref)]
    try:
        admins = sorted(os.listdir(os.path.join(common, "worktrees")))
    except OSError:
        admins = []
    for name in admins:
        admin = os.path.join(common, "worktrees", name)
        paths += [admin, os.path.join(admin, "HEAD"), os.path.join(admin, "gitdir"),
                  os.path.join(admin, "locked")]
        target = head(os.path.join(admin, "gitdir"), 1)
        if target:
            paths.append(os.path.dirname(os.path.normpath(os.path.join(admin, target))))
    return paths
