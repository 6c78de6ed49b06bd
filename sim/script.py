"""The script of a day, drawn from a seed: which sessions run, in which checkout, when each starts,
clears, starts a subagent and ends (`/exit`, or killed with -9), and the steps each takes, as kinds
(an edit of its own file, a commit in its usual style, a `git stash`, ...). What a step names (which
file, which line, which message) is resolved when it runs, from the state of that run, with the
step's own draw: the three runs of a seed follow one script, and differ only where the hooks'
answers made their repositories differ. Pure: no files, no clock.

The mix of steps is what agents type in a shared checkout (tests/guard_corpus/, the public incidents
behind issues 13, 18, 33 and 34): mostly edits and commits, now and then a stash, a discard of their
own file, a `reset --hard` or `restore .` to start over, a new branch.
"""
import random
import uuid
from typing import NamedTuple, Optional, Tuple

from world import AREAS, CHECKOUT, WORKTREE

STEP_KINDS = (  # (kind, weight)
    ("edit", 30), ("multiedit", 4), ("write_new", 7), ("edit_peer_file", 8), ("read", 10), ("commit", 22),
    ("stash", 4), ("discard_own", 4), ("reset_hard", 2), ("restore_dot", 2), ("switch", 2),
)
FOLLOW_UPS = {"stash": "stash_pop", "switch": "switch_back"}  # a step that undoes one, a few steps later
FOLLOW_UP_AFTER = (2, 4)  # steps later
COMMIT_STYLES = (("narrow", 40), ("add_all", 25), ("commit_am", 20), ("add_dot", 15))
OWN_STYLE_SHARE = 0.7  # how often a session commits in its own style
STEP_GAP_MINUTES = (2.5, 5.5)  # between two steps of one session: ~15 steps a session-hour
NEW_TURN_SHARE = 0.2  # a step that opens with a new prompt from the human
SUBAGENT_WRITES = 2
SUBAGENT_STEP_MINUTES = 2.0


class Shape(NamedTuple):
    sessions: int
    in_worktree: int
    start_window: float  # minutes: every session starts in it
    duration: Tuple[float, float]  # minutes a session runs
    clears: int
    subagents: int
    kills: int


FULL = Shape(sessions=9, in_worktree=2, start_window=330, duration=(150, 330), clears=3, subagents=2, kills=3)
QUICK = Shape(sessions=4, in_worktree=1, start_window=15, duration=(55, 75), clears=1, subagents=1, kills=1)


class SessionPlan(NamedTuple):
    key: str  # "s1"
    checkout: str
    start: float
    end: float
    ending: str  # "exit" or "kill"
    clear_at: Optional[float]
    subagent_at: Optional[float]
    area: str  # the folder it mostly works in
    style: str  # its usual commit
    ids: Tuple[str, ...]  # its session ids: the first, and the one /clear gives it
    agent_id: Optional[str]


class Event(NamedTuple):
    minute: float
    order: int  # ties broken by the order events were drawn
    session: str
    kind: str  # start, prompt, step, clear, subagent, subagent-write, subagent-done, end
    action: str = ""  # a step's kind
    draw: int = 0  # the seed of what the step names


class Day(NamedTuple):
    seed: int
    sessions: Tuple[SessionPlan, ...]
    events: Tuple[Event, ...]

    def session(self, key):
        return next(s for s in self.sessions if s.key == key)

    def session_hours(self):
        return sum(s.end - s.start for s in self.sessions) / 60.0


def weighted(rng, pairs):
    total = sum(weight for _, weight in pairs)
    point = rng.uniform(0, total)
    for value, weight in pairs:
        point -= weight
        if point <= 0:
            return value
    return pairs[-1][0]


def _ids(rng, count, taken):
    """Session ids as uuid4s, each with a first two characters of its own (the derived names differ)."""
    ids = []
    while len(ids) < count:
        value = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        if value[:2] not in taken:
            taken.add(value[:2])
            ids.append(value)
    return ids


