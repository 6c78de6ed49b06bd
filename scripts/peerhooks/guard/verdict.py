"""Whether to let git operations run while live peers share what they act on, and the words the
person who answers and the model read when they do not. Pure.

A peer's stake is its uncommitted work as git holds it now: each path its transcripts show it
changed that git still shows changed (staged, unstaged, untracked, ...), per peerhooks.git.gitstate; a
path whose change was committed or reverted is nobody's stake. An operation is refused when it
reaches a path at stake (peerhooks.git.reach), and the refusal names exactly those paths and their
states. A refusal is a `deny` when a narrow form exists (the model retries with it) and an `ask`
when none does (a branch switch, a pull, `reset --hard`, a stash pop): then the human decides.

  verdict(judged, own, states_of, stash_of) -> [Refusal]
  reason(refusals, command, suggestion, host, can_send) -> text
"""
from ..shell import chains
from ..git import refusals as gitfails, gitstate
from ..git import gitops as g
from ..claude import messaging
from ..git.reach import covers, names_paths_only, names_toplevel, reaches, relative
from ..startup.records import record

# Every refusal opens with this phrase; `peers.py --stats` counts refusals in transcripts by it.
REFUSAL_MARK = "peerhooks git guard"
COMMAND_ECHO_CHARS = 200  # the command is echoed so the model knows which one; never a whole script
HUMAN_COMMAND_CHARS = 60  # the command as the first line quotes it
HUMAN_FILES = 3  # files the first line names; the At stake line names the rest
HUMAN_PEERS = 2  # peers the first line names; "and N more" after them
MAX_FILES_LISTED = 12  # per peer on the At stake line, then "(+N more)"
MAX_STAKE_ITEMS = 40  # on the whole At stake line: a dozen peers sharing files would fill a screen
UNATTRIBUTED = "unattributed"  # changes no transcript shows: held against a line only while a peer is busy

# Kinds with no narrow form: the human decides.
ASK_KINDS = frozenset([g.MOVE_HEAD, g.RESET_ALL, g.STASH_STACK, g.STASH_APPLY, g.WRITE_REFS,
                       g.REMOVE_WORKTREE, g.AMEND, g.COMMIT_PRIVATE, g.UNFOLLOWED, g.SPARSE, g.FOREIGN_TREE])
# Kinds asked about whenever a live peer works where they act, whatever its files' states: they
# move what every session stands on (HEAD, the branch, the refs, a worktree), or run git the guard
# cannot read (a wrapper it cannot follow).
ALWAYS_ASK = frozenset([g.MOVE_HEAD, g.WRITE_REFS, g.REMOVE_WORKTREE, g.AMEND, g.UNFOLLOWED, g.FOREIGN_TREE])

Peer = record("Peer", "name changes can_message busy checkout kind", ((), False, True, None, "session"),
              """Someone whose work is at stake: a live session, this session's main thread (when a
    subagent asks) or a live subagent. changes: realpaths its transcripts show it changed.""")

Judged = record("Judged", "operation toplevel peers", (), """An operation with the checkout it acts on
    and the live peers at stake (for stash and refs operations, the peers of every worktree of the
    repository).""")

Held = record("Held", "peer path state", (), """One path of a peer's that a refusal is about:
    the peer's name, the path relative to the toplevel, and its state word (gitstate).""")

Refusal = record("Refusal", "operation peers ask held advice entries topic", (False, (), None, (), None),
                 """One operation refused: the peers at stake, whether only the human can decide,
    the peers' paths it would take or destroy (Held), advice for the model (ask kinds), the stash
    entries at stake, and the topic its words are chosen by when not its kind's (ROUND_TRIP).""")

# A stash push whose entry the same line pops again: the files come back, what was staged does not.
ROUND_TRIP = "round-trip"


def stake_of(peer, toplevel, states, state_at=None):
    """{toplevel-relative path: state word} of a peer's changed files that git still holds changed;
    with states None (git not read in time), every changed file under the toplevel, state unknown.
    state_at: {path: state} a caller keeps across the peers of one checkout, who share files."""
    held = {}
    prefix = toplevel.rstrip("/") + "/"
    state_at = {} if state_at is None else state_at
    for path in peer.changes:
        if not path.startswith(prefix):
            continue
        rel = path[len(prefix):]
        if states is None:
            held[rel] = None
            continue
        if rel not in state_at:
            state_at[rel] = gitstate.state_of(states, rel)
        if state_at[rel] is not None:
            held[rel] = state_at[rel]
    return held


def unattributed(peers, own, toplevel, states):
    """Changed paths no peer's transcript and not this session's shows, as {path: state}. An ignored
    file is never one: build output, caches and dependencies are what .gitignore holds, and only a
    file a party's transcript shows it wrote there is anyone's work."""
    if not states:
        return {}
    claimed = {relative(p, toplevel) for peer in peers for p in peer.changes}
    claimed |= {relative(p, toplevel) for p in own}
    found = {}
    for rel, state in states.items():
        if state.ignored or rel in claimed or state.folder and any(c.startswith(rel + "/") for c in claimed):
            continue
        found[rel] = state
    return found


