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

from . import cmdline, gitops, gitrepo, guard_verdict, home, hookio, reach, registry, wrappers
from .claude_formats import BASH_TOOL, DAY_MS, PRINT_ENTRYPOINT, SDK_ENTRYPOINTS
from .shell import TooLarge

MODE_VARIABLE = hookio.OFF_SWITCH
MODE_OFF = hookio.OFF_VALUES
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
    if payload.tool_name != BASH_TOOL or command is None:
        return hookio.QUIET
    mode = environ.get(MODE_VARIABLE, "").strip().lower()
    if mode in MODE_OFF:
        return hookio.QUIET
    host = hookio.host(argv)
    cwd = payload.cwd
    cwd = os.path.realpath(cwd) if cwd and os.path.isabs(cwd) and os.path.isdir(cwd) else None
    context = cmdline.Context(home=environ.get("HOME"), toplevel=gitrepo.toplevel, glob=_glob,
                              follow=wrappers.follower_for(command))
    lookup = CheckoutLookup()
    claude = home.claude_home(environ)
    try:
        runs = cmdline.commands(command, cwd, context)
        operations = [op for op in gitops.fold_private_indexes(gitops.operations(runs, context, lookup))
                      if op.kind != gitops.SAFE and op.cwd]
        operations = _launched_with_a_private_index(operations, environ)
    except TooLarge as error:
        return _too_large(claude, payload, cwd, context, lookup, now, command, error, host, mode)
    operations.extend(_writes(runs, context))
    if not operations:
        return hookio.QUIET
    sessions = registry.read_sessions(claude)
    guard = _Guard(claude, sessions, payload, cwd, context, lookup, now)
    if not guard.anyone_else():
        return hookio.QUIET
    judged = guard.judged(operations)
    if not any(item.peers for item in judged):
        return hookio.QUIET
    refusals = guard.verdict(judged)
    if not refusals:
        return hookio.QUIET
    suggestion = guard.suggestion(judged, refusals, command)
    if suggestion.shared:  # files both changed that no narrow form can take apart: the human decides
        refusals = [r._replace(ask=True) for r in refusals]
    text = guard_verdict.reason(refusals, command, suggestion.text, host, guard.can_send(environ),
                                suggestion.no_own_work, _relative_all(suggestion.shared, judged))
    return _outcome(text, guard_verdict.is_ask(refusals), host, mode == MODE_WARN, guard.print_mode())


def _relative_all(paths, judged):
    """Shared paths as the refusal names them, relative to their checkout."""
    tops = sorted({j.toplevel for j in judged}, key=len, reverse=True)
    found = []
    for path in paths:
        top = next((t for t in tops if path.startswith(t.rstrip("/") + "/")), None)
        found.append(reach.relative(path, top) if top else path)
    return found


COMMIT_KINDS = frozenset([gitops.COMMIT_INDEX, gitops.COMMIT_ALL, gitops.COMMIT_PATHS])


def _launched_with_a_private_index(operations, environ):
    """With GIT_INDEX_FILE in the environment the client was launched with, every commit is made
    from that index (issue 19: refused before, but said to 'commit them as yours' when it deletes)."""
    index = environ.get("GIT_INDEX_FILE")
    if not index:
        return operations
    path = os.path.abspath(index)
    return [op._replace(kind=gitops.COMMIT_PRIVATE, target=path, private=gitops.PrivateIndex(path, False, ()))
            if op.kind in COMMIT_KINDS else op for op in operations]


def _writes(runs, context):
    """Operations for the files the line's shell commands write over or remove, inside checkouts
    (issue 19: `echo x > <a peer's uncommitted file>` destroyed work no index or commit held)."""
    found = []
    for path, pattern, run in cmdline.targets_of(runs, context, os.path.isdir):
        if run.name != "git" and run.cwd and gitrepo.toplevel(os.path.dirname(path) if not pattern else run.cwd):
            found.append(gitops.write_operation(path, pattern, run))
    for run in runs:
        if run.name == "find" or run.fed_by is not None and run.fed_by.name == "find":
            operation = gitops.found_write_operation(run)
            if operation is not None:
                found.append(operation)
    return found


MAX_GLOB_MATCHES = 256  # a `for f in src/*.py` loop over more files than this is not followed


def _glob(pattern, cwd):
    """The shell's expansion of a pattern in a `for` loop's words, sorted as Bash sorts (C locale),
    or None past MAX_GLOB_MATCHES; only a loop over a pattern gets here."""
    import glob  # imports fnmatch and re: only a judged `for` loop over a pattern pays for them

    full = pattern if pattern.startswith("/") else os.path.join(cwd, pattern)
    found = []
    for match in glob.iglob(full):
        found.append(match if pattern.startswith("/") else os.path.relpath(match, cwd))
        if len(found) > MAX_GLOB_MATCHES:
            return None
    return sorted(found)


