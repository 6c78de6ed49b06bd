"""Which checkout a directory belongs to, read from the filesystem rather than from git.

A hook may judge a dozen peers; one `git rev-parse` each would cost more than the hook's whole
budget. The nearest enclosing folder that holds `.git` is the checkout's toplevel: a `.git` folder
marks a main working tree, a `.git` file marks a linked worktree or a submodule, and both have their
own index, so each is a toplevel of its own.
"""

from .. import platform
from ..startup import oscalls
from ..state.safefiles import read_regular  # a FIFO in a git file's place is never waited on

GIT_TIMEOUT_SECONDS = 3  # a hook's whole budget is a few seconds; a hung git must not eat it
# The guard stays well under a second: git is asked only for what one form needs (aliases, the
# index, a revision, rm's index entries, a stash entry's files, the status), each call bounded.
GUARD_GIT_TIMEOUT_SECONDS = 0.4


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
        if oscalls.path.lexists(oscalls.path.join(current, ".git")):
            return current
        parent = paths.dirname(current)
        if parent == current:
            return None
        current = parent


def first_line(path, limit=4096):
    """The first line of a small regular file (git's HEAD, a `.git` file, commondir), stripped;
    None when it cannot be read (a FIFO in its place is never waited on) or is not UTF-8."""
    try:
        return read_regular(path, limit).split(b"\n", 1)[0].decode("utf-8").strip()
    except (OSError, ValueError):  # UnicodeDecodeError is a ValueError
        return None


def _read_gitdir_file(path):
    """The folder a `.git` file points to (`gitdir: <path>`), or None."""
    first = first_line(path)
    if first is None:
        return None
    if not first.startswith("gitdir:"):
        return None
    target = first[len("gitdir:"):].strip()
    return oscalls.path.normpath(oscalls.path.join(oscalls.path.dirname(path), target))


def git_dir(top):
    """The repository folder of a checkout (its own, for a linked worktree)."""
    dot_git = oscalls.path.join(top, ".git")
    if oscalls.path.isdir(dot_git):
        return dot_git
    return _read_gitdir_file(dot_git)


def git_common_dir(top):
    """The folder shared by all worktrees of a repository (objects, refs, config, stash)."""
    own = git_dir(top)
    if own is None:
        return None
    common = first_line(oscalls.path.join(own, "commondir"))
    if common is None:
        return own
    return oscalls.path.normpath(oscalls.path.join(own, common))


MAX_WORKTREES = 64  # linked worktrees read for what they have checked out; past them, None (unknown)


def worktree_heads(top):
    """{worktree toplevel (realpath): its HEAD line (`ref: refs/heads/main`, or a commit id)} for
    every worktree of the repository holding `top`, read from the git folders' files (no git
    call); None when the repository cannot be read, or has more than MAX_WORKTREES linked ones (a
    branch one of the others has checked out would be missed: unknown is judged as checked out)."""
    common = git_common_dir(top)
    if common is None:
        return None
    realpath = platform.current().paths.realpath  # compared with toplevel()'s
    heads = {}
    if oscalls.path.basename(common) == ".git":  # not bare: the main worktree is the folder holding it
        head = first_line(oscalls.path.join(common, "HEAD"))
        if head is not None:
            heads[realpath(oscalls.path.dirname(common))] = head
    try:
        names = sorted(oscalls.listdir(oscalls.path.join(common, "worktrees")))
    except OSError:
        names = []
    if len(names) > MAX_WORKTREES:
        return None
    for name in names:
        folder = oscalls.path.join(common, "worktrees", name)
        head, pointer = first_line(oscalls.path.join(folder, "HEAD")), first_line(oscalls.path.join(folder, "gitdir"))
        if head is not None and pointer:
            heads[realpath(oscalls.path.dirname(pointer))] = head
    return heads


def run_git(top, args, timeout=GIT_TIMEOUT_SECONDS):
    """Run one git command in a checkout; stdout as text, or None when git failed or is missing."""
    return output_text(run_git_code(top, args, timeout))


def output_text(done):
    """A finished command's stdout as text, or None when it failed or did not finish."""
    if done is None or done[0] != 0:
        return None
    return done[1].decode("utf-8", errors="replace")


def run_git_code(top, args, timeout=GIT_TIMEOUT_SECONDS, env=None):
    """(exit code, stdout bytes) of one git command in a checkout, or None when it could not run or
    did not finish in time (then it is killed). stdin and stderr are /dev/null; env: the whole
    environment to run it in (None: this process's)."""
    return finish_git(start_git(top, args, timeout, env))


def start_git(top, args, timeout=GIT_TIMEOUT_SECONDS, env=None):
    """One git command started in a checkout, to be read by finish_git: the guard starts `git status`
    as soon as it knows a checkout is at stake and reads the peers' transcripts while git works.

    Every command runs with --no-optional-locks: they all only read, and a plain `git status`
    refreshes the index and writes it back under index.lock, where a peer's own `git add` at that
    moment would stop with "Unable to create index.lock"."""
    argv = ["git", "--no-optional-locks", "-C", top] + list(args)
    env = oscalls.environ if env is None else env
    if hasattr(oscalls, "posix_spawnp"):
        return _spawned(argv, timeout, env)
    import subprocess  # where posix_spawn is missing (Windows); it costs ~8 ms of start-up under -S

    try:
        completed = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, timeout=timeout, env=env)
    except (OSError, subprocess.SubprocessError):
        return None
    return Finished(completed.returncode, completed.stdout)