def verdict(judged, own=frozenset(), states_of=None, stash_of=None, private_of=None, stash_owners_of=None,
            chain=None, present=None, in_the_way=None, saved_trees=(), binary_of=None):
    """Every refusal for the judged operations, in order (empty: let the line run).

    own: realpaths this session changed. states_of: {toplevel: {path: PathState}, or None when git
    could not tell in time}; stash_of: {toplevel: [StashEntry] or None}; private_of: {private index
    path: [(status letter, toplevel-relative path)] where it differs from HEAD, or None};
    stash_owners_of: {toplevel: {stash ref: who pushed it (stash_owners.SELF for this session), or
    None}}; each read by the hook only where a verdict needs it (a missing one counts as unknown).
    chain: the line's chains.Chain; present and in_the_way as in gitfails.Snapshot: an operation
    git refuses as a whole, or one that never runs after it, is not judged (it changes nothing).
    saved_trees: the line's patch_roundtrip.RoundTrips; binary_of: {toplevel: the paths `git diff`
    shows as binary, or None when unknown}."""
    states_of, stash_of, private_of = states_of or {}, stash_of or {}, private_of or {}
    stash_owners_of = stash_owners_of or {}
    inert = _inert(judged, chain, gitfails.Snapshot(states_of, present or {}, stash_of, in_the_way or {}))
    running = [(index, item) for index, item in enumerate(judged) if item.operation.step not in inert]
    taken_of, round_trips = _stash_sequence(running, states_of, stash_of)
    refusals = []
    for index, item in running:
        op, top, peers = item
        if not peers or op.cwd is None:
            continue
        if op.kind == g.COMMIT_PRIVATE:
            refusal = _judge_private_commit(op, top, peers, own, states_of.get(top), private_of)
        elif index in round_trips:
            refusal = None if round_trips[index] else _judge_round_trip(op, top, peers, own, states_of.get(top))
        else:
            refusal = _judge(op, top, peers, own, states_of.get(top), taken_of.get(index),
                             stash_owners_of.get(top, {}))
        if refusal is not None and op.kind in UNDONE_KINDS:
            refusal = _undone(refusal, index, top, running, chain, states_of.get(top))
        if refusal is not None and saved_trees:
            refusal = _put_back(refusal, top, running, chain, saved_trees, states_of.get(top),
                                (binary_of or {}).get(top))
        if refusal is not None:
            refusals.append(refusal)
    return refusals


def judged_by_their_files(refusals, operations, chain):
    """The refusals of rewrites (`sed -i`, `perl -pi`: Operation.rewrite) that the files as they are
    now can decide: a rewrite whose patterns match nowhere in a file leaves it byte for byte
    (peerhooks.shell.lexer.rewrites). Only while nothing before it in the line may have changed its files: each
    earlier command only reads, or is such a rewrite (one that changes a peer's file is refused by
    itself); not in a loop, nor run by another program."""
    readers = chain.readers if chain is not None else frozenset()
    plain = {op.step for op in operations if op.rewrite is not None} - {
        op.step for op in operations if op.rewrite is None}
    found = []
    for refusal in refusals:
        op = refusal.operation
        if op.kind != g.SHELL_WRITE or op.rewrite is None or op.in_loop or op.depth or op.via or op.step is None:
            continue
        if all(step in readers or step in plain for step in range(op.step)):
            found.append(refusal)
    return found


def without_unchanged(refusals, unchanged):
    """The refusals without the files a rewrite leaves as they are (unchanged: {(id of the
    refused operation, toplevel-relative path)}); a refusal left with none is dropped."""
    if not unchanged:
        return refusals
    kept = []
    for refusal in refusals:
        held = tuple(h for h in refusal.held if (id(refusal.operation), h.path) not in unchanged)
        if len(held) == len(refusal.held):
            kept.append(refusal)
        elif held:
            names = {h.peer for h in held}
            kept.append(refusal._replace(held=held, peers=tuple(p for p in refusal.peers if p.name in names)
                                         or refusal.peers))
    return kept


UNDONE_KINDS = frozenset([g.REMOVE_PATHS, g.STAGE_ALL, g.STAGE_PATHS])  # what a later command may put back


def _undone(refusal, index, top, running, chain, states):
    """The refusal without the paths a later command of the line puts back as they are now
    (peerhooks.guard.undone, loaded only for a line that has such a command)."""
    later = [other.operation for at, other in running if at > index and other.toplevel == top]
    op = refusal.operation
    removes = op.kind == g.REMOVE_PATHS
    if removes and "--cached" not in {w.value for w in op.words} or \
            not removes and not any(o.kind in (g.UNSTAGE_ALL, g.UNSTAGE_PATHS) for o in later):
        return refusal  # the refused `git add -A` alone: nothing more is loaded
    from . import undone as guard_undone

    if removes:
        return guard_undone.readded(refusal, top, later, states)
    return guard_undone.unstaged_again(refusal, top, later, chain, states)


def _put_back(refusal, top, running, chain, trips, states, binary):
    """`git diff > F && git checkout . && git apply F` (patch_roundtrip): the discard's refusal
    without the paths the apply writes back, or None when it writes back all of them. Only while
    nothing between the save and the apply but readers and such discards may change the tree (an
    apply that no longer applies writes nothing back)."""
    from ..git import patch_roundtrip

    op = refusal.operation
    if states is None or chain is None or not patch_roundtrip.discards_tree_only(op):
        return refusal
    by_step = {}
    for _at, item in running:
        by_step.setdefault(item.operation.step, []).append(item.operation)
    held = refusal.held
    for trip in trips:
        if not trip.saved < op.step < trip.applied or (binary is None and not trip.binary):
            continue
        between = range(trip.saved + 1, trip.applied)
        if any(s not in chain.readers and not (by_step.get(s) and all(
                patch_roundtrip.discards_tree_only(o) for o in by_step[s])) for s in between):
            continue
        held = tuple(h for h in held if not patch_roundtrip.restores(trip, h.path, states.get(h.path), top,
                                                                     binary or frozenset()))
    if len(held) == len(refusal.held):
        return refusal
    return refusal._replace(held=held) if held else None


