"""Who and what is at stake for one judged line, read once and only when needed: the parties (other
live sessions with their chains of ids across /clear, this session's main thread or running
subagents: peerhooks.claude.identity.Caller, which the edit notice asks too), the files each changed
(peerhooks.claude.peerchanges), git's state of the checkouts at stake (peerhooks.git.gitstate), a
shared file's split between this session and a peer (peerhooks.guard.shared), the stash's owners
(peerhooks.git.stash_owners) and a private index against HEAD. peerhooks.guard.judge asks it once
the line is known to run git or write a file.
"""

from ..git import classify, gitrepo, gitstate, kinds, reach
from ..git import refusals as gitfails
from ..git.forms.head_movers import applied_commits
from ..git.kinds import PrivateIndex
from ..shell.lexer import TooLarge
from ..startup import oscalls
from .. import platform
from ..claude import registry
from ..claude.identity import Caller
from ..claude.formats import BASH_TOOL, DAY_MS, PRINT_ENTRYPOINT, SDK_ENTRYPOINTS
from ..git.gitrepo import GUARD_GIT_TIMEOUT_SECONDS as GIT_TIMEOUT_SECONDS
from ..state.safefiles import read_regular
from . import verdict as guard_verdict

PRINT_MODE_ENTRYPOINTS = frozenset((PRINT_ENTRYPOINT,) + SDK_ENTRYPOINTS)  # no person to ask
# Aliases expanded in one line; ordinary operations are never capped (issue 13: a cap of 64 let
# `git add -A` through after 64 harmless adds), only the alias worklist, which a line could grow.
MAX_ALIAS_EXPANSIONS = 64


def _name(party):
    """How a refusal names a party."""
    return party.name or "session %s" % (party.session_id or "")[:8]


def _real(op):
    """The operation with its literal paths and target resolved through symlinks, as the peers'
    changes are (`git add ~/app-link/src` names the checkout's src). A shell write's file keeps its
    last component: the guard's hook named it where the write lands (a link's target, or the link
    that `sed -i` or `rm` replaces), so only its folder is resolved."""
    real = {}
    for spec in op.paths:
        if spec.known and not spec.pattern and not spec.shell_glob and spec.root is not None:
            real[spec] = spec._replace(root=_resolved(reach.resolve(spec, op.cwd), op.kind), relative="")
    target = (platform.current().paths.realpath(op.target) if op.target and op.kind == kinds.REMOVE_WORKTREE
              else op.target)
    feeds = tuple((feed, tuple(real.get(s, s) for s in standing)) for feed, standing in op.feeds)
    return op._replace(paths=tuple(real.get(s, s) for s in op.paths), target=target, feeds=feeds,
                       alone=_real(op.alone) if op.alone is not None else None)


def _resolved(path, kind):
    """An operation's path through symlinks: a shell write's folder only, anything else whole."""
    paths = platform.current().paths
    if kind == kinds.SHELL_WRITE:
        return paths.join(paths.realpath(paths.dirname(path)), paths.basename(path))
    return paths.realpath(path)


