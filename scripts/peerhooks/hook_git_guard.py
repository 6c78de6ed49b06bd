"""git_index_guard.py: the guard's judgement with its I/O: which checkout each git operation acts
on, who else is live there (or, for the stash and refs, in any worktree of the repository), and —
only when a verdict needs them — the peers' changes and the staged index.

The decisions are pure (peerhooks.gitops classifies, peerhooks.guard_verdict judges);
scripts/git_index_guard.py is the front door, kept tiny because a script is compiled on every run.

How a refusal reaches the client: Claude Code reads a JSON `permissionDecision` on stdout, `deny`
with the reason when a narrow form exists, `ask` when none does (the human answers a permission
prompt). Codex ignores `ask` (the tool would run), so under `--host codex` a refusal is exit 2 with
the reason on stderr. A print-mode session (`claude -p`) has nobody to answer: it gets `deny`.

The human's escape, set in the environment the client is launched with (a hook never sees an
assignment made inside the command line): PEERHOOKS_GUARD=off turns the guard off for that
session, PEERHOOKS_GUARD=warn lets every command run and tells the model what it would have refused.
"""
import os

from . import cmdline, gitops, gitrepo, guard_verdict, home, hookio, platform, registry
from .claude_formats import BASH_TOOL, PRINT_ENTRYPOINT, SDK_ENTRYPOINTS

MODE_VARIABLE = "PEERHOOKS_GUARD"
MODE_OFF = ("off", "0", "false", "no")
MODE_WARN = "warn"
PRINT_MODE_ENTRYPOINTS = frozenset((PRINT_ENTRYPOINT,) + SDK_ENTRYPOINTS)  # no person to ask
IDLE_STATUS = "idle"
# What git leaves in a checkout's own git folder while an operation is under way.
IN_PROGRESS_MARKS = ("MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply",
                     "BISECT_LOG")
# What gives `git commit` a message when the line has none (git 2.39): the message a merge or a
# `merge --squash` left in the checkout's git folder, and hooks that may write one (git runs
# prepare-commit-msg and commit-msg before it aborts on an empty message; git skips a hook file that
# is not executable).
MESSAGE_FILES = ("MERGE_MSG", "SQUASH_MSG")
MESSAGE_HOOKS = ("prepare-commit-msg", "commit-msg")
# Aliases expanded in one line; ordinary operations are never capped (issue 13: a cap of 64 let
# `git add -A` through after 64 harmless adds), only the alias worklist, which a line could grow.
MAX_ALIAS_EXPANSIONS = 64
# The whole hook stays well under a second: git is asked only for what one form needs (aliases, the
# index, a revision, rm's index entries, a stash entry's files), each call bounded.
GIT_TIMEOUT_SECONDS = 0.4


def run(payload, argv, environ, now):
    """The decision on one Bash command: silence, or a deny / ask / refusal naming the peers."""
    command = payload.command
    if payload.tool_name != BASH_TOOL or command is None or "git" not in command:
        return hookio.QUIET
    mode = environ.get(MODE_VARIABLE, "").strip().lower()
    if mode in MODE_OFF:
        return hookio.QUIET
    host = "codex" if _host(argv) == "codex" else "claude"
    paths = platform.current().paths
    cwd = payload.cwd
    cwd = paths.realpath(cwd) if cwd and os.path.isabs(cwd) and os.path.isdir(cwd) else None
    context = cmdline.Context(home=platform.shell_home(environ), toplevel=gitrepo.toplevel, paths=paths)
    lookup = CheckoutLookup()
    operations = [op for op in gitops.parse(command, cwd, context, lookup)
                  if op.kind != gitops.SAFE and op.cwd]
    if not operations:
        return hookio.QUIET
    claude = home.claude_home(environ)
    sessions = registry.read_sessions(claude)
    if not sessions:
        return hookio.QUIET
    guard = _Guard(claude, sessions, payload.session_id, cwd, context, lookup, now)
    judged = guard.judged(operations)
    if not any(item.peers for item in judged):
        return hookio.QUIET
    refusals = guard.verdict(judged)
    if not refusals:
        return hookio.QUIET
    text = guard_verdict.reason(refusals, command, guard.own_files(judged), host, guard.can_send(environ))
    return _outcome(text, guard_verdict.is_ask(refusals), host, mode == MODE_WARN, guard.print_mode())