def predates_every_party(commit_times_s, started_ms):
    """Whether every commit (committer times, epoch seconds) was made before each party at stake
    started (process start, ms; None: not known): then none of them is a live session's work, and
    writing them (or their reverse) into the shared tree is this session's own change, which git
    refuses over a file with local changes. Pure."""
    if not commit_times_s or not started_ms or any(s is None for s in started_ms):
        return False
    return max(commit_times_s) * 1000 < min(started_ms)


def _stash_sequence(running, states_of, stash_of):
    """(taken, round_trips) of the line's stash operations (stash_sequence), each checkout's over its stack,
    keyed by the operations' indices in the judged list (a line without one imports nothing more)."""
    taken, round_trips = {}, {}
    by_top = {}
    for index, item in running:
        if item.operation.kind in (g.STASH_ALL, g.STASH_PATHS, g.STASH_STACK, g.STASH_APPLY):
            by_top.setdefault(item.toplevel, []).append((index, item))
    if not by_top:
        return {}, {}
    from ..git import stash_sequence

    for top, items in by_top.items():
        ops = [item.operation for _i, item in items]
        found = stash_sequence.walk(ops, stash_of.get(top), lambda at: _stashes_something(
            ops[at], top, states_of.get(top)))
        taken.update((items[at][0], entries) for at, entries in found.taken.items())
        round_trips.update((items[at][0], index_too) for at, index_too in found.round_trips.items())
    return taken, round_trips


def _inert(judged, chain, snapshot):
    """The steps of the line that change nothing: git refuses them, or they never run."""
    if chain is None:  # commands one after another, none known to read only
        steps = [item.operation.step for item in judged if item.operation.step is not None]
        chain = chains.Chain({}, frozenset(), max(steps, default=-1) + 1)
    by_step = {}
    for item in judged:
        by_step.setdefault(item.operation.step, []).append(item)

    def fails(step):
        items = by_step.get(step, ())
        if len(items) != 1:  # a shell alias running several: its status is its last command's
            return False
        op, top, _peers = items[0]
        return gitfails.fails(op, top, snapshot)

    return chains.inert(chain, fails)


def _stashes_something(op, top, states):
    """Whether a push the line makes saves something (a push with nothing to save makes no entry,
    and a pop after it would take someone else's). Unknown states: assume it does."""
    if states is None:
        return True
    return any(reaches(op, top.rstrip("/") + "/" + rel, state, top) for rel, state in states.items())


def _judge(op, top, peers, own, states, taken, stash_owners=None):
    """One operation's refusal or None. taken: the stash entries a pop, drop or apply acts on, as
    the stack will be when it runs (None: unknown)."""
    kind = op.kind
    if kind == g.STASH_STACK:
        return _judge_stash_stack(op, top, peers, states, taken, stash_owners or {})
    if kind == g.STASH_APPLY:
        entry = taken[0] if taken else None
        from ..git.stash_sequence import PUSHED_HERE

        if entry is PUSHED_HERE or taken == []:
            return None  # applying what the line itself stashed, or an entry git will not find
        owner = (stash_owners or {}).get(entry.ref) if entry is not None else None
        if owner not in (None, _self()):  # another session's entry, live or ended
            return Refusal(op, peers, True, (Held(owner, entry.ref, gitstate.STASHED),), None, (entry,))
        return _judge_stash_apply(op, top, peers, states)
    if kind == g.REMOVE_WORKTREE:
        at_stake = tuple(p for p in peers if op.target is None or p.checkout == op.target)
        return Refusal(op, at_stake, True) if at_stake else None
    if kind == g.SPARSE:
        return _judge_sparse(op, top, peers, states)
    if kind == g.WRITE_REFS and op.target is not None:  # only who stands on the branch it rewrites
        peers = tuple(p for p in peers if p.checkout in op.target)
        if not peers:
            return None
    held, at_stake = _reached(op, top, peers, own, states)
    if kind in ALWAYS_ASK or kind == g.RESET_ALL and op.moves_branch:
        return Refusal(op, peers, True, tuple(_everything_held(top, peers, states)))
    if not held:
        return None
    return Refusal(op, tuple(at_stake), kind in ASK_KINDS, tuple(held))


def _reached(op, top, peers, own, states):
    """([Held] the operation would take or destroy, [Peer] whose they are)."""
    held, at_stake = [], []
    if op.runtime:  # its paths come at run time: any of the peers' work its kind can reach
        probe = op._replace(kind=g.WHOLE_OF.get(op.kind, op.kind), paths=(), relative=False, runtime=False)
    elif op.kind != g.REMOVE_PATHS and any(names_toplevel(spec, top) for spec in op.paths):
        # (`git rm -r --cached .` acts on the index entries it matched, not as a whole-tree discard)
        probe = op._replace(kind=g.WHOLE_OF.get(op.kind, op.kind), relative=False)
    else:
        probe = op
    prefix = top.rstrip("/") + "/"
    state_at, reached_at = {}, {}  # peers of one checkout share files: each is judged once
    for peer in peers:
        mine = []
        for rel, state in sorted(stake_of(peer, top, states, state_at).items()):
            if rel not in reached_at:
                path = prefix + rel
                reached_at[rel] = reaches(probe, path, state, top) if state is not None else \
                    probe.kind != g.COMMIT_INDEX and _in_scope_unknown(probe, path, top)
            if reached_at[rel]:
                mine.append(Held(peer.name, rel, gitstate.describe(state)))
        if mine:
            held.extend(mine)
            at_stake.append(peer)
    if states and any(p.busy for p in peers) and not names_paths_only(probe):
        busy = [p for p in peers if p.busy]
        for rel, state in sorted(unattributed(peers, own, top, states).items()):
            if reaches(probe, prefix + rel, state, top):
                held.append(Held(UNATTRIBUTED, rel, gitstate.describe(state)))
                for peer in busy:
                    if peer not in at_stake:
                        at_stake.append(peer)
    return held, at_stake


