"""What only the checkout can tell the git classifier (peerhooks.git.forms.run.Lookup), read from its files
where they say it, else asked of git, each call bounded: is `release-1.2` a branch and `Dockerfile`
a file, what is checked out, does a pull rebase, does a rebase autostash or only fast-forward, does a revision name
a commit, which index entries `rm`'s paths match, which files a stash entry holds, which worktrees
have a branch checked out, does the checkout give a commit a message, is a merge or rebase under way,
does a git lister detect renames here.
"""

from . import gitrepo
from .args import config_bool
from .forms.run import Lookup
from ..startup import oscalls
from ..state.safefiles import read_regular  # a FIFO in a config file's place is never waited on
from .gitrepo import GUARD_GIT_TIMEOUT_SECONDS as GIT_TIMEOUT_SECONDS

# What git leaves in a checkout's own git folder while an operation is under way.
IN_PROGRESS_MARKS = ("MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply",
                     "BISECT_LOG")
# What gives `git commit` a message when the line has none (git 2.39): the message a merge or a
# `merge --squash` left in the checkout's git folder, and hooks that may write one (git runs
# prepare-commit-msg and commit-msg before it aborts on an empty message; git skips a hook file that
# is not executable).
MESSAGE_FILES = ("MERGE_MSG", "SQUASH_MSG")
MESSAGE_HOOKS = ("prepare-commit-msg", "commit-msg")


class CheckoutLookup(Lookup):
    """Revision or path, asked of the checkout: a name that is a branch, tag or remote branch is a
    revision (`release-1.2`); one that exists in the tree is a path (`Dockerfile`)."""

    def is_revision(self, word, cwd):
        if cwd is None:
            return super().is_revision(word, cwd)
        top = gitrepo.toplevel(cwd)
        if top is not None and _has_ref(top, word):
            return True
        if oscalls.path.lexists(oscalls.path.join(cwd, word)):
            return False
        return super().is_revision(word, cwd)

    def is_current(self, revision, cwd):
        if super().is_current(revision, cwd):
            return True
        top = gitrepo.toplevel(cwd) if cwd else None
        own = gitrepo.git_dir(top) if top else None
        head = gitrepo.first_line(oscalls.path.join(own, "HEAD")) if own else None
        return head == "ref: refs/heads/" + revision

    def pull_rebases(self, cwd):
        return _config_set(cwd, "pull", "rebase")

    def fast_forwards(self, upstream, cwd):
        if not cwd or upstream.startswith("-"):
            return False
        done = gitrepo.run_git_code(cwd, ["merge-base", "--is-ancestor", "HEAD", upstream],
                                    timeout=GIT_TIMEOUT_SECONDS)
        return done is not None and done[0] == 0

    def autostashes(self, cwd):
        return bool(cwd) and _config_set(cwd, "rebase", "autostash")

    def names_no_commit(self, revisions, cwd):
        return any(_commit_of(cwd, r) == NO_COMMIT for r in revisions)

    def same_commit(self, first, second, cwd):
        commit = _commit_of(cwd, first)
        return commit not in (None, NO_COMMIT) and commit == _commit_of(cwd, second)

    def index_entries(self, pathspecs, cwd):
        if not cwd or not pathspecs or any(p.startswith("-") for p in pathspecs):
            return None
        out = gitrepo.run_git(cwd, ["ls-files", "-z", "--full-name", "--"] + list(pathspecs),
                              timeout=GIT_TIMEOUT_SECONDS)
        return None if out is None else [name for name in out.split("\0") if name]

    def detects_renames(self, keys, top):
        for key in keys:
            value = _config_value(top, *key.split("."))
            if value is not _UNSET:
                return None if value is None else config_bool(value)
        return True

    def is_folder(self, path):
        if not path or not oscalls.path.lexists(path):
            return None
        return oscalls.path.isdir(path)

    def checked_out(self, ref, cwd):
        top = gitrepo.toplevel(cwd) if cwd else None
        if top is None:
            return None
        if ref == "HEAD":
            return [top]
        heads = gitrepo.worktree_heads(top)
        return None if heads is None else sorted(t for t, head in heads.items() if head == "ref: " + ref)

    def stash_files(self, entry, cwd):
        if not cwd or entry is not None and entry.startswith("-"):
            return None
        done = gitrepo.run_git_code(cwd, ["stash", "show", "--name-only", "-z", "--no-renames", "--no-relative",
                                          "--include-untracked"] + ([entry] if entry is not None else []),
                                    timeout=GIT_TIMEOUT_SECONDS)
        if done is None:
            return None
        if done[0] != 0:
            return []  # no such entry: git shows nothing, and an apply of it changes nothing
        return [name for name in done[1].decode("utf-8", "replace").split("\0") if name]

    def message_waiting(self, cwd):
        top = gitrepo.toplevel(cwd) if cwd else None
        own = gitrepo.git_dir(top) if top else None
        common = gitrepo.git_common_dir(top) if top else None
        if own is None or common is None:
            return True  # cannot tell: judge the commit as one that happens
        if any(oscalls.path.lexists(oscalls.path.join(own, name)) for name in MESSAGE_FILES):
            return True
        if _config_set(cwd, "commit", "template") or _config_set(cwd, "core", "hookspath"):
            return True  # a template (kept under --cleanup=verbatim), or hooks elsewhere that may write one
        return any(oscalls.access(oscalls.path.join(common, "hooks", name), oscalls.X_OK) for name in MESSAGE_HOOKS)

    def in_progress(self, cwd):
        top = gitrepo.toplevel(cwd) if cwd else None
        own = gitrepo.git_dir(top) if top else None
        if own is None:
            return True
        return any(oscalls.path.lexists(oscalls.path.join(own, name)) for name in IN_PROGRESS_MARKS)