def _host(argv):
    argv = list(argv or ())
    for index, arg in enumerate(argv):
        if arg == "--host" and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith("--host="):
            return arg.partition("=")[2]
    return None


def _outcome(text, ask, host, warn_only, print_mode):
    from .jsonfast import dumps  # json's own C encoder without importing json (and re): ~7 ms under -S

    if host == "codex":
        if warn_only:
            return hookio.Outcome(warnings=["warn-only: " + text])
        return hookio.Outcome(hookio.EXIT_REFUSE, stderr=text)
    if warn_only:
        output = {"hookEventName": "PreToolUse",
                  "additionalContext": "(PEERHOOKS_GUARD=warn, the command ran) " + text}
    else:
        decision = "ask" if ask and not print_mode else "deny"
        output = {"hookEventName": "PreToolUse", "permissionDecision": decision,
                  "permissionDecisionReason": text}
    return hookio.Outcome(stdout=dumps({"hookSpecificOutput": output}, ensure_ascii=False))


class CheckoutLookup(gitops.Lookup):
    """Revision or path, asked of the checkout: a name that is a branch, tag or remote branch is a
    revision (`release-1.2`); one that exists in the tree is a path (`Dockerfile`)."""

    def is_revision(self, word, cwd):
        if cwd is None:
            return super().is_revision(word, cwd)
        top = gitrepo.toplevel(cwd)
        if top is not None and _has_ref(top, word):
            return True
        if os.path.lexists(os.path.join(cwd, word)):
            return False
        return super().is_revision(word, cwd)

    def is_current(self, revision, cwd):
        if super().is_current(revision, cwd):
            return True
        top = gitrepo.toplevel(cwd) if cwd else None
        own = gitrepo.git_dir(top) if top else None
        try:
            with open(os.path.join(own, "HEAD"), encoding="utf-8") as handle:
                head = handle.readline().strip()
        except (OSError, TypeError, UnicodeDecodeError):
            return False
        return head == "ref: refs/heads/" + revision

    def pull_rebases(self, cwd):
        return _config_set(cwd, "pull", "rebase")

    def refuses_to_rebase(self, cwd):
        import subprocess

        if not cwd or _config_set(cwd, "rebase", "autostash"):
            return False
        try:
            done = subprocess.run(["git", "-C", cwd, "diff-index", "--quiet", "HEAD", "--"],
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, timeout=GIT_TIMEOUT_SECONDS)
        except (OSError, subprocess.SubprocessError):
            return False
        return done.returncode == 1  # 1: tracked changes; anything else concludes nothing

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

    def stash_files(self, entry, cwd):
        if not cwd or entry is not None and entry.startswith("-"):
            return None
        out = gitrepo.run_git(cwd, ["stash", "show", "--name-only", "-z", "--no-renames", "--no-relative",
                                    "--include-untracked"] + ([entry] if entry is not None else []),
                              timeout=GIT_TIMEOUT_SECONDS)
        return None if out is None else [name for name in out.split("\0") if name]

    def message_waiting(self, cwd):
        top = gitrepo.toplevel(cwd) if cwd else None
        own = gitrepo.git_dir(top) if top else None
        common = gitrepo.git_common_dir(top) if top else None
        if own is None or common is None:
            return True  # cannot tell: judge the commit as one that happens
        if any(os.path.lexists(os.path.join(own, name)) for name in MESSAGE_FILES):
            return True
        if _config_set(cwd, "commit", "template") or _config_set(cwd, "core", "hookspath"):
            return True  # a template (kept under --cleanup=verbatim), or hooks elsewhere that may write one
        return any(os.access(os.path.join(common, "hooks", name), os.X_OK) for name in MESSAGE_HOOKS)

    def in_progress(self, cwd):
        top = gitrepo.toplevel(cwd) if cwd else None
        own = gitrepo.git_dir(top) if top else None
        if own is None:
            return True
        return any(os.path.lexists(os.path.join(own, name)) for name in IN_PROGRESS_MARKS)