def _in_scope_unknown(op, path, top):
    """With the states unknown, a path in the operation's scope counts as reached."""
    from ..git.reach import in_scope

    return in_scope(op, path, top)


def _everything_held(top, peers, states):
    """Every path of the peers' at stake in the checkout, to tell the human what a switch moves."""
    held = []
    for peer in peers:
        for rel, state in sorted(stake_of(peer, top, states).items()):
            held.append(Held(peer.name, rel, gitstate.describe(state)))
    return held


def _judge_stash_stack(op, top, peers, states, taken, owners):
    """A pop, drop, clear or `stash branch` takes entries off the stack every worktree shares: asked
    about unless every entry it takes is this session's own (issue 19: entries have owners), one
    the line itself pushed included. With the stack unknown, or an entry whose pusher no transcript
    shows, the human is asked. `stash branch` also checks out a new branch under everyone here."""
    if taken is None:
        return Refusal(op, peers, True)
    own = _self()
    from ..git.stash_sequence import PUSHED_HERE

    taken = [e for e in taken if e is not PUSHED_HERE]
    if all(owners.get(e.ref) == own for e in taken):
        here = tuple(p for p in peers if p.checkout == top) if op.moves_branch else ()
        if here:
            switch = op._replace(kind=g.MOVE_HEAD)
            return Refusal(switch, here, True, tuple(_everything_held(top, here, states)))
        return None
    held = tuple(Held(owners.get(e.ref) or "owner unknown", e.ref, gitstate.STASHED) for e in taken
                 if owners.get(e.ref) != own)
    return Refusal(op, peers, True, held, None, tuple(e for e in taken if owners.get(e.ref) != own))


def _judge_sparse(op, top, peers, states):
    """A sparse checkout takes out of the tree the peers' files that are only staged (their tree
    matching the index) and lie outside its folders; with its folders unknown, any of them."""
    held = []
    prefix = top.rstrip("/") + "/"
    for peer in peers:
        for rel, state in sorted(stake_of(peer, top, states).items()):
            if state is None or not gitstate.is_staged(state) or state.worktree != gitstate.UNCHANGED \
                    or state.index == "D" or "/" not in rel:
                continue
            if not op.runtime and any(covers(spec, prefix + rel, top) for spec in op.paths):
                continue
            held.append(Held(peer.name, rel, gitstate.describe(state)))
    names = {h.peer for h in held}
    return Refusal(op, tuple(p for p in peers if p.name in names), True, tuple(held)) if held else None


def _judge_round_trip(op, top, peers, own, states):
    """A push whose entry the line pops again (without --index) puts every file back, but what was
    staged comes back unstaged (a new file stays added): only the peers' staged changes are lost."""
    held, at_stake = _reached(op, top, peers, own, states)
    held = [h for h in held if states and h.path in states and gitstate.is_staged(states[h.path])
            and states[h.path].index != "A"]
    if not held:
        return None
    names = {h.peer for h in held}
    return Refusal(op, tuple(p for p in at_stake if p.name in names), False, tuple(held), topic=ROUND_TRIP)


def _self():
    from ..git.stash_owners import SELF  # only a stash operation asks whose an entry is

    return SELF


COMMITTED = "committed"  # a file HEAD holds that a commit from a private index would delete or revert


def _judge_private_commit(op, top, peers, own, states, private_of):
    """A commit made from a private index takes that index as HEAD's tree. It deletes or reverts
    every file the index lacks or holds in another version than HEAD: a peer's just-committed work
    when the index was made before it (anthropics/claude-code #90943; anthony-chaudhary/fak #2320);
    and it commits whatever the line added to it, a peer's unfinished files included. Asked about
    (the human decides) when either reaches someone else's work, or when the index cannot be read."""
    index = op.private if isinstance(op.private, g.PrivateIndex) else g.PrivateIndex(op.target or True, False, ())
    own_rel = {relative(p, top) for p in own}
    owners = {relative(c, top): p.name for p in peers for c in p.changes}
    held = []
    if not index.fresh:
        differs = private_of.get(index.path) if isinstance(index.path, str) else None
        if differs is None:
            return Refusal(op, peers, True, tuple(_everything_held(top, peers, states)))
        held.extend(Held(owners.get(rel, UNATTRIBUTED), rel, COMMITTED) for _status, rel in sorted(differs)
                    if rel not in own_rel)
    for add in index.adds:
        reached, _peers = _reached(add._replace(private=None), top, peers, own, states)
        held.extend(h for h in reached if h not in held)
    if not held:
        return None
    return Refusal(op, peers, True, tuple(held))


