"""Whether to let git operations run while live peers share what they act on. Pure.

A peer's stake is its uncommitted work as git holds it now: each path its transcripts show it
changed that git still shows changed (staged, unstaged, untracked, ...), per peerhooks.git.gitstate; a
path whose change was committed or reverted is nobody's stake. An operation is refused when it
reaches a path at stake (peerhooks.git.reach), and the refusal names exactly those paths and their
states. A refusal is a `deny` when a narrow form exists (the model retries with it) and an `ask`
when none does (a branch switch, a pull, `reset --hard`, a stash pop): then the human decides.
peerhooks.guard.reason words the refusals.

Each git command of a line is judged by what it reaches of the state git holds now, and a later
command can put a path back as it is now; naming that path would say something false of the line:
- `git rm -r --cached . && git add .` (re-reading .gitignore) takes every entry out of the index and
  stages the tree again: a staged file whose tree holds what is staged comes back as it was;
- `git add -A && git reset -q -- src && git commit -m docs` stages everything, then puts the index of
  `src` back as HEAD holds it: a peer's untracked or unstaged file under src is untracked or
  unstaged again, and the commit does not take it (a file the peer had staged loses its staging
  there, which the reset's own refusal names);
- `git diff > F && git checkout . && git apply F` writes the discarded changes back (patch_roundtrip).

  verdict(judged, own, states_of, stash_of) -> [Refusal]
"""
from ..shell import chains
from ..git import refusals as gitfails, gitstate
from ..git import kinds as g
from ..git.kinds import PrivateIndex
from ..git.reach import covers, in_scope, names_paths_only, names_toplevel, reaches, relative, resolve
from ..startup.records import record

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
    (peerhooks.shell.rewrites). Only while nothing before it in the line may have changed its files: each
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
        at = id(refusal.operation)
        refusal = _without(refusal, lambda held: (at, held.path) in unchanged)
        if refusal is not None:
            kept.append(refusal)
    return kept


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
    keyed by the operations' indices in the judged list."""
    taken, round_trips = {}, {}
    by_top = {}
    for index, item in running:
        if item.operation.kind in (g.STASH_ALL, g.STASH_PATHS, g.STASH_STACK, g.STASH_APPLY):
            by_top.setdefault(item.toplevel, []).append((index, item))
    if not by_top:
        return {}, {}
    from ..git import stash_sequence  # seam: only a line with a stash command walks the stack (1 module, 0.1 ms)

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
        return _judge_stash_apply(op, top, peers, states, taken, stash_owners or {})
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
    pushed_here, own = _stash_marks()
    taken = [e for e in taken if e is not pushed_here]
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


def _stash_marks():
    """(stash_sequence's entry pushed earlier in the line, stash_owners' owner of this session's own)."""
    from ..git.stash_owners import SELF  # seam: only a stash pop, drop or apply asks whose an entry is (1 module)
    from ..git.stash_sequence import PUSHED_HERE  # seam: loaded already by the walk of the line's stack

    return PUSHED_HERE, SELF


COMMITTED = "committed"  # a file HEAD holds that a commit from a private index would delete or revert


def _judge_private_commit(op, top, peers, own, states, private_of):
    """A commit made from a private index takes that index as HEAD's tree. It deletes or reverts
    every file the index lacks or holds in another version than HEAD: a peer's just-committed work
    when the index was made before it (anthropics/claude-code #90943; anthony-chaudhary/fak #2320);
    and it commits whatever the line added to it, a peer's unfinished files included. Asked about
    (the human decides) when either reaches someone else's work, or when the index cannot be read."""
    index = op.private if isinstance(op.private, PrivateIndex) else PrivateIndex(op.target or True, False, ())
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


def _judge_stash_apply(op, top, peers, states, taken, owners):
    """A stash apply of what the line itself stashed changes nothing of the peers'; of another
    session's entry, live or ended, it is asked about; else it is judged by its files."""
    entry = taken[0] if taken else None
    pushed_here, own = _stash_marks()
    if entry is pushed_here or taken == []:
        return None  # applying what the line itself stashed, or an entry git will not find
    owner = owners.get(entry.ref) if entry is not None else None
    if owner not in (None, own):
        return Refusal(op, peers, True, (Held(owner, entry.ref, gitstate.STASHED),), None, (entry,))
    return _judge_stash_apply_files(op, top, peers, states)


def _judge_stash_apply_files(op, top, peers, states):
    """A stash apply whose files are known reaches uncommitted work only where a file it holds is
    staged (git.forms.stash._stash_apply says why): refused (ask) then, whoever staged it."""
    if op.entries is None or states is None:
        return Refusal(op, peers, True, tuple(_everything_held(top, peers, states)))
    staged = [rel for rel, state in states.items() if gitstate.is_staged(state) and rel in op.entries]
    if not staged:
        return None
    owners = {relative(c, top): p.name for p in peers for c in p.changes}
    held = tuple(Held(owners.get(rel, UNATTRIBUTED), rel, gitstate.describe(states[rel])) for rel in sorted(staged))
    return Refusal(op, peers, True, held)


def is_ask(refusals):
    """Ask the human only when no refusal has a narrow form the model could retry with."""
    return bool(refusals) and all(r.ask for r in refusals)


# -- what a later command of the line puts back ----------------------------------------------