NO_COMMIT = ""  # git answered: the revision names no commit


def _commit_of(cwd, revision):
    """The commit a revision names in a checkout; NO_COMMIT when git says there is none; None when
    git could not answer (then nothing is concluded). Only a command that would move HEAD or a ref
    asks, bounded like every git call here."""
    if not cwd or revision.startswith("-"):
        return None
    done = gitrepo.run_git_code(cwd, ["rev-parse", "-q", "--verify", revision + "^{commit}"],
                                timeout=GIT_TIMEOUT_SECONDS)
    if done is None:
        return None
    if done[0] == 1:
        return NO_COMMIT
    return done[1].decode("ascii", "replace").strip() or None if done[0] == 0 else None


def _config_set(cwd, section, key):
    """True when the git config sets section.key to anything but false (the repository's setting
    winning over the user's, as git reads them)."""
    value = _config_value(gitrepo.toplevel(cwd) if cwd else None, section, key)
    return isinstance(value, str) and config_bool(value) is not False


_UNSET = object()  # a config key no file sets


def _config_value(top, section, key):
    """section.key's value as git reads it from the repository's, the user's and the XDG config
    (the repository's wins; in a file, the last setting), _UNSET when none sets it, None when a
    file includes others, which are not followed."""
    common = gitrepo.git_common_dir(top) if top else None
    for path in (oscalls.path.join(common, "config") if common else None,
                 oscalls.path.join(oscalls.path.expanduser("~"), ".gitconfig"),
                 oscalls.path.join(oscalls.path.expanduser("~"), ".config", "git", "config"), "/etc/gitconfig"):
        value = _config_file_value(path, section, key) if path else _UNSET
        if value is not _UNSET:
            return value
    return _UNSET


def _config_file_value(path, section, key):
    try:
        text = read_regular(path, 256 * 1024).decode("utf-8", "replace")
    except (OSError, ValueError):
        return _UNSET
    current, value = "", _UNSET
    for line in text.splitlines():
        line = line.split("#", 1)[0].split(";", 1)[0].strip()
        if line.startswith("["):
            current = line.strip("[]").strip().lower()
            if current.startswith(("include", "includeif")):
                return None
        elif current == section:
            name, equals, rest = line.partition("=")
            if name.strip().lower() == key:
                value = rest.strip().strip('"') if equals else "true"
    return value


def _has_ref(top, name):
    common = gitrepo.git_common_dir(top)
    if common is None or ".." in name.split("/"):
        return False
    for prefix in ("refs/heads/", "refs/tags/", "refs/remotes/", "refs/remotes/origin/"):
        if oscalls.path.isfile(oscalls.path.join(common, prefix + name)):
            return True
    try:
        packed = read_regular(oscalls.path.join(common, "packed-refs"), 4 * 1024 * 1024)
    except (OSError, ValueError):
        return False
    suffixes = [(" refs/%s/%s" % (kind, name)).encode() for kind in ("heads", "tags", "remotes/origin")]
    return any(line.rstrip().endswith(s) for line in packed.splitlines() for s in suffixes)