def _judge_stash_apply(op, top, peers, states):
    """A stash apply whose files are known reaches uncommitted work only where a file it holds is
    staged (gitops_stash._stash_apply says why): refused (ask) then, whoever staged it."""
    if op.entries is None or states is None:
        return Refusal(op, peers, True, tuple(_everything_held(top, peers, states)))
    staged = [rel for rel, state in states.items() if gitstate.is_staged(state) and rel in op.entries]
    if not staged:
        return None
    owners = {relative(c, top): p.name for p in peers for c in p.changes}
    held = tuple(Held(owners.get(rel, UNATTRIBUTED), rel, gitstate.describe(states[rel])) for rel in sorted(staged))
    return Refusal(op, peers, True, held)


# -- the reason ----------------------------------------------------------------------------------

def is_ask(refusals):
    """Ask the human only when no refusal has a narrow form the model could retry with."""
    return bool(refusals) and all(r.ask for r in refusals)


VERB_PHRASES = {
    g.STAGE_ALL: "would stage {them} as this session's work", g.STAGE_PATHS: "would stage {them} as this session's work",
    g.COMMIT_INDEX: "would commit {them} as this session's", g.COMMIT_ALL: "would commit {them} as this session's",
    g.COMMIT_PATHS: "would commit {them} as this session's", g.AMEND: "would fold {them} into the rewritten commit",
    g.STASH_ALL: "would stash {them} away", g.STASH_PATHS: "would stash {them} away",
    g.DISCARD_ALL: "would throw {them} away", g.DISCARD_PATHS: "would throw {them} away",
    g.CLEAN_ALL: "would delete {them}", g.CLEAN_PATHS: "would delete {them}",
    g.UNSTAGE_ALL: "would unstage {them}", g.UNSTAGE_PATHS: "would unstage {them}",
    g.REMOVE_PATHS: "would remove or move {them}", g.RESET_ALL: "would throw {them} away",
    g.STASH_APPLY: "would merge a stash entry into {them}",
    g.SHELL_WRITE: "would write over or delete {them}",
    g.SPARSE: "would take {them} out of the working tree, leaving the staged change against a missing file",
    ROUND_TRIP: "and the pop after it would leave {them} unstaged",
    g.COMMIT_PRIVATE: "would delete, revert or commit {them} in the commit it makes from a private index",
}
EFFECTS = {  # for the model: what git would do, in the states named
    g.STAGE_ALL: "it stages working-tree changes and new files: the peers' with yours",
    g.STAGE_PATHS: "it stages the working-tree changes and new files under those paths: the peers' with yours",
    g.COMMIT_INDEX: "a plain commit takes everything staged, the peers' staged files with yours",
    g.COMMIT_ALL: "-a commits every staged change and every tracked file's working-tree change, the peers' with yours",
    g.COMMIT_PATHS: "it commits those paths as they are in the working tree, the peers' changes in them with yours",
    g.STASH_ALL: "it takes staged and working-tree changes out of the shared tree into one stash entry",
    g.STASH_PATHS: "it takes the changes under those paths out of the shared tree",
    g.DISCARD_ALL: "it overwrites working-tree changes with what is staged or committed",
    g.DISCARD_PATHS: "it overwrites the changes under those paths",
    g.CLEAN_ALL: "it deletes untracked files",
    g.CLEAN_PATHS: "it deletes the untracked files under those paths",
    g.UNSTAGE_ALL: "it resets the index to HEAD, unstaging what the peers staged",
    g.UNSTAGE_PATHS: "it resets those paths in the index to HEAD, unstaging what the peers staged",
    g.REMOVE_PATHS: "it removes or moves those paths in the index (with -f, or mv, on disk too)",
    g.RESET_ALL: "it resets the index and the working tree of every tracked file to a commit",
    g.STASH_APPLY: "it merges the entry into the files it holds, which are staged",
    g.SPARSE: "a sparse checkout takes out of the shared tree the files outside its folders whose tree matches "
              "the index, a peer's staged files among them",
    g.SHELL_WRITE: "it writes over (or removes) a file holding a live peer's uncommitted changes, which no "
                   "commit holds: they would be lost",
    ROUND_TRIP: "the pop puts the files back but not the index: what the peers staged comes back unstaged "
                "(`git stash pop --index` keeps it)",
    g.COMMIT_PRIVATE: "the commit's tree is the private index: every file it lacks or holds in another version "
                      "than HEAD is deleted or reverted, a peer's just-committed work included, and whatever the line "
                      "added to it is committed",
}
TRACKED_ONLY_EFFECTS = {  # a staging that leaves untracked files alone
    g.STAGE_ALL: "it stages the working-tree changes of tracked files: the peers' with yours",
    g.STAGE_PATHS: "it stages the working-tree changes of the tracked files under those paths: the peers' with yours",
}
FROM_SOURCE_EFFECTS = {  # an index reset from another commit than HEAD (gitops_tree._from_source)
    g.UNSTAGE_ALL: "it resets the index to %s, unstaging what the peers staged",
    g.UNSTAGE_PATHS: "it resets those paths in the index to %s, unstaging what the peers staged",
}
WRITE_ADVICE = ("leave the file to the peer, or make your change with the Edit tool, which reads the file as it is "
                "now and replaces only the text you name")
RUNTIME_EFFECT = ("its paths are known only when it runs (a substitution, a variable, xargs, a file list, or a "
                  "folder only the shell knows)")