NO_COMMIT = ""  # git answered: the revision names no commit


def _commit_of(cwd, revision):
    """The commit a revision names in a checkout; NO_COMMIT when git says there is none; None when
    git could not answer (then nothing is concluded). Only a command that would move HEAD or a ref
    asks, bounded like every git call here."""
    import subprocess

    if not cwd or revision.startswith("-"):
        return None
    try:
        done = subprocess.run(["git", "-C", cwd, "rev-parse", "-q", "--verify", revision + "^{commit}"],
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              timeout=GIT_TIMEOUT_SECONDS)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode == 1:
        return NO_COMMIT
    return done.stdout.decode("ascii", "replace").strip() or None if done.returncode == 0 else None


def _config_set(cwd, section, key):
    """True when the repository's or the user's git config sets section.key to anything but false."""
    top = gitrepo.toplevel(cwd) if cwd else None
    common = gitrepo.git_common_dir(top) if top else None
    for path in (os.path.join(common, "config") if common else None,
                 os.path.join(os.path.expanduser("~"), ".gitconfig"),
                 os.path.join(os.path.expanduser("~"), ".config", "git", "config")):
        if path and _config_file_sets(path, section, key):
            return True
    return False


def _config_file_sets(path, section, key):
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read(256 * 1024)
    except OSError:
        return False
    current = ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            current = line.strip("[]").strip().lower()
        elif current == section and line.replace(" ", "").lower().startswith(key + "="):
            return line.partition("=")[2].strip().lower() not in ("false", "no", "off", "0")
    return False


def _has_ref(top, name):
    common = gitrepo.git_common_dir(top)
    if common is None or ".." in name.split("/"):
        return False
    for prefix in ("refs/heads/", "refs/tags/", "refs/remotes/", "refs/remotes/origin/"):
        if os.path.isfile(os.path.join(common, prefix + name)):
            return True
    try:
        with open(os.path.join(common, "packed-refs"), "rb") as handle:
            packed = handle.read(4 * 1024 * 1024)
    except OSError:
        return False
    suffixes = [(" refs/%s/%s" % (kind, name)).encode() for kind in ("heads", "tags", "remotes/origin")]
    return any(line.rstrip().endswith(s) for line in packed.splitlines() for s in suffixes)


def _real(op):
    """The operation with its literal paths and target resolved through symlinks, as the peers'
    changes are (`git add ~/app-link/src` names the checkout's src)."""
    specs = []
    for spec in op.paths:
        if spec.known and not spec.pattern and not spec.shell_glob and spec.root is not None:
            spec = spec._replace(root=platform.current().paths.realpath(guard_verdict.resolve(spec, op.cwd)),
                                 relative="")
        specs.append(spec)
    target = platform.current().paths.realpath(op.target) if op.target else op.target
    return op._replace(paths=tuple(specs), target=target)


