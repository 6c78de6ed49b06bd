"""The text contract of the guard's refusals (issue 18), read from the outside, and the checks that
hold a refusal to what git holds and to what the oracle saw.

- A refusal is exit 2 (Codex), or JSON `hookSpecificOutput.permissionDecision` `deny` or `ask`, the
  text in `permissionDecisionReason`.
- A `deny` (a narrow form exists) carries exactly one runnable suggestion: a line that is exactly
  `Instead, run:`, then a block that opens with a line that is exactly ``` and ends at the next line
  that is exactly ```; what is between is the command as bash should run it. Or, when none of what
  the line would take is the session's own, no block and a line starting `None of what it would take
  is this session's`: there is nothing to run instead; for a shell write onto a peer's file, the
  advice to make the change with the Edit tool.
- Every refusal carries one line starting `At stake: `: per peer `<peer name>: <path> [<state>], …`,
  peers separated by `; `, paths relative to the toplevel of the checkout the operation acts in, a
  stash entry as `stash@{N} [stash]`, more than 12 paths of one peer ending in `(+N more)`.

Pure: no file, no git; the facts about a world come from scenario.py, what a line did from oracle.py.
"""
import json
import re
from typing import Dict, List, NamedTuple, Optional, Tuple

STAKE_PREFIX = "At stake: "
SUGGESTION_LEAD = "Instead, run:"
FENCE = "```"
NOTHING_OF_YOURS = "None of what it would take is this session's"
WRITE_ADVICE = "make your change with the Edit tool"  # a write onto a peer's file: no command to run instead
STATES = frozenset(("staged", "unstaged", "staged+unstaged", "untracked", "ignored", "staged-deletion",
                    "unstaged-deletion", "stash", "unknown"))
UNKNOWN = "unknown"  # the guard could not read the state in time: true of any path holding work
MAX_NAMED = 12  # paths of one peer before `(+N more)`
_ITEM = re.compile(r"^(.+) \[([a-z+-]+)\]$")
_MORE = re.compile(r"^(.*?)\s*\(\+(\d+) more\)$")
_ALONE = re.compile(r"^([^:()]+?) \(([^()]*)\)$")  # a peer named with a note and no paths
_ID_PREFIX = 6  # a hex token this long that starts an id names that session or subagent


class Refusal(NamedTuple):
    kind: str  # "deny", "ask" or "exit 2"
    text: str


def refusal(code, stdout, stderr):
    """The refusal in one hook run's output, or None when the command may run."""
    if code == 2:
        return Refusal("exit 2", stderr)
    try:
        output = json.loads(stdout).get("hookSpecificOutput", {})
    except (ValueError, AttributeError):
        return None
    decision = output.get("permissionDecision") if isinstance(output, dict) else None
    if decision in ("deny", "ask"):
        return Refusal(decision, str(output.get("permissionDecisionReason", "")))
    return None


class PeerStake(NamedTuple):
    name: str
    items: Tuple[Tuple[str, str], ...]  # (path or stash@{N}, state)
    more: int


def stake_lines(text):
    return [line for line in text.split("\n") if line.startswith(STAKE_PREFIX)]


def parse_stake(line):
    """The peers an `At stake:` line names; ValueError saying what does not follow the contract.
    A peer with no file at stake (a ref or branch operation) may be named alone with a note,
    `<peer name> (<note>)`: the contract does not say how, and the guard writes it so."""
    peers = []
    for chunk in _peer_chunks(line[len(STAKE_PREFIX):]):
        alone = _ALONE.match(chunk)
        if alone:
            peers.append(PeerStake(alone.group(1), (), 0))
            continue
        name, colon, rest = chunk.partition(": ")
        if not colon or not name.strip():
            raise ValueError("no `<peer name>: ` in %r" % chunk)
        more = 0
        matched = _MORE.match(rest)
        if matched:
            rest, more = matched.group(1), int(matched.group(2))
        items = []
        for part in rest.split(", "):
            item = _ITEM.match(part.strip())
            if not item:
                raise ValueError("not `<path> [<state>]`: %r" % part)
            if item.group(2) not in STATES:
                raise ValueError("unknown state [%s] of %s" % (item.group(2), item.group(1)))
            items.append((item.group(1), item.group(2)))
        if more and len(items) != MAX_NAMED:
            raise ValueError("%s: (+%d more) after %d paths, not %d" % (name, more, len(items), MAX_NAMED))
        if not more and len(items) > MAX_NAMED:
            raise ValueError("%s: %d paths named without (+N more)" % (name, len(items)))
        peers.append(PeerStake(name, tuple(items), more))
    return peers


def _peer_chunks(body):
    """The `; `-separated peers, a `; ` inside a peer's parenthesised note kept in it."""
    chunks, depth, start = [], 0, 0
    for at, char in enumerate(body):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and body.startswith("; ", at):
            chunks.append(body[start:at])
            start = at + 2
    chunks.append(body[start:])
    return chunks