ASK_EFFECTS = {
    "switch": "it switches this checkout to another branch or commit: files that differ are rewritten, and every "
              "session here is moved onto it",
    "new-branch": "it puts this checkout on a new branch: the files stay as they are, but every session's next "
                  "commit here lands on that branch",
    "rebase": "it rewrites the branch every session here is on and replays commits through the shared tree",
    "bisect": "it checks out other commits in the shared tree",
    "apply-commit": "it writes a commit's changes (or their reverse) into the shared index and tree without "
                    "committing: a peer's last commit undone under it, or swept into the next commit here",
    g.RESET_ALL: "it moves the branch every session here is on to another commit, and resets the index (and with "
                 "--hard the tracked files) to it",
    g.WRITE_REFS: "refs are shared by every worktree: this rewrites a branch or HEAD a peer may have checked out",
    g.REMOVE_WORKTREE: "a live peer works in that worktree (or it cannot be told which one this is)",
    g.AMEND: "it rewrites HEAD, which may be a commit a peer just made, and commits the whole index",
    g.STASH_STACK: "the stash stack is shared by every worktree: this takes an entry off it, which may be a peer's",
    g.STASH_APPLY: "it merges a stash entry, which may be a peer's, into the shared tree",
    g.UNFOLLOWED: "it runs code that mentions git, and the guard cannot tell which git commands it runs",
    g.FOREIGN_TREE: "its work tree is not its repository's: git reads every index entry against another folder, "
                    "where the files outside it look deleted, so what the peers staged may leave the index",
}
ASK_HUMAN = {
    "switch": "would switch the checkout {they} work{s} in", "new-branch": "would move the checkout {they} "
    "work{s} in onto a new branch", "rebase": "would rewrite the branch {they} work{s} on",
    "bisect": "would check out other commits under {them}", g.RESET_ALL: "would move the branch {they} work{s} on",
    "apply-commit": "would write a commit's changes into the index and tree {they} work{s} in",
    g.WRITE_REFS: "would rewrite a branch {they} may have checked out", g.AMEND: "would rewrite the last commit, "
    "which may be {theirs}", g.REMOVE_WORKTREE: "would remove the worktree {they} work{s} in",
    g.STASH_STACK: "would take {entry} off the shared stash, and it may be {theirs}",
    g.STASH_APPLY: "would merge a stash entry, which may be {theirs}, into the shared tree",
    g.UNFOLLOWED: "runs git the guard cannot read, in the checkout {they} work{s} in",
    g.FOREIGN_TREE: "would run git on the index {they} share{s} against another folder",
}
ASK_ADVICE = {
    "switch": "work on another branch in a linked worktree: git worktree add -b <new-branch> ../<dir> "
              "(an existing branch: git worktree add ../<dir> <branch>); for one file: git checkout <rev> -- <path>",
    "new-branch": "make the branch in a linked worktree instead: git worktree add -b <new-branch> ../<dir>",
    "rebase": "rebase in a linked worktree, or ask the user to run it when the peers are done",
    "bisect": "bisect in a linked worktree: git worktree add ../<dir> HEAD",
    g.SPARSE: "make a sparse checkout of your own in a linked worktree: git worktree add ../<dir>",
    "apply-commit": "revert or cherry-pick in a linked worktree, or as a commit of its own without -n",
    g.RESET_ALL: "to undo only your own changes name them: git restore --staged --worktree -- <your files>; to move "
                 "the branch, do it in a linked worktree",
    g.WRITE_REFS: "work on your own branch in a linked worktree: git worktree add -b <new-branch> ../<dir>",
    g.REMOVE_WORKTREE: "leave that worktree to its session",
    g.AMEND: "make a new commit of your own files instead of amending",
    g.STASH_STACK: "leave the stash alone, or check whose entry it is with git stash list / git stash show -p stash@{n}",
    g.STASH_APPLY: "check whose entry it is with git stash show -p stash@{n}; apply it in a linked worktree",
    g.COMMIT_PRIVATE: "commit your own files from the shared index instead: git commit -m <message> -- <your files>",
    g.UNFOLLOWED: "run the git commands it would run yourself, by name, so that each can be judged",
    g.FOREIGN_TREE: "run git from the checkout without --work-tree (git -C <folder> keeps paths relative to it)",
}
PULL_ADVICE = ("git fetch first (it touches no working tree), then merge or rebase in a linked worktree, "
               "or ask the user to pull when the peers are done")
SUGGESTION_HEADER = "Instead, run:"
FENCE = "```"


def _ask_topic(op):
    """Which kind of HEAD mover an operation is, for its words."""
    if op.kind != g.MOVE_HEAD:
        return op.kind
    words = [w.value for w in op.words[1:]] if op.words else op.command.split()[2:]
    verb = op.words[0].value if op.words else op.command.split()[1:2][0] if len(op.command.split()) > 1 else ""
    if verb in ("checkout", "switch") and set(words) & {"-b", "-B", "--orphan", "-c", "-C", "--create",
                                                          "--force-create"}:
        return "new-branch"
    if verb in ("rebase", "pull"):
        return "rebase"
    if verb in ("revert", "cherry-pick"):
        return "apply-commit"
    if verb == "bisect":
        return "bisect"
    return "switch"


def as_written(op, line):
    """The operation's command as the line spells it (its span), else as gitops rendered it."""
    if op.span is not None and line and 0 <= op.span[0] < op.span[1] <= len(line) and op.depth == 0:
        return line[op.span[0]:op.span[1]]
    return op.command


def _short(command, limit):
    command = " ".join(command.split())
    return command if len(command) <= limit else command[:limit - 1] + "…"