UNDONE_KINDS = frozenset([g.REMOVE_PATHS, g.STAGE_ALL, g.STAGE_PATHS])  # what a later command may put back


def _undone(refusal, index, top, running, chain, states):
    """The refusal without the paths a later command of the line puts back as they are now."""
    later = [other.operation for at, other in running if at > index and other.toplevel == top]
    op = refusal.operation
    removes = op.kind == g.REMOVE_PATHS
    if removes and "--cached" not in {w.value for w in op.words} or \
            not removes and not any(o.kind in (g.UNSTAGE_ALL, g.UNSTAGE_PATHS) for o in later):
        return refusal  # the refused `git add -A` alone
    if removes:
        return _readded(refusal, top, later, states)
    return _unstaged_again(refusal, top, later, chain, states)


def _put_back(refusal, top, running, chain, trips, states, binary):
    """`git diff > F && git checkout . && git apply F` (patch_roundtrip): the discard's refusal
    without the paths the apply writes back, or None when it writes back all of them. Only while
    nothing between the save and the apply but readers and such discards may change the tree (an
    apply that no longer applies writes nothing back)."""
    from ..git import patch_roundtrip  # seam: only a line that runs `git apply` saves a tree (1 module, 0.15 ms)

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


STAGE_KINDS = frozenset([g.STAGE_ALL, g.STAGE_PATHS])
INDEX_RESETS = frozenset([g.UNSTAGE_ALL, g.UNSTAGE_PATHS])


def _readded(refusal, top, later, states):
    """The refusal of a `git rm --cached` without the files a later add stages again as they were
    (the add is judged by itself), or None when none is left."""
    if states is None:
        return refusal
    adds = [o for o in later if o.kind in STAGE_KINDS]
    prefix = top.rstrip("/") + "/"

    def restored(held):
        state = gitstate.state_of(states, held.path)
        if state is None or state.worktree != gitstate.UNCHANGED:
            return False
        untracked = state._replace(index=gitstate.UNCHANGED, untracked=True)  # what rm --cached leaves
        return any(reaches(add, prefix + held.path, untracked, top) for add in adds)

    return _without(refusal, restored)


def _unstaged_again(refusal, top, after, chain, states):
    """The refusal of a staging (`git add -A`) without the peers' files it stages that an index reset
    to HEAD right after it (`&& git reset -q -- src`) puts back: a file with nothing staged now
    (untracked, or changed in the tree only) is as it was once the reset has run. after: the
    operations of the line after the staging, in order. Only while the reset runs whenever the
    staging did (nothing but other such resets of the checkout between them, each after `;` or
    the one before it with `&&`: `git reset` refuses no pathspec inside the checkout), so that
    nothing reads the index in between. When the reset is refused too, the suggestion narrows the
    staging with it (peerhooks.guard.narrow): narrowed, the reset no longer puts back what it staged."""
    op = refusal.operation
    if states is None or chain is None or op.step is None or op.depth or op.in_loop or op.via:
        return refusal
    resets = _resets_run_after(op.step, top, after, chain)
    if not resets:
        return refusal
    prefix = top.rstrip("/") + "/"

    def put_back(held):
        state = gitstate.state_of(states, held.path)
        if state is None or gitstate.is_staged(state) or state.index == "U":
            return False  # what was staged before loses its staging: the reset's own refusal says so
        staged = state._replace(index="A" if state.untracked or state.ignored else state.worktree,
                                worktree=gitstate.UNCHANGED, untracked=False, ignored=False)
        return any(reaches(reset, prefix + held.path, staged, top) for reset in resets)

    return _without(refusal, put_back)


def _resets_run_after(step, top, after, chain):
    """The index resets to HEAD that run right after the command at `step` whenever it succeeds."""
    resets, previous = [], step
    for op in after:
        if op.step is None or op.step <= step:
            continue
        if op.step != previous + 1 or not _is_plain_reset(op, top):
            break
        gate = chain.gates.get(op.step)
        if gate is not None and gate != (previous, chains.AND):
            break
        resets.append(op)
        previous = op.step
    return resets


def _is_plain_reset(op, top):
    """`git reset [-q] [HEAD] [--] <paths inside the checkout>` of this checkout's own index, or
    `git restore --staged .` (restore refuses a whole list for one pathspec that matches nothing;
    the tree or folder just staged always matches)."""
    if op.kind not in INDEX_RESETS or op.target is not None or op.runtime or op.depth or op.in_loop or op.via \
            or op.private or not op.words or op.cwd is None:
        return False
    if op.words[0].value == "restore":
        return op.kind == g.UNSTAGE_ALL and not op.excludes
    return op.words[0].value == "reset" and all(spec.known and _inside(resolve(spec, top), top)
                                                for spec in op.paths + op.excludes)


def _inside(path, top):
    return path == top or path.startswith(top.rstrip("/") + "/")


def _without(refusal, dropped):
    """The refusal without the held paths `dropped` tells, at stake only the peers left holding one;
    None when none is left."""
    held = tuple(h for h in refusal.held if not dropped(h))
    if len(held) == len(refusal.held):
        return refusal
    if not held:
        return None
    names = {h.peer for h in held}
    return refusal._replace(held=held, peers=tuple(p for p in refusal.peers if p.name in names) or refusal.peers)