def _sessions(rng, shape):
    keys = ["s%d" % n for n in range(1, shape.sessions + 1)]
    in_worktree = set(rng.sample(keys, shape.in_worktree))
    clears = set(rng.sample(keys, shape.clears))
    subagents = set(rng.sample(keys, shape.subagents))
    kills = set(rng.sample(keys, shape.kills))
    folders = sorted(AREAS)
    taken, plans = set(), []
    for number, key in enumerate(keys):
        start = 0.0 if number == 0 else round(rng.uniform(0, shape.start_window), 1)
        end = round(start + rng.uniform(*shape.duration), 1)
        span = end - start
        clear_at = round(start + rng.uniform(0.35, 0.65) * span, 1) if key in clears else None
        subagent_at = round(start + rng.uniform(0.15, 0.7) * span, 1) if key in subagents else None
        ids = tuple(_ids(rng, 2 if clear_at else 1, taken))
        agent_id = "a" + "%016x" % rng.getrandbits(64) if subagent_at else None
        plans.append(SessionPlan(key, WORKTREE if key in in_worktree else CHECKOUT, start, end,
                                 "kill" if key in kills else "exit", clear_at, subagent_at,
                                 folders[number % len(folders)] if rng.random() < 0.75 else rng.choice(folders),
                                 weighted(rng, COMMIT_STYLES), ids, agent_id))
    return tuple(plans)


def _steps(rng, plan):
    """(minute, kind, draw) of each step of one session, follow-ups placed a few steps later."""
    minutes = []
    at = plan.start + rng.uniform(*STEP_GAP_MINUTES)
    while at < plan.end - 1:
        minutes.append(round(at, 1))
        at += rng.uniform(*STEP_GAP_MINUTES)
    kinds = [None] * len(minutes)
    for index in range(len(minutes)):
        if kinds[index] is not None:
            continue
        kind = weighted(rng, STEP_KINDS)
        later = index + rng.randint(*FOLLOW_UP_AFTER)
        if kind in FOLLOW_UPS:
            if later < len(kinds) and kinds[later] is None:
                kinds[later] = FOLLOW_UPS[kind]
            else:  # no room left for the step that undoes it
                kind = "edit"
        kinds[index] = kind
    return [(m, k, rng.getrandbits(32)) for m, k in zip(minutes, kinds)]


def plan_day(seed, shape=FULL):
    """The whole day of a seed."""
    rng = random.Random(seed)
    sessions = _sessions(rng, shape)
    drawn = []
    for plan in sessions:
        drawn.append((plan.start, plan.key, "start", "", 0))
        drawn.append((plan.start + 0.1, plan.key, "prompt", "", rng.getrandbits(32)))
        for minute, kind, draw in _steps(rng, plan):
            if rng.random() < NEW_TURN_SHARE:
                drawn.append((minute - 0.05, plan.key, "prompt", "", draw))
            drawn.append((minute, plan.key, "step", kind, draw))
        if plan.clear_at is not None:
            drawn.append((plan.clear_at, plan.key, "clear", "", 0))
            drawn.append((plan.clear_at + 0.1, plan.key, "prompt", "", rng.getrandbits(32)))
        if plan.subagent_at is not None:
            drawn.append((plan.subagent_at, plan.key, "subagent", "", 0))
            for n in range(1, SUBAGENT_WRITES + 1):
                drawn.append((plan.subagent_at + n * SUBAGENT_STEP_MINUTES, plan.key, "subagent-write", "",
                              rng.getrandbits(32)))
            drawn.append((plan.subagent_at + (SUBAGENT_WRITES + 1) * SUBAGENT_STEP_MINUTES, plan.key,
                          "subagent-done", "", 0))
        drawn.append((plan.end, plan.key, "end", "", 0))
    events = [Event(round(minute, 2), order, key, kind, action, draw)
              for order, (minute, key, kind, action, draw) in enumerate(drawn)]
    events.sort(key=lambda e: (e.minute, e.order))
    return Day(seed, sessions, tuple(events))