def _files_phrase(held):
    """`src/a.py staged, src/b.py untracked (+2 more)` for the first line."""
    shown = ", ".join("%s %s" % (h.path, h.state) for h in held[:HUMAN_FILES])
    return shown + (" (+%d more)" % (len(held) - HUMAN_FILES) if len(held) > HUMAN_FILES else "")


def human_line(refusal, line=""):
    """The first line, for the person who reads it: whose work, which files, what the command would do."""
    op = refusal.operation
    command = "`%s`" % _short(as_written(op, line), HUMAN_COMMAND_CHARS) + run_by(op, short=True)
    names = [p.name for p in refusal.peers]
    by_peer = {}
    for held in refusal.held:
        by_peer.setdefault(held.peer, []).append(held)
    one = len(names) == 1
    pronouns = {"they": names[0] if one else "they", "s": "s" if one else "", "them": names[0] if one else "them",
                "theirs": "%s's" % names[0] if one else "one of theirs"}
    if op.kind in (g.STASH_STACK, g.STASH_APPLY) and refusal.entries:
        return "%s: %s; %s %s." % (REFUSAL_MARK, _entries_phrase(refusal), command,
                                   "would merge it into the shared tree" if op.kind == g.STASH_APPLY
                                   else "would take %s off the stash every worktree shares"
                                   % ("it" if len(refusal.entries) == 1 else "them"))
    if refusal.ask and not refusal.held or op.kind in ALWAYS_ASK:
        topic = _ask_topic(op)
        entry = _entry_phrase(refusal.entries)
        phrase = ASK_HUMAN.get(topic, "would act on the work {they} share{s}").format(entry=entry, **pronouns)
        place = "this repository's worktrees" if op.kind in g.REPOSITORY_KINDS else "this checkout"
        where = _stake_summary(by_peer) or "%s %s live in %s" % (" and ".join(names), "is" if one else "are", place)
        return "%s: %s; %s %s." % (REFUSAL_MARK, where, command, phrase)
    parts = []
    for peer, held in list(by_peer.items())[:HUMAN_PEERS]:
        who = "changes nobody's transcript shows (a busy peer may have made them)" if peer == UNATTRIBUTED else peer
        parts.append("%s has %s" % (who, _files_phrase(held)) if peer != UNATTRIBUTED else
                     "there are %s: %s" % (who, _files_phrase(held)))
    if len(by_peer) > HUMAN_PEERS:
        parts[-1] += " (and %d more peers, below)" % (len(by_peer) - HUMAN_PEERS)
    them = "it" if len(refusal.held) == 1 else "them"
    phrase = VERB_PHRASES.get(refusal.topic or op.kind, "would take {them}").format(them=them)
    if op.runtime:
        phrase = "computes its paths only when it runs, and " + phrase.replace("would", "could")
    return "%s: %s; %s %s." % (REFUSAL_MARK, "; ".join(parts), command, phrase)


def _stake_summary(by_peer):
    parts = []
    for peer, held in list(by_peer.items())[:HUMAN_PEERS]:
        if peer == UNATTRIBUTED:
            continue
        parts.append("%s has %d uncommitted file%s here (%s)" % (peer, len(held), "" if len(held) == 1 else "s",
                                                              _files_phrase(held)))
    return "; ".join(parts)


def _entries_phrase(refusal):
    """`stash@{0} ("On main: wip") was pushed by app-peer` for the first line."""
    owners = {h.path: h.peer for h in refusal.held}
    parts = []
    for entry in refusal.entries[:HUMAN_FILES]:
        owner = owners.get(entry.ref)
        who = "no transcript shows who pushed it" if owner in (None, "owner unknown") else "it was pushed by %s" % owner
        parts.append('%s ("%s"): %s' % (entry.ref, entry.subject, who))
    if len(refusal.entries) > HUMAN_FILES:
        parts.append("and %d more entries" % (len(refusal.entries) - HUMAN_FILES))
    return "; ".join(parts)


def _entry_phrase(entries):
    if not entries:
        return "an entry"
    first = entries[0]
    return "%s (%s)" % (first.ref, first.subject) + (" or another of its %d entries" % len(entries)
                                                     if len(entries) > 1 else "")


def stake_line(refusals):
    """`At stake: peer: path [state], path [state]; other: …` over every refusal (tests read it back)."""
    by_peer, seen = {}, set()
    for refusal in refusals:
        for held in refusal.held:
            if (held.peer, held.path) not in seen:
                seen.add((held.peer, held.path))
                by_peer.setdefault(held.peer, []).append("%s [%s]" % (held.path, held.state))
    if not by_peer:
        names = []
        for refusal in refusals:
            names.extend(p.name for p in refusal.peers if p.name not in names)
        return "At stake: %s (live here; no uncommitted file of theirs)" % ", ".join(names)
    groups, budget = [], MAX_STAKE_ITEMS
    for peer, items in by_peer.items():
        room = min(MAX_FILES_LISTED, max(1, budget))
        shown = ", ".join(items[:room])
        if len(items) > room:
            shown += " (+%d more)" % (len(items) - room)
        groups.append("%s: %s" % (peer, shown))
        budget -= room
        if budget <= 0 and len(groups) < len(by_peer):
            groups.append("(+%d more peers)" % (len(by_peer) - len(groups)))
            break
    return "At stake: " + "; ".join(groups)