class Stakes:
    """One judgement's I/O: who else works here (other sessions, with their chains of ids across
    /clear; this session's main thread or live subagents), their changes, and git's state of the
    checkouts at stake, each read once and only when needed."""

    def __init__(self, claude, sessions, payload, cwd, context, lookup, now):
        self.claude, self.sessions, self.payload, self.cwd = claude, sessions, payload, cwd
        self.session_id, self.agent_id = payload.session_id, payload.agent_id
        self.context, self.lookup, self.now_ms = context, lookup, int(now * 1000)
        self.caller = Caller(claude, sessions, payload.session_id, payload.agent_id, cwd, payload.transcript_path,
                             self.now_ms)
        self.aliases = {}
        self.changes = None
        self.states = {}
        self.reading = {}  # (top, ignored): git status started, not yet read

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

    def start_reading(self, operations):
        """git status started for each checkout an operation runs in where another live session
        works, before the parties and their transcripts are read: git works meanwhile."""
        others = {top for _session, top in self.caller.live_others() if top is not None}
        for op in operations:
            if others and not classify.is_unknown(op):
                top = self._toplevel(platform.current().paths.realpath(op.cwd))
                if top in others:
                    self._start_states(top, kinds.IGNORED_WORK in kinds.touches_of(op))

    def judged(self, operations):
        """Each operation (aliases expanded) with its toplevel and the parties at stake."""
        judged, pending = [], list(operations)
        expansions = 0  # alias lookups, bounded: an alias is judged by what it runs, not counted
        while pending:
            op = pending.pop(0)
            real = platform.current().paths.realpath(op.cwd)
            top = self._toplevel(real)
            if top is None:
                continue
            op = classify.relocated(op, real)
            if classify.is_unknown(op):
                expansions += 1
                if expansions > MAX_ALIAS_EXPANSIONS:  # what the rest run is not judged: said, never let through
                    raise TooLarge("more than %d git aliases or unknown git commands" % MAX_ALIAS_EXPANSIONS)
                aliases = dict(self._aliases(top))  # `git -c alias.x='!git add -A' x` is judged too
                aliases.update((k[len("alias."):], v) for k, v in op.config if k.startswith("alias."))
                pending.extend(o for o in classify.expand_alias(op, aliases, top, self.context,
                                                                self.lookup) if o.kind != kinds.SAFE and o.cwd)
                continue
            peers = self._peers_at_stake(op, top)
            if peers:  # git reads the checkout while the peers' transcripts are read (verdict)
                self._start_states(top, kinds.IGNORED_WORK in kinds.touches_of(op))
            judged.append(guard_verdict.Judged(_real(op), top, peers))
        return judged

    def _peers_at_stake(self, op, top):
        chosen = self._parties()[1]
        if op.kind in kinds.REPOSITORY_KINDS:
            common = gitrepo.git_common_dir(top)
            chosen = [(p, t) for p, t in chosen if t is not None and gitrepo.git_common_dir(t) == common]
        else:
            chosen = [(p, t) for p, t in chosen if t == top]
        return tuple(guard_verdict.Peer(_name(p), (), p.can_message, p.busy, t, p.kind) for p, t in chosen)

    def _aliases(self, top):
        if top not in self.aliases:
            output = gitrepo.run_git(top, ["config", "--get-regexp", r"^alias\."], timeout=GIT_TIMEOUT_SECONDS)
            self.aliases[top] = classify.parse_alias_config(output or "")
        return self.aliases[top]

    def _read_changes(self):
        """{party key: realpaths its transcripts show it changed}, and this caller's own under OWN."""
        if self.changes is None:
            from ..claude import peerchanges  # seam: a line with nobody else live reads no changes (3 modules, 0.3 ms)

            mine, parties = self._parties()
            wanted = {p.key: list(p.transcripts) for p, _t in parties}
            wanted[OWN] = list(mine)
            self.changes = peerchanges.changes_of(self.claude, wanted, self.now_ms)
        return self.changes

    def _own_changes(self):
        return self._read_changes().get(OWN, ())

    def _start_states(self, top, ignored=False):
        key = (top, ignored)
        if key not in self.states and key not in self.reading:
            self.reading[key] = gitstate.start_read(top, GIT_TIMEOUT_SECONDS, ignored=ignored)

    def close(self):
        """Every git status started and not read, stopped."""
        for started in self.reading.values():
            gitrepo.stop_git(started)
        self.reading.clear()

    def _states(self, top, ignored=False):
        """git's state of a checkout now ({path: PathState}, or None when git did not answer in time)."""
        key = (top, ignored)
        if key not in self.states:
            self._start_states(top, ignored)
            self.states[key] = gitstate.finish_read(self.reading.pop(key))
        return self.states[key]

    def verdict(self, judged, chain=None, saved_trees=()):
        """The refusals (guard_verdict.verdict) of the judged operations of a line whose commands
        run as `chain` (chains.Chain) says; saved_trees: its patch_roundtrip.RoundTrips."""
        judged = self._with_changes(judged)
        states_of, stash_of = self._read_states(judged)
        owners_of = {top: self._stash_owners(top, entries) for top, entries in stash_of.items() if entries}
        judged = self._as_they_run(judged, states_of)
        self.states_of, self.with_changes = states_of, judged
        private_of = _private_indexes(judged)
        binary_of = {top: _binary(top) for top in states_of} if saved_trees else None
        refusals = guard_verdict.verdict(judged, frozenset(self._own_changes()), states_of, stash_of, private_of,
                                         owners_of, chain, _present(judged), _in_the_way(judged, states_of),
                                         saved_trees, binary_of)
        rewrites = guard_verdict.judged_by_their_files(refusals, [j.operation for j in judged], chain)
        if rewrites:
            refusals = guard_verdict.without_unchanged(refusals, _unchanged(rewrites, judged))
        return refusals

    def _with_changes(self, judged):
        """The judged operations, each peer with the files it changed (a file both this session and
        a peer changed given to whoever still has uncommitted hunks in it: _split_shared)."""
        changes = self.changes = self._split_shared(judged, self._read_changes())
        keyed = {_name(p): p.key for p, _t in self._parties()[1]}
        return [j._replace(peers=tuple(p._replace(changes=tuple(changes.get(keyed.get(p.name), ())))
                                       for p in j.peers)) for j in judged]

    def _read_states(self, judged):
        """({toplevel: git's state of it}, {toplevel: its stash entries}) for the operations with
        peers at stake: the checkout each acts on, the worktree `git worktree remove` would remove,
        and the stash stack a pop, drop or apply takes from."""
        states_of, stash_of = {}, {}
        for item in judged:
            if not item.peers:
                continue
            ignored = kinds.IGNORED_WORK in kinds.touches_of(item.operation)
            states_of[item.toplevel] = self._states(item.toplevel, ignored)
            check, target = item.operation.precheck, item.operation.target
            if check is not None and check.clean_target and target and self._toplevel(target) == target:
                states_of[target] = self._states(target)
            if item.operation.kind in (kinds.STASH_STACK, kinds.STASH_APPLY) and item.toplevel not in stash_of:
                stash_of[item.toplevel] = gitstate.read_stash(item.toplevel, GIT_TIMEOUT_SECONDS)
        return states_of, stash_of

    def _as_they_run(self, judged, states_of):
        """The operations as git's state now makes them: what `… | xargs git add` is given, the
        files `git add -p` stages with the answers it is fed, and without a revert or cherry-pick of
        commits older than every party at stake."""
        if any(j.operation.feeds for j in judged):
            from ..git import fed_paths  # seam: only a line feeding git loads the feed model (shell.feeds)

            renamed = self._renamed(judged, states_of)
            judged = [j._replace(operation=fed_paths.with_fed_paths(j.operation, j.toplevel, states_of.get(j.toplevel),
                                                                    renamed.get(j.toplevel))) for j in judged]
        judged = [j._replace(operation=_answered(j.operation, j.toplevel, states_of.get(j.toplevel), self.splits))
                  for j in judged]
        return [j for j in judged if not self._applies_only_older_commits(j)]

    def _renamed(self, judged, states_of):
        """{toplevel: {feeds.Listing: {new: old}}}: for each git lister feeding an operation that
        folds a staged rename into one line (`git diff --cached --name-only` prints only the new
        name), the renames git finds ({} when it detects none here). git is asked once per
        comparison, and only when the state could hold a rename (peerhooks.shell.feeds.rename_comparison)."""
        renamed, asked = {}, {}
        if not any(item.operation.feeds for item in judged):
            return renamed  # a line without a feed loads no feed module
        from ..shell import feeds  # seam: only a line feeding git, which loaded it already (1 module)

        for item in judged:
            states = states_of.get(item.toplevel)
            for feed, _standing in item.operation.feeds if item.peers and states is not None else ():
                source = feed.source
                comparison = feeds.rename_comparison(source, states)
                if comparison is None:
                    continue
                detects = source.renames if source.renames is not None else self.lookup.detects_renames(
                    ("status.renames", "diff.renames") if source.status else ("diff.renames",), item.toplevel)
                key = (item.toplevel, comparison)
                if detects and key not in asked:
                    asked[key] = gitstate.read_renames(item.toplevel, comparison, GIT_TIMEOUT_SECONDS)
                pairs = {} if detects is False else asked.get(key) if detects else None
                if pairs is not None:
                    renamed.setdefault(item.toplevel, {})[source] = pairs
        return renamed

    def _applies_only_older_commits(self, item):
        """A `revert -n` / `cherry-pick -n` of commits made before every party at stake started
        (issue 19 asks about a peer's commit undone or swept up, not about older history)."""
        revisions = applied_commits(item.operation)
        if revisions is None or not item.peers:
            return False
        started_of = self._started_of()
        started = [started_of.get(peer.name) for peer in item.peers]
        if any(s is None for s in started):
            return False
        times = gitstate.commit_times(item.toplevel, revisions, GIT_TIMEOUT_SECONDS)
        return guard_verdict.predates_every_party(times, started)

    def _started_of(self):
        """{party name: when it started (ms), or None}: a session's process start; this session's
        main thread and subagents began after it did, so its start stands for theirs."""
        started = {s.session_id: s.started_at_ms for s in self.sessions}
        own = self.caller.own_entry()
        return {_name(p): started.get(p.session_id) if p.kind == "session" else
                own.started_at_ms if own is not None else None for p, _t in self._parties()[1]}

    def _stash_owners(self, top, entries):
        """{stash ref: who pushed it} from the `git stash` commands in this session's, the live
        parties' and the recently ended sessions' transcripts (bounded: a few transcripts, each
        read from its tail back to the oldest entry's time)."""
        from ..git import stash_owners  # seam: only a stash pop, drop or apply asks who pushed its entries
        from ..claude import transcripts  # seam: (with stash_owners: 6 modules, 0.7 ms)

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
                                  for message in stash_owners.stash_pushes(call.command, call.cwd))
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
        from . import shared as guard_shared  # seam: a file both changed (31 modules: hashlib, difflib, re; ~15 ms)

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

    def suggestion(self, judged, refusals, command, verbs=()):
        """The narrow.Suggestion for the refused line (none when a refusal is the human's to decide);
        verbs: (step, git subcommand) of every git command of the line, those that only read too."""
        from . import narrow  # seam: only a refused line is narrowed (1 module, 0.3 ms)

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
        found = narrow.suggestion(command, self.cwd, items, refused, own_states_of, shared, verbs=verbs)
        if not found.shared:
            return found
        patches = {p: self.splits[p].patch for p in found.shared if p in self.splits and self.splits[p].patch}
        if len(patches) < len(found.shared):
            return found  # a file whose hunks cannot be told apart: the human decides
        return narrow.suggestion(command, self.cwd, items, refused, own_states_of, shared, patches, verbs)

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