MAX_OUTPUT_BYTES = 16 * 1024 * 1024  # git status of a huge tree; past this the answer is not used
POLL_FIRST_S = 0.00005  # a read that finds nothing yet waits this long first...
POLL_MOST_S = 0.00025  # ...and never longer than this: a 3 s hung git costs ~12,000 wake-ups


class Finished:
    """A git command already run to its end (where it cannot be started and left to run)."""

    def __init__(self, code, output):
        self.result = (code, output)

    def finish(self):
        return self.result

    def stop(self):
        pass


class Running:
    """A git command started through posix_spawn, its stdout a pipe: the guard asks git once or
    twice per judged line, and `subprocess` alone costs about the interpreter's whole start-up (it
    imports signal, threading, selectors and locale).

    The pipe is read without blocking, sleeping between tries (POLL_FIRST_S doubling to
    POLL_MOST_S): `select` is a shared library whose loading costs ~0.5 ms, more than these waits
    add, and the guard's git status has mostly ended by the time it is read."""

    def __init__(self, pid, read_end, deadline):
        self.pid, self.read_end, self.deadline = pid, read_end, deadline

    def finish(self):
        import time

        chunks, size, finished, pause = [], 0, False, POLL_FIRST_S
        try:
            while True:
                try:
                    data = oscalls.read(self.read_end, 65536)
                except BlockingIOError:
                    remaining = self.deadline - time.monotonic()
                    if remaining <= 0:
                        break
                    time.sleep(min(pause, remaining))
                    pause = min(pause * 2, POLL_MOST_S)
                    continue
                if not data:
                    finished = True
                    break
                size += len(data)
                if size > MAX_OUTPUT_BYTES:
                    break
                chunks.append(data)
                pause = POLL_FIRST_S
        finally:
            oscalls.close(self.read_end)
            if not finished:
                try:
                    oscalls.kill(self.pid, 9)
                except OSError:
                    pass
            _pid, status = oscalls.waitpid(self.pid, 0)
        if not finished:
            return None
        return oscalls.waitstatus_to_exitcode(status), b"".join(chunks)

    def stop(self):
        oscalls.close(self.read_end)
        try:
            oscalls.kill(self.pid, 9)
        except OSError:
            pass
        oscalls.waitpid(self.pid, 0)


def finish_git(started):
    """(exit code, stdout bytes) of a command start_git started, or None (see run_git_code)."""
    return None if started is None else started.finish()


def stop_git(started):
    """A command start_git started and nobody will read: killed and reaped."""
    if started is not None:
        started.stop()


def _spawned(argv, timeout, env):
    import time

    read_end, write_end = oscalls.pipe()
    null = oscalls.open(oscalls.devnull, oscalls.O_RDWR)
    try:
        pid = oscalls.posix_spawnp(argv[0], argv, env, file_actions=[
            (oscalls.POSIX_SPAWN_DUP2, null, 0), (oscalls.POSIX_SPAWN_DUP2, write_end, 1), (oscalls.POSIX_SPAWN_DUP2, null, 2)])
    except OSError:
        oscalls.close(read_end)
        return None
    finally:
        oscalls.close(write_end)
        oscalls.close(null)
    oscalls.set_blocking(read_end, False)
    return Running(pid, read_end, time.monotonic() + timeout)


def canonical_root(top):
    """The main working tree of a checkout's repository (a linked worktree maps to its main tree),
    which is what Claude Code keys auto memory by; the toplevel itself when that cannot be told."""
    common = git_common_dir(top) if top else None
    if common is None:
        return top
    if oscalls.path.basename(oscalls.path.normpath(common)) == ".git":
        return platform.current().paths.realpath(oscalls.path.dirname(oscalls.path.normpath(common)))
    return top


def refs_moved_ms(top):
    """When git last moved what a commit, reset, checkout or stash moves (the newest mtime, ms, of
    HEAD, its reflog, its branch's ref, packed-refs, the stash ref and its reflog), read from the
    filesystem; None when that cannot be told (no git folder). A change made after it cannot have
    been committed or stashed since (only reverted, which no ref records)."""
    own = git_dir(top)
    common = git_common_dir(top)
    if not own or not common:
        return None
    paths = [oscalls.path.join(own, "HEAD"), oscalls.path.join(own, "logs", "HEAD"), oscalls.path.join(common, "packed-refs"),
             oscalls.path.join(common, "refs", "stash"), oscalls.path.join(common, "logs", "refs", "stash")]
    try:
        with open(paths[0], encoding="utf-8", errors="replace") as handle:
            head = handle.readline(1024).strip()
    except OSError:
        return None
    if head.startswith("ref: "):
        paths += [oscalls.path.join(own, head[5:]), oscalls.path.join(common, head[5:])]
    newest = None
    for path in paths:
        try:
            mtime_ms = oscalls.stat(path).st_mtime_ns // 1000000
        except (OSError, ValueError):
            continue
        newest = mtime_ms if newest is None or mtime_ms > newest else newest
    return newest
