"""The ledger of ground truth: every change the simulator made (whose, which file, the marker line it
wrote, when), every commit a session's command made, and what each command did to the others' work,
all read from git and the file system (places.py), never from peerhooks.

A change ends the day in one of these states:

- `committed`: introduced by a commit its own session's command made;
- `misattributed`: introduced by a commit another session's command made (its first such commit);
- `kept`: still in a working tree or an index, uncommitted;
- `stashed`: only in a stash entry (`stashed_by` says whose command pushed it);
- `discarded`: gone from everywhere by its own session's command (`git checkout -- <own file>`);
- `lost`: gone from everywhere by another session's command.

A change is found in history when a commit reachable from a ref or a reflog the user sees adds its
marker; a commit the day's later `reset --hard` left only in the reflog still counts.
"""
from typing import Dict, List, NamedTuple, Optional, Set

from places import GitView, marker

STATES = ("committed", "misattributed", "kept", "stashed", "discarded", "lost")


class Change(NamedTuple):
    number: int
    session: str  # the session key ("s3"); a subagent's change is its session's
    agent_id: Optional[str]
    checkout: str
    path: str
    marker: str
    minute: float
    tool: str


class Commit(NamedTuple):
    sha: str
    session: str  # whose command made it
    command: str
    minute: float
    markers: frozenset  # the markers it introduced


class Effect(NamedTuple):
    """What one command did to changes that were not its session's."""
    lost: frozenset  # markers of others gone from everywhere
    misattributed: frozenset  # markers of others first committed by this command
    moved: frozenset  # markers of others moved between the stash and the checkouts (pushed or popped)
    own_discarded: frozenset  # the session's own markers gone from everywhere
    moved_heads: tuple  # checkouts whose branch the command changed


def effect_of(session, before, after, new_commit_markers, known_in_history):
    """What a command of `session` did, from Snapshots before and after it and the markers its new
    commits introduced. known_in_history: markers already committed before it. Pure."""
    every = set(before.tree) | set(before.index) | set(before.in_stash)
    present_after = set(after.tree) | set(after.index) | set(after.in_stash)
    gone = {m for m in every if m not in present_after and m not in known_in_history
            and m not in new_commit_markers}
    others = {m for m in gone if not m.endswith(" " + session)}
    first = {m for m in new_commit_markers if m not in known_in_history and not m.endswith(" " + session)}
    moved = {m for m in every if not m.endswith(" " + session) and m not in known_in_history
             and (m in before.in_stash) != (m in after.in_stash) and _checked_out(before, m) != _checked_out(after, m)}
    heads = tuple(c for c in sorted(before.heads) if before.heads[c] != after.heads.get(c))
    return Effect(frozenset(others), frozenset(first), frozenset(moved), frozenset(gone - others), heads)


def _checked_out(snap, found):
    return found in snap.tree or found in snap.index


class Ledger:
    """The day's changes and commits, and where each change is now."""

    def __init__(self, tops, env):
        self.view = GitView(tops, env)
        self.changes: List[Change] = []
        self.by_marker: Dict[str, Change] = {}
        self.commits: List[Commit] = []
        self.first_commit: Dict[str, Commit] = {}  # {marker: the first commit that introduced it}
        self.gone_by: Dict[str, str] = {}  # {marker: session whose command made it vanish}
        self.stashed_by: Dict[str, str] = {}  # {stash entry: session whose command pushed it}
        self.ended_at_commit: Set[str] = set()  # markers whose owner had ended when another committed them
        self.last = self.view.snapshot()
        self.stale = False

    def add(self, session, agent_id, checkout, path, minute, tool):
        """A new change of `session` in checkout/path; returns it (its marker is the line to write)."""
        number = len(self.changes) + 1
        change = Change(number, session, agent_id, checkout, path, marker(number, session), minute, tool)
        self.changes.append(change)
        self.by_marker[change.marker] = change
        return change

    def observe(self, session, command, minute, live_sessions):
        """After a command of `session` ran: record its commits, its stash entries, and what it did to
        every change; returns the Effect."""
        self.refresh()
        before, after = self.last, self.view.snapshot()
        new = sorted(after.history - before.history)
        introduced = self.view.introduced(new)
        known = set(self.first_commit)
        for sha in new:
            added = frozenset(m for m, shas in introduced.items() if sha in shas)
            commit = Commit(sha, session, command, minute, added)
            self.commits.append(commit)
            for found in added:
                if found not in self.first_commit:
                    self.first_commit[found] = commit
                    change = self.by_marker.get(found)
                    if change and change.session != session and change.session not in live_sessions:
                        self.ended_at_commit.add(found)
        for entry in after.stash:
            if entry not in before.stash:
                self.stashed_by[entry] = session
        effect = effect_of(session, before, after, set(introduced), known)
        for found in effect.lost | effect.own_discarded:
            self.gone_by.setdefault(found, session)
        self.last = after
        return effect

    def uncommitted_owners(self, checkout, path):
        """{session: [changes]} whose marker is in the file's working tree or index in `checkout` and
        not in its HEAD commit: the sessions with uncommitted work in that file now."""
        snap = self.last
        out = {}
        for change in self.changes:
            found = change.marker
            here = (checkout, path) in snap.tree.get(found, ()) or (checkout, path) in snap.index.get(found, ())
            if here and found not in snap.head.get(checkout, ()):
                out.setdefault(change.session, []).append(change)
        return out

    def dirty_files(self, session, checkout):
        """Files of `checkout` holding uncommitted changes of `session`, sorted."""
        snap = self.last
        paths = set()
        for change in self.changes:
            if change.session != session or change.marker in snap.head.get(checkout, ()):
                continue
            paths |= {p for c, p in snap.tree.get(change.marker, ()) if c == checkout}
            paths |= {p for c, p in snap.index.get(change.marker, ()) if c == checkout}
        return sorted(paths)

    def touch(self):
        """A file was written: the next refresh reads the checkouts again."""
        self.stale = True

    def refresh(self):
        """Read the checkouts again if a file was written since they were last read."""
        if self.stale:
            self.last = self.view.snapshot()
            self.stale = False

    def state(self, change):
        """Where a change is now: one of STATES."""
        snap = self.last
        commit = self.first_commit.get(change.marker)
        if commit is not None and commit.sha in snap.history:
            return "committed" if commit.session == change.session else "misattributed"
        if change.marker in snap.tree or change.marker in snap.index:
            return "kept"
        if change.marker in snap.in_stash:
            return "stashed"
        return "discarded" if self.gone_by.get(change.marker) == change.session else "lost"

    def states(self):
        """{state: [changes]} of every change now."""
        out = {name: [] for name in STATES}
        for change in self.changes:
            out[self.state(change)].append(change)
        return out