MAX_PATHS_LOOKED_AT = 256  # literal paths whose presence tells whether git refuses a line (gitfails)


def _present(judged):
    """{absolute path: gitfails.FILE, FOLDER or None} for the literal paths of the operations git
    checks before acting (Operation.precheck): one lstat each, a bounded number."""
    found = {}
    for item in judged:
        if item.operation.precheck is None:
            continue
        for spec in item.operation.paths:
            if len(found) >= MAX_PATHS_LOOKED_AT:
                return found  # the rest count as present: git is taken to go ahead
            if spec.known and not spec.pattern and not spec.shell_glob:
                path = reach.resolve(spec, item.toplevel)
                try:
                    mode = oscalls.lstat(path).st_mode
                except OSError:
                    found[path] = None
                    continue
                found[path] = gitfails.FOLDER if oscalls.S_ISDIR(mode) else gitfails.FILE
    return found


MAX_DIFF_BYTES = 1 << 20  # a `git add -p` whose hunks take more than this to show is judged without its answers


def _answered(op, top, states, splits):
    """A `git add -p` fed its answers, as the files it stages a hunk of: the hunks counted in the
    `git diff` it would walk (one git call, bounded), the answers followed (patch_answers). A file
    both sessions changed (splits: {realpath: guard_shared.Split}) counts only when a hunk it stages
    is not one of this session's own, hunk for hunk as its edit records make them."""
    if op.answers is None or states is None or op.runtime or op.cwd is None:
        return op
    from ..git import patch_answers  # seam: loaded already by the classifier for a command fed its answers

    specs = [s.text for s in op.paths] if op.paths else []
    done = gitrepo.run_git_code(op.cwd, ["diff", "--no-color", "--no-ext-diff", "--ignore-submodules", "--"] + specs,
                                timeout=GIT_TIMEOUT_SECONDS)
    if done is None or done[0] != 0 or len(done[1]) > MAX_DIFF_BYTES:
        return op
    found = patch_answers.file_hunks(done[1].decode("utf-8", "replace"))
    found = [(path, prompts) for path, prompts in found if prompts] if found is not None else None
    taken = patch_answers.staged_hunks(op.answers, [(p, len(h)) for p, h in found]) if found is not None else None
    if taken is None:
        return op
    prompts_of = dict(found)
    files = [path for path, indices in taken
             if indices and not _own_hunks_only([prompts_of[path][i] for i in indices],
                                                splits.get(top.rstrip("/") + "/" + path), patch_answers.file_hunks)]
    return patch_answers.with_answered_hunks(op, files, top)