def suggestions(text):
    """([command], [problem]) of the `Instead, run:` blocks in a refusal."""
    lines, found, problems = text.split("\n"), [], []
    for at, line in enumerate(lines):
        if line != SUGGESTION_LEAD:
            continue
        if at + 1 >= len(lines) or lines[at + 1] != FENCE:
            problems.append("`Instead, run:` not followed by a line that is exactly ```")
            continue
        end = next((i for i in range(at + 2, len(lines)) if lines[i] == FENCE), None)
        if end is None:
            problems.append("the suggestion's block never ends (no closing ```)")
            continue
        command = "\n".join(lines[at + 2:end])
        if not command.strip():
            problems.append("an empty suggestion")
            continue
        found.append(command)
    return found, problems


class Facts(NamedTuple):
    """What one world holds, for judging what a refusal says about it."""
    names: Dict[str, Tuple[str, ...]]  # {owner key: what a refusal may call it}, self's included
    subagents: frozenset  # owner keys that are subagents (matched before sessions: more specific)
    stake: Dict[str, Dict[str, str]]  # {owner key: {path or stash@{N}: state}} before the line
    self_key: str = "self"


def owner_of(name, facts):
    """The owner key a peer name in a refusal stands for, or None."""
    tokens = set(re.findall(r"[A-Za-z0-9_.@{}/-]+", name))
    best = None
    for key, aliases in facts.names.items():
        for alias in aliases:
            hit = alias == name or alias in tokens or (" " in alias and alias in name) or any(
                len(t) >= _ID_PREFIX and alias.startswith(t) and re.fullmatch(r"[0-9a-f-]+", t) for t in tokens)
            if hit:
                rank = (key in facts.subagents, len(alias))
                if best is None or rank > best[0]:
                    best = (rank, key)
    return best[1] if best else None


FALSE, MISSING, EXTRA = "false", "missing", "extra"  # what a stake problem is


class StakeProblem(NamedTuple):
    kind: str  # FALSE: says what is not so; MISSING: leaves out what the line harms; EXTRA: names what it does not
    text: str

    def __str__(self):
        return self.text


def stake_problems(peers, facts, harmed, exact):
    """What an `At stake:` line says that is not so (FALSE), and, when `exact`, what it leaves out
    of what the oracle saw harmed (MISSING) or names beyond it (EXTRA). `harmed`: {owner key: [what
    was harmed]} ({} on a harmless line); `exact`: the named paths must be exactly the harmed ones (a
    deny of a line whose harm is to files and stash entries, not to a checkout)."""
    problems, named = [], {}
    for peer in peers:
        key = owner_of(peer.name, facts)
        if key is None:
            problems.append(StakeProblem(FALSE, "%s: no such peer in this world" % peer.name))
            continue
        if key == facts.self_key:
            problems.append(StakeProblem(FALSE, "%s: names the judged session itself as a peer" % peer.name))
            continue
        held = facts.stake.get(key, {})
        for path, state in peer.items:
            if path not in held:
                problems.append(StakeProblem(FALSE, "%s: %s holds none of its uncommitted work" % (peer.name, path)))
            elif state != UNKNOWN and state != held[path]:
                problems.append(StakeProblem(FALSE, "%s: %s named [%s], git has it [%s]" % (
                    peer.name, path, state, held[path])))
        seen = named.setdefault(key, [set(), 0, peer.name])
        seen[0].update(path for path, _ in peer.items)
        seen[1] += peer.more
    if exact:
        for key in sorted(set(harmed) | set(named)):
            want = set(harmed.get(key, ()))
            got, more, name = named.get(key, (set(), 0, key))
            if more:
                if not got <= want or len(got) + more != len(want):
                    kind = MISSING if len(got) + more < len(want) else EXTRA
                    problems.append(StakeProblem(kind, "%s: names %d paths (+%d more), the line harms %d: %s" % (
                        name, len(got), more, len(want), " ".join(sorted(want)))))
                continue
            if want - got:
                problems.append(StakeProblem(MISSING, "%s: harmed but not named: %s" % (name, " ".join(sorted(want - got)))))
            if got - want:
                problems.append(StakeProblem(EXTRA, "%s: named but not harmed: %s" % (name, " ".join(sorted(got - want)))))
    return problems


def refusal_problems(decision_refusal, facts, harmed, checkout_harm):
    """Every way one refusal's `At stake:` line breaks the contract (a missing line is counted by
    the caller, `stake_lines`), as StakeProblems."""
    problems = []
    lines = stake_lines(decision_refusal.text)
    if len(lines) > 1:
        problems.append(StakeProblem(FALSE, "%d `At stake:` lines" % len(lines)))
    for line in lines[:1]:
        try:
            peers = parse_stake(line)
        except ValueError as error:
            problems.append(StakeProblem(FALSE, "stake line: %s" % error))
            continue
        exact = bool(harmed) and decision_refusal.kind != "ask" and not checkout_harm
        problems.extend(stake_problems(peers, facts, harmed, exact))
    return problems


def suggestion_problems(decision_refusal) -> Tuple[Optional[str], List[str]]:
    """(the suggestion to run, problems): a deny carries exactly one well-formed block, or says there
    is nothing of the session's own to run it on."""
    found, problems = suggestions(decision_refusal.text)
    nothing_of_yours = any(line.startswith(NOTHING_OF_YOURS) or WRITE_ADVICE in line
                           for line in decision_refusal.text.splitlines())
    if decision_refusal.kind == "deny" and len(found) != 1 and not problems and not (nothing_of_yours and not found):
        problems.append("no suggestion" if not found else "%d suggestions" % len(found))
    return (found[0] if len(found) == 1 else None), problems