def _too_large(claude, payload, cwd, context, lookup, now, command, error, host, mode):
    """A line too large to judge within the guard's budget: put to the human beside anyone live in
    the checkout (never let through unjudged, as the client's timeout would), silent alone."""
    guard = _Guard(claude, registry.read_sessions(claude), payload, cwd, context, lookup, now)
    top = gitrepo.toplevel(cwd) if cwd else None
    others = [p for p, t in guard.parties_in(top)] if top else []
    if not others:
        return hookio.QUIET
    text = guard_verdict.too_large_reason(command, str(error), others, host)
    return _outcome(text, True, host, mode == MODE_WARN, guard.print_mode())


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
        head = gitrepo.first_line(os.path.join(own, "HEAD")) if own else None
        return head == "ref: refs/heads/" + revision

    def pull_rebases(self, cwd):
        return _config_set(cwd, "pull", "rebase")

    def refuses_to_rebase(self, cwd):
        if not cwd or _config_set(cwd, "rebase", "autostash"):
            return False
        done = gitrepo.run_git_code(cwd, ["diff-index", "--quiet", "HEAD", "--"], timeout=GIT_TIMEOUT_SECONDS)
        return done is not None and done[0] == 1  # 1: tracked changes; anything else concludes nothing

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
    from .safefiles import read_regular  # a FIFO in a config file's place is never waited on

    try:
        text = read_regular(path, 256 * 1024).decode("utf-8", "replace")
    except (OSError, ValueError):
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
    from .safefiles import read_regular

    try:
        packed = read_regular(os.path.join(common, "packed-refs"), 4 * 1024 * 1024)
    except (OSError, ValueError):
        return False
    suffixes = [(" refs/%s/%s" % (kind, name)).encode() for kind in ("heads", "tags", "remotes/origin")]
    return any(line.rstrip().endswith(s) for line in packed.splitlines() for s in suffixes)


def _real(op):
    """The operation with its literal paths and target resolved through symlinks, as the peers'
    changes are (`git add ~/app-link/src` names the checkout's src)."""
    specs = []
    for spec in op.paths:
        if spec.known and not spec.pattern and not spec.shell_glob and spec.root is not None:
            spec = spec._replace(root=os.path.realpath(reach.resolve(spec, op.cwd)), relative="")
        specs.append(spec)
    target = os.path.realpath(op.target) if op.target and op.kind == gitops.REMOVE_WORKTREE else op.target
    return op._replace(paths=tuple(specs), target=target)