def _own_hunks_only(hunks, split, file_hunks):
    """Whether every hunk `git add -p` stages of a file is one of this session's own: the same old
    range and lines as a hunk of the patch its edit records make (a hunk merged with the peer's, or
    drawn otherwise, is not). file_hunks: patch_answers.file_hunks."""
    if split is None or not split.own:
        return False
    own = {hunk for _path, prompts in file_hunks(split.own) or () for hunk in prompts if hunk}
    return all(hunk is not None and hunk in own for hunk in hunks)


MAX_REWRITTEN_FILES = 16  # a peer's files read for one line's `sed -i`s; past it, the rest may change
MAX_REWRITTEN_BYTES = 1 << 20  # a larger file may change: it is not read


def _unchanged(refusals, judged):
    """{(id of the refused operation, toplevel-relative path)} of the peers' files a refused rewrite
    leaves byte for byte, as they are now (peerhooks.shell.rewrites): each read at most once, bounded,
    only a regular file in its checkout (never a link, which `sed -i` replaces by a file, nor a FIFO)."""
    from ..shell import rewrites  # seam: only a refused `sed -i` reads its files (1 module, 0.25 ms)

    tops = {id(j.operation): j.toplevel for j in judged}
    found, contents = set(), {}
    for refusal in refusals:
        top = tops.get(id(refusal.operation))
        for held in refusal.held if top else ():
            path = top.rstrip("/") + "/" + held.path
            if path not in contents:
                if len(contents) >= MAX_REWRITTEN_FILES:
                    return found
                contents[path] = _rewritten_file(path, top)
            data = contents[path]
            if data is not None and not rewrites.may_change(refusal.operation.rewrite, data):
                found.add((id(refusal.operation), held.path))
    return found