class _Guard:
    """One judgement's I/O: toplevels, live peers per checkout and per repository, their changes,
    and the index, each read once and only when needed."""

    def __init__(self, claude, sessions, session_id, cwd, context, lookup, now):
        self.claude, self.sessions, self.session_id, self.cwd = claude, sessions, session_id, cwd
        self.context, self.lookup, self.now_ms = context, lookup, int(now * 1000)
        self.ancestors = None
        self.tops = {}
        self.live = None
        self.aliases = {}
        self.changes = None

    def _toplevel(self, path):
        if path not in self.tops:
            self.tops[path] = gitrepo.toplevel(path)
        return self.tops[path]

    def _live_others(self):
        """[(session, its toplevel)] of live sessions other than this one."""
        if self.live is None:
            others = registry.alive([s for s in self.sessions if s.session_id != self.session_id])
            if others:
                self.ancestors = registry.ancestor_pids()
                others = [s for s in others if not registry.is_self(s, self.session_id, self.ancestors)]
            self.live = [(s, self._toplevel(s.cwd)) for s in others]
        return self.live

    def judged(self, operations):
        """Each operation (aliases expanded) with its toplevel and the live peers at stake."""
        judged, pending = [], list(operations)
        expansions = 0  # alias lookups, bounded: an alias is judged by what it runs, not counted
        while pending:
            op = pending.pop(0)
            real = platform.current().paths.realpath(op.cwd)
            top = self._toplevel(real)
            if top is None:
                continue
            op = gitops.relocated(op, real)
            if gitops.is_unknown(op):
                expansions += 1
                if expansions <= MAX_ALIAS_EXPANSIONS:
                    pending.extend(o for o in gitops.expand_alias(op, self._aliases(top), top, self.context,
                                                                  self.lookup) if o.kind != gitops.SAFE and o.cwd)
                continue
            judged.append(guard_verdict.Judged(_real(op), top, self._peers_at_stake(op, top)))
        return judged

    def _peers_at_stake(self, op, top):
        live = self._live_others()
        if not live:
            return ()
        if op.kind in gitops.REPOSITORY_KINDS:
            common = gitrepo.git_common_dir(top)
            chosen = [(s, t) for s, t in live if t is not None and gitrepo.git_common_dir(t) == common]
        else:
            chosen = [(s, t) for s, t in live if t == top]
        return tuple(guard_verdict.Peer(s.name or "session %s" % s.short_id, (), s.can_message,
                                       s.status != IDLE_STATUS, t) for s, t in chosen)

    def _aliases(self, top):
        if top not in self.aliases:
            output = gitrepo.run_git(top, ["config", "--get-regexp", r"^alias\."], timeout=GIT_TIMEOUT_SECONDS)
            self.aliases[top] = gitops.parse_alias_config(output or "")
        return self.aliases[top]

    def verdict(self, judged):
        needs_changes = any(j.peers and (j.operation.kind in gitops.PATH_KINDS or j.operation.relative
                                         or j.operation.kind == gitops.COMMIT_INDEX) for j in judged)
        if needs_changes:
            judged = [j._replace(peers=tuple(p._replace(changes=self._changes_of(p.name)) for p in j.peers))
                      for j in judged]
        staged = {}
        for item in judged:
            reads_index = item.operation.kind == gitops.COMMIT_INDEX or (
                item.operation.kind == gitops.STASH_APPLY and item.operation.entries is not None)
            if item.peers and reads_index and item.toplevel not in staged:
                staged[item.toplevel] = gitrepo.staged_paths(item.toplevel, timeout=GIT_TIMEOUT_SECONDS)
        return guard_verdict.verdict(judged, frozenset(self._own_changes()) if needs_changes else frozenset(), staged)

    def _read_changes(self):
        """{session id: realpaths its transcript (and its subagents') shows it changed}."""
        if self.changes is None:
            from . import peerchanges  # only a path-limited operation or a plain commit needs them

            wanted = [(s.session_id, s.cwd) for s, _t in self._live_others()]
            if self.session_id:
                wanted.append((self.session_id, self.cwd))
            self.changes = peerchanges.changes_of(self.claude, wanted, self.now_ms)
        return self.changes

    def _changes_of(self, name):
        by_id = self._read_changes()
        for session, _top in self._live_others():
            if (session.name or "session %s" % session.short_id) == name:
                return tuple(by_id.get(session.session_id, ()))
        return ()

    def _own_changes(self):
        return self._read_changes().get(self.session_id, ()) if self.session_id else ()

    def own_files(self, judged):
        """This session's changed files, relative to the first judged checkout, for the advice."""
        if self.changes is None or not judged:
            return []
        top = judged[0].toplevel
        return [guard_verdict.relative(p, top) for p in self._own_changes() if p.startswith(top + "/")]

    def _own_entry(self):
        if self.ancestors is None:
            self.ancestors = registry.ancestor_pids()
        return registry.own_entry(self.sessions, self.session_id, self.ancestors)

    def print_mode(self):
        own = self._own_entry()
        return own is not None and own.entrypoint in PRINT_MODE_ENTRYPOINTS

    def can_send(self, environ):
        return registry.can_send(self._own_entry(), environ)