class _Guard:
    """One judgement's I/O: who else works here (identity.Caller: other sessions, with their chains
    of ids across /clear; this session's main thread or live subagents), their changes, and git's
    state of the checkouts at stake, each read once and only when needed."""

    def __init__(self, claude, sessions, payload, cwd, context, lookup, now):
        from .identity import Caller

        self.claude, self.sessions, self.payload, self.cwd = claude, sessions, payload, cwd
        self.session_id, self.agent_id = payload.session_id, payload.agent_id
        self.context, self.lookup, self.now_ms = context, lookup, int(now * 1000)
        self.caller = Caller(claude, sessions, payload.session_id, payload.agent_id, cwd, payload.transcript_path,
                             self.now_ms)
        self.aliases = {}
        self.changes = None
        self.states = {}

    def _toplevel(self, path):
        return self.caller.toplevel(path)

    def _parties(self):
        """(this caller's own transcripts, [(Party, its checkout)])."""
        return self.caller.parties()

    def parties_in(self, top):
        """[(Party, checkout)] of those working in the checkout `top`."""
        return self.caller.parties_in(top)

    def anyone_else(self):
        return self.caller.anyone_else()

    def judged(self, operations):
        """Each operation (aliases expanded) with its toplevel and the parties at stake."""
        judged, pending = [], list(operations)
        expansions = 0  # alias lookups, bounded: an alias is judged by what it runs, not counted
        while pending:
            op = pending.pop(0)
            real = os.path.realpath(op.cwd)
            top = self._toplevel(real)
            if top is None:
                continue
            op = gitops.relocated(op, real)
            if gitops.is_unknown(op):
                expansions += 1
                if expansions <= MAX_ALIAS_EXPANSIONS:
                    aliases = dict(self._aliases(top))  # `git -c alias.x='!git add -A' x` is judged too
                    aliases.update((k[len("alias."):], v) for k, v in op.config if k.startswith("alias."))
                    pending.extend(o for o in gitops.expand_alias(op, aliases, top, self.context,
                                                                  self.lookup) if o.kind != gitops.SAFE and o.cwd)
                continue
            judged.append(guard_verdict.Judged(_real(op), top, self._peers_at_stake(op, top)))
        return judged

    def _peers_at_stake(self, op, top):
        chosen = self._parties()[1]
        if op.kind in gitops.REPOSITORY_KINDS:
            common = gitrepo.git_common_dir(top)
            chosen = [(p, t) for p, t in chosen if t is not None and gitrepo.git_common_dir(t) == common]
        else:
            chosen = [(p, t) for p, t in chosen if t == top]
        return tuple(guard_verdict.Peer(p.name or "session %s" % (p.session_id or "")[:8], (), p.can_message,
                                        p.busy, t, p.kind) for p, t in chosen)

    def _aliases(self, top):
        if top not in self.aliases:
            output = gitrepo.run_git(top, ["config", "--get-regexp", r"^alias\."], timeout=GIT_TIMEOUT_SECONDS)
            self.aliases[top] = gitops.parse_alias_config(output or "")
        return self.aliases[top]

    def _read_changes(self):
        """{party key: realpaths its transcripts show it changed}, and this caller's own under OWN."""
        if self.changes is None:
            from . import peerchanges  # only a judgement with someone at stake needs them

            mine, parties = self._parties()
            wanted = {p.key: list(p.transcripts) for p, _t in parties}
            wanted[OWN] = list(mine)
            self.changes = peerchanges.changes_of(self.claude, wanted, self.now_ms)
        return self.changes

    def _own_changes(self):
        return self._read_changes().get(OWN, ())

    def _states(self, top, ignored=False):
        """git's state of a checkout now ({path: PathState}, or None when git did not answer in time)."""
        key = (top, ignored)
        if key not in self.states:
            from . import gitstate

            self.states[key] = gitstate.read(top, GIT_TIMEOUT_SECONDS, ignored=ignored)
        return self.states[key]

    def verdict(self, judged):
        from . import gitstate

        changes = self.changes = self._split_shared(judged, self._read_changes())
        keyed = {p.name or "session %s" % (p.session_id or "")[:8]: p.key for p, _t in self._parties()[1]}
        judged = [j._replace(peers=tuple(p._replace(changes=tuple(changes.get(keyed.get(p.name), ())))
                                         for p in j.peers)) for j in judged]
        states_of, stash_of = {}, {}
        for item in judged:
            if not item.peers:
                continue
            ignored = gitops.IGNORED_WORK in gitops.touches_of(item.operation)
            states_of[item.toplevel] = self._states(item.toplevel, ignored)
            if item.operation.kind in (gitops.STASH_STACK, gitops.STASH_APPLY) and item.toplevel not in stash_of:
                stash_of[item.toplevel] = gitstate.read_stash(item.toplevel, GIT_TIMEOUT_SECONDS)
        owners_of = {top: self._stash_owners(top, entries) for top, entries in stash_of.items() if entries}
        self.states_of, self.with_changes = states_of, judged
        private_of = {}
        for item in judged:
            index = item.operation.private
            if item.peers and item.operation.kind == gitops.COMMIT_PRIVATE and isinstance(index, gitops.PrivateIndex) \
                    and isinstance(index.path, str) and not index.fresh and index.path not in private_of:
                private_of[index.path] = _private_differs(item.toplevel, index.path)
        return guard_verdict.verdict(judged, frozenset(self._own_changes()), states_of, stash_of, private_of,
                                     owners_of)

    def _stash_owners(self, top, entries):
        """{stash ref: who pushed it} from the `git stash` commands in this session's, the live
        parties' and the recently ended sessions' transcripts (bounded: a few transcripts, each
        read from its tail back to the oldest entry's time)."""
        from . import stash_owners, transcripts

        stamps = [e.created_s for e in entries if e.created_s is not None]
        since_ms = max(min(stamps) * 1000 - STASH_LEAD_MS if stamps else 0, self.now_ms - STASH_OWNER_DAYS * DAY_MS)
        sources = [(stash_owners.SELF, path) for path in self._parties()[0]]
        sources += [(party.name, path) for party, _t in self._parties()[1] for path in party.transcripts]
        known = {path for _owner, path in sources}
        table = self.caller.table()
        for _mtime, session_id, path in transcripts.transcripts_in(self.claude, top, since_ms):
            if path not in known:
                entry = table.get(session_id)
                sources.append(("%s (ended)" % (entry[0] if entry and entry[0] else session_id[:8]), path))
                known.add(path)
        pushes = []
        for owner, path in sources[:MAX_STASH_TRANSCRIPTS]:
            for call in transcripts.tool_calls_since(path, since_ms).calls:
                if call.name == BASH_TOOL and call.command and "stash" in call.command:
                    pushes.extend(stash_owners.Push(owner, call.at_ms, message)
                                  for message in gitops.stash_pushes(call.command, call.cwd))
        return stash_owners.owners(entries, pushes)

    def _split_shared(self, judged, changes):
        """The changes with each file both this session and a peer changed given to whoever still
        has uncommitted hunks in it (guard_shared), as far as this session's edit records tell."""
        self.splits = {}
        own = set(changes.get(OWN, ()))
        tops = {item.toplevel for item in judged if item.peers}
        shared = {p for key, paths in changes.items() if key != OWN for p in paths if p in own}
        if not shared:
            return changes
        from . import gitstate, guard_shared

        for path in sorted(shared):
            top = next((t for t in tops if path.startswith(t.rstrip("/") + "/")), None)
            states = self._states(top) if top else None
            if top is None or states is None or gitstate.state_of(states, reach.relative(path, top)) is None:
                continue
            self.splits[path] = guard_shared.split(self.claude, top, path, self._parties()[0], GIT_TIMEOUT_SECONDS)
        whole_own = {p for p, s in self.splits.items() if s.all_own}
        none_own = {p for p, s in self.splits.items() if s.none_own}
        return {key: [p for p in paths if (p not in none_own if key == OWN else p not in whole_own)]
                for key, paths in changes.items()}

    def suggestion(self, judged, refusals, command):
        """The narrow.Suggestion for the refused line (none when a refusal is the human's to decide)."""
        from . import gitstate, narrow

        if guard_verdict.is_ask(refusals) or any(r.ask for r in refusals):
            return narrow.Suggestion(None)
        own_states_of = {}
        peers_paths = set()
        judged = self.with_changes  # the same operations, with the peers' changes read
        for item in judged:
            top = item.toplevel
            states = self.states_of.get(top) or self._states(top)
            if states is None:
                return narrow.Suggestion(None)
            prefix = top.rstrip("/") + "/"
            own = {}
            for path in self._own_changes():
                if path.startswith(prefix):
                    state = gitstate.state_of(states, path[len(prefix):])
                    if state is not None:
                        own[path] = state
            own_states_of[top] = own
            for peer in item.peers:
                peers_paths.update(peer.changes)
        shared = frozenset(p for states in own_states_of.values() for p in states if p in peers_paths)
        refused = {id(r.operation) for r in refusals}
        items = [(j.operation, j.toplevel) for j in judged]
        found = narrow.suggestion(command, self.cwd, items, refused, own_states_of, shared)
        if not found.shared:
            return found
        patches = {p: self.splits[p].patch for p in found.shared if p in self.splits and self.splits[p].patch}
        if len(patches) < len(found.shared):
            return found  # a file whose hunks cannot be told apart: the human decides
        return narrow.suggestion(command, self.cwd, items, refused, own_states_of, shared, patches)

    def _own_entry(self):
        return self.caller.own_entry()

    def print_mode(self):
        own = self._own_entry()
        return own is not None and own.entrypoint in PRINT_MODE_ENTRYPOINTS

    def can_send(self, environ):
        return registry.can_send(self._own_entry(), environ)


OWN = "\0own"  # the key of this caller's own changes beside the parties' keys
# Whose stash entries: transcripts read back to the oldest entry (less this lead), for entries made
# within these days by at most this many sessions (live or ended: issue 19 asks about both).
STASH_LEAD_MS = 10 * 60 * 1000
STASH_OWNER_DAYS = 3
MAX_STASH_TRANSCRIPTS = 24


def _private_differs(top, index):
    """[(status, path)] where a private index differs from HEAD (a commit from it changes those),
    or None when it cannot be read (missing, not an index, git too slow)."""
    if not os.path.isfile(index):
        return None
    env = dict(os.environ, GIT_INDEX_FILE=index)
    done = gitrepo.run_git_code(top, ["diff", "--cached", "--name-status", "-z", "--no-renames", "HEAD", "--"],
                                timeout=GIT_TIMEOUT_SECONDS, env=env)
    if done is None or done[0] != 0:
        return None
    fields = done[1].decode("utf-8", "replace").split("\0")
    return [(fields[i], fields[i + 1]) for i in range(0, len(fields) - 1, 2) if fields[i]]