def _rewritten_file(path, top):
    if oscalls.path.islink(path):
        return None
    try:
        data = read_regular(path, MAX_REWRITTEN_BYTES + 1, inside=(top,))
    except (OSError, ValueError):
        return None
    return data if data is not None and len(data) <= MAX_REWRITTEN_BYTES else None


MAX_PATHS_IN_THE_WAY = 256  # local changes asked about for one switch; past it, git is taken to go ahead


def _in_the_way(judged, states_of):
    """{(toplevel, revision): whether a path with local changes (or an untracked file) differs
    between HEAD and the revision a switch goes to}: one `git diff --name-only` limited to those
    paths, per switch; missing when git did not answer or there are too many."""
    found = {}
    for item in judged:
        check = item.operation.precheck
        states = states_of.get(item.toplevel)
        if check is None or check.switch_to is None or states is None:
            continue
        key = (item.toplevel, check.switch_to)
        local = sorted(rel for rel, state in states.items() if not state.ignored and not state.folder)
        if key in found or len(local) > MAX_PATHS_IN_THE_WAY:
            continue
        if not local:
            found[key] = False
            continue
        out = gitrepo.run_git(item.toplevel, ["diff", "--name-only", "-z", "--no-renames", "HEAD", check.switch_to,
                                              "--"] + [":(literal)" + rel for rel in local],
                              timeout=GIT_TIMEOUT_SECONDS)
        if out is not None:
            found[key] = bool(out.strip("\0"))
    return found


def _private_differs(top, index):
    """[(status, path)] where a private index differs from HEAD (a commit from it changes those),
    or None when it cannot be read (missing, not an index, git too slow)."""
    if not oscalls.path.isfile(index):
        return None
    env = dict(oscalls.environ, GIT_INDEX_FILE=index)
    done = gitrepo.run_git_code(top, ["diff", "--cached", "--name-status", "-z", "--no-renames", "HEAD", "--"],
                                timeout=GIT_TIMEOUT_SECONDS, env=env)
    if done is None or done[0] != 0:
        return None
    fields = done[1].decode("utf-8", "replace").split("\0")
    return [(fields[i], fields[i + 1]) for i in range(0, len(fields) - 1, 2) if fields[i]]


def _private_indexes(judged):
    """{private index path: where it differs from HEAD (_private_differs)} for the commits made from
    one the line did not fill from scratch, each read once."""
    private_of = {}
    for item in judged:
        index = item.operation.private
        if item.peers and item.operation.kind == kinds.COMMIT_PRIVATE and isinstance(index, PrivateIndex) \
                and isinstance(index.path, str) and not index.fresh and index.path not in private_of:
            private_of[index.path] = _private_differs(item.toplevel, index.path)
    return private_of


def _binary(top):
    """The toplevel-relative paths whose tree `git diff` shows as binary (a patch without --binary
    cannot write them back: peerhooks.git.patch_roundtrip), or None when git did not answer in time."""
    done = gitrepo.run_git_code(top, ["diff", "--numstat", "-z", "--no-renames", "--no-ext-diff"],
                                timeout=GIT_TIMEOUT_SECONDS)
    if done is None or done[0] != 0:
        return None
    records = done[1].decode("utf-8", "replace").split("\0")
    return frozenset(r.split("\t", 2)[2] for r in records if r.startswith("-\t-\t") and r.count("\t") >= 2)
