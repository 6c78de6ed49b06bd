"""Which checkout a directory belongs to, read from the filesystem rather than from git.

A hook may judge a dozen peers; one `git rev-parse` each would cost more than the hook's whole
budget. The nearest enclosing folder that holds `.git` is the checkout's toplevel: a `.git` folder
marks a main working tree, a `.git` file marks a linked worktree or a submodule, and both have their
own index, so each is a toplevel of its own.
"""
import os

from . import platform

GIT_TIMEOUT_SECONDS = 3  # a hook's whole budget is a few seconds; a hung git must not eat it


def toplevel(path):
    """The realpath of the checkout that contains path, or None outside any checkout."""
    if not path:
        return None
    paths = platform.current().paths
    try:
        current = paths.realpath(path)
    except (OSError, ValueError):
        return None
    while True:
        if os.path.lexists(os.path.join(current, ".git")):
            return current
        parent = paths.dirname(current)
        if parent == current:
            return None
        current = parent


def _read_gitdir_file(path):
    """The folder a `.git` file points to (`gitdir: <path>`), or None."""
    try:
        with open(path, encoding="utf-8") as handle:
            first = handle.readline().strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not first.startswith("gitdir:"):
        return None
    target = first[len("gitdir:"):].strip()
    return os.path.normpath(os.path.join(os.path.dirname(path), target))


def git_dir(top):
    """The repository folder of a checkout (its own, for a linked worktree)."""
    dot_git = os.path.join(top, ".git")
    if os.path.isdir(dot_git):
        return dot_git
    return _read_gitdir_file(dot_git)


def git_common_dir(top):
    """The folder shared by all worktrees of a repository (objects, refs, config, stash)."""
    own = git_dir(top)
    if own is None:
        return None
    try:
        with open(os.path.join(own, "commondir"), encoding="utf-8") as handle:
            common = handle.readline().strip()
    except OSError:
        return own
    return os.path.normpath(os.path.join(own, common))


def run_git(top, args, timeout=GIT_TIMEOUT_SECONDS):
    """Run one git command in a checkout; stdout as text, or None when git failed or is missing."""
    import subprocess  # most callers only walk the filesystem; this import costs ~6 ms

    try:
        completed = subprocess.run(
            ["git", "-C", top] + list(args),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            timeout=timeout,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if completed.returncode != 0:
        return None
    return completed.stdout.decode("utf-8", errors="replace")


def staged_paths(top, timeout=GIT_TIMEOUT_SECONDS):
    """Absolute paths staged in a checkout's index, or None when git could not tell."""
    out = run_git(top, ["diff", "--cached", "--name-only", "-z", "--no-renames"], timeout=timeout)
    if out is None:
        return None
    paths = platform.current().paths
    return [paths.join(top, name) for name in out.split("\0") if name]


def canonical_root(top):
    """The main working tree of a checkout's repository (a linked worktree maps to its main tree),
    which is what Claude Code keys auto memory by; the toplevel itself when that cannot be told."""
    common = git_common_dir(top) if top else None
    if common is None:
        return top
    if os.path.basename(os.path.normpath(common)) == ".git":
        return platform.current().paths.realpath(os.path.dirname(os.path.normpath(common)))
    return top