def model_lines(refusals, command):
    """What the model reads about each refused operation."""
    lines = ["%s did not run `%s`:" % (REFUSAL_MARK, _short(command, COMMAND_ECHO_CHARS))]
    for refusal in refusals:
        op = refusal.operation
        if refusal.ask and op.kind in ASK_EFFECTS or op.kind in ALWAYS_ASK or op.kind == g.RESET_ALL and op.moves_branch:
            topic = _ask_topic(op)
            effect = ASK_EFFECTS.get(topic, ASK_EFFECTS.get(op.kind, ""))
            if op.kind == g.RESET_ALL and not op.moves_branch:
                effect = EFFECTS[g.RESET_ALL]
        elif op.runtime:
            effect = RUNTIME_EFFECT
        elif refusal.topic is None and op.kind in TRACKED_ONLY_EFFECTS and not g.touches_of(op) & g.UNTRACKED_ANYWHERE:
            effect = TRACKED_ONLY_EFFECTS[op.kind]  # `git add -u`, a saved diff applied with --cached
        elif op.kind in FROM_SOURCE_EFFECTS and op.target is not None:  # `git reset HEAD~1 -- <paths>`
            effect = FROM_SOURCE_EFFECTS[op.kind] % _short(op.target, 40)
        else:
            effect = EFFECTS.get(refusal.topic or op.kind, "")
        lines.append("- `%s`%s: %s." % (_short(as_written(op, command), 80), run_by(op), effect))
    return lines


def run_by(op, short=False):
    """Which wrapper runs the operation, as the reader can check it: `, which `make commit` runs
    (`git add -A && git commit -m save`)`, through several each named (`make release` through
    `make commit`); short: ` (run by `make commit`)`. A wrapper that is itself the operation (`gh pr
    checkout 12`) names only the wrappers that run it, and why it cannot be followed when it cannot."""
    via = op.via
    why = ""
    if via and via[-1].wrapper == op.command:
        why = " (%s)" % via[-1].runs if op.kind == g.UNFOLLOWED and via[-1].runs and not short else ""
        via = via[:-1]
    if not via:
        return why
    names = " through ".join("`%s`" % _short(v.wrapper, 80) for v in via)
    if short:
        return " (run by %s)" % names
    shown = " (`%s`)" % _short(via[-1].runs, 100) if via[-1].runs else ""
    return ", which %s runs%s%s" % (names, shown, why)


def advice_of(refusal):
    """Advice for an ask-kind refusal (the human decides; the model learns what else it can do)."""
    op = refusal.operation
    if op.command.startswith("git pull"):
        return PULL_ADVICE
    return ASK_ADVICE.get(_ask_topic(op), ASK_ADVICE.get(op.kind))


def reason(refusals, command, suggestion=None, host="claude", can_send=True, no_own_work=False, shared=()):
    """The text the human and the model read: a first line for the person who answers, the paths at
    stake, what git would do, what to run instead (a runnable fenced block) and how to reach the peers.
    suggestion: the corrected line (peerhooks.guard.narrow), or None; no_own_work: this session has nothing
    of its own the refused operations would take, so there is nothing to run instead; shared: files
    both sessions changed whose hunks this session's edit records cannot tell apart."""
    lines = [human_line(refusals[0], command)]
    if len(refusals) > 1:
        lines[0] += " (And %d more below.)" % (len(refusals) - 1)
    lines.append(stake_line(refusals))
    if is_ask(refusals) and host != "codex":
        lines.append("Yes runs it anyway; No leaves the peers' work as it is.")
    lines.extend(model_lines(refusals, command))
    if shared:
        lines.append("%s hold%s both this session's and a peer's changes, which this session's edit records "
                     "cannot tell apart: staging %s would take the peer's hunks too. The user decides."
                     % (", ".join(shared), "s" if len(shared) == 1 else "", "it" if len(shared) == 1 else "them"))
    lines = _redacted(lines)
    if suggestion:  # this session's own line, which must run as given: never redacted
        lines.extend([SUGGESTION_HEADER, FENCE, suggestion, FENCE])
    elif no_own_work and any(r.operation.kind != g.SHELL_WRITE for r in refusals):
        lines.append("None of what it would take is this session's: there is nothing of yours to run it on.")
    for refusal in refusals:
        advice = advice_of(refusal) if refusal.ask else WRITE_ADVICE if refusal.operation.kind == g.SHELL_WRITE \
            else None
        if advice and advice not in lines[-1]:
            lines.append("For `%s`: %s." % (_short(as_written(refusal.operation, command), 80), advice))
    peers = []
    for refusal in refusals:
        peers.extend(p for p in refusal.peers if p.name not in [q.name for q in peers])
    lines.append(_peers_line(peers, host, can_send))
    return "\n".join(lines)


def _redacted(lines):
    """The lines with secrets taken out (peerhooks.text.redact): a refusal echoes the command, which may
    hold one, to the model and to the person who answers."""
    from ..text.redact import redact  # only a refusal pays for it

    return [redact(line) for line in lines]


def too_large_reason(command, why, parties, host="claude"):
    """The words for a line too large to judge in the guard's budget (its commands are not read)."""
    names = ", ".join(p.name for p in parties)
    return "\n".join(_redacted([
        "%s: this command line is too large to judge in time (%s, %d characters), and %s %s live in this "
        "checkout; the user decides." % (REFUSAL_MARK, why, len(command), names, "is" if len(parties) == 1 else "are"),
        "At stake: %s (its work was not read)" % names,
        "%s did not run `%s`: split it into smaller commands that name your own files." % (
            REFUSAL_MARK, _short(command, COMMAND_ECHO_CHARS)),
    ]))


def _peers_line(peers, host, can_send):
    return messaging.advice([(p.name, p.can_message, p.kind) for p in peers], can_send, host)
