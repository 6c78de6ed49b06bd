"""The cold start's comparison, past its quiet path: gather the sections, compare them with the
agent key's partition, print what changed, and record it once it was delivered; `--full` by hand.

The state file is locked, read, the sections gathered, compared and recorded under one lock, so a
start never records a view older than one already recorded (issue 14: a start that gathered before
the lock could overwrite a newer version, and the key was shown the change twice). The key's
partition advances only after the text was delivered (Outcome.after_delivery), so output lost on
the way is shown again. When nothing is left pending, the quiet path is armed for the key: its next
start stats what this one read (cold_start.quiet) and loads none of this.
"""
import time
from datetime import datetime, timezone
from typing import NamedTuple, Optional

from .. import hookio, platform
from ..claude.home import claude_home, codex_home
from . import gather, quiet, rules, sections, state

MANUAL_BUDGET = 100000  # by hand, a person or a Bash tool reads it; no hook preview to fit
NOT_RECORDED = "state not recorded (%s); this material will be shown again"


def resolve_workspace(folder, environ, session_id, now, host):
    """The gather.Workspace of a start, or None; under Codex its rule files are Codex's own."""
    root, toplevel = quiet.workspace_root(folder, environ)
    if root is None:
        return None
    start = quiet.start_folder(folder, environ)
    return gather.Workspace(root, toplevel, claude_home(environ), int(now * 1000), session_id,
                            codex_home(environ) if host == "codex" else None,
                            platform.current().paths.realpath(start) if start else root)


def client_loaded(host):
    """The sections the client puts in every context itself (Claude Code: the memory index and the
    latest commits; Codex loads neither)."""
    return sections.CLIENT_LOADED if host == "claude" else frozenset()


def plan(found, baseline, old_texts=None, budget=None, loaded=frozenset()):
    """sections.plan_emission against a Baseline (its partition, or none)."""
    partition = baseline.partition
    return sections.plan_emission(
        found,
        partition.sections if partition else {},
        partition.last_emit_at if partition else None,
        baseline.full_reason,
        old_texts,
        budget or sections.BUDGET_CHARS,
        loaded,
    )


def by_hand(folder, host, environ, now):
    """`--full [folder]`: every section of the workspace, as a fresh key would get it; nothing
    is read from or written to the state file."""
    workspace = resolve_workspace(folder, environ, None, now, host)
    if workspace is None:
        return hookio.Outcome(hookio.EXIT_USAGE, stderr="cold_start.py: no such folder\n")
    gathered = gather.gather(workspace)
    reason = "asked for with --full; nothing recorded"
    emission = plan(gathered.sections, state.Baseline(None, reason), budget=MANUAL_BUDGET)
    return hookio.Outcome(stdout=emission.text, warnings=gathered.problems)


def session_start(folder, environ, session_id, now, host, path, key, problems=()):
    """A fresh context's start whose quiet path could not answer: the full comparison."""
    workspace = resolve_workspace(folder, environ, session_id, now, host)
    return fresh_start(path, key, lambda: gather.gather(workspace), datetime.fromtimestamp(int(now), timezone.utc),
                       problems, workspace.home, lambda: gather.input_paths(workspace), client_loaded(host))


def old_texts(home, found, baseline, loaded=frozenset()):
    """The kept copies of the rule files and client-loaded sections that changed for this key,
    for their diffs."""
    old = baseline.partition.sections if baseline.partition else {}
    wanted = [old[s.key] for s in found
              if (sections.is_rule(s) or s.key in loaded) and s.key in old
              and old[s.key] != sections.fingerprint_of(s)]
    return rules.load(home, wanted) if wanted and home else {}


def fresh_start(path, key, gathering, now, problems=(), home=None, inputs=None, loaded=frozenset()):
    """Lock, read the key's partition, gather the sections and compare; the Outcome prints the
    changed sections and, once they are delivered, records them and releases the lock.
    gathering: () -> gather.Gathered, called under the lock. inputs: () -> the paths the gathering
    depends on; when given and nothing is left pending, the quiet path is armed for the key.
    loaded: the sections the client put in the context itself (client_loaded)."""
    problems = list(problems)
    try:
        ledger = state.Ledger.open(path, now)
    except (OSError, state.StateError) as error:
        return _unrecorded(path, key, gathering, home, loaded, problems + [NOT_RECORDED % error])
    try:
        compared = _compare(ledger.baseline(key), gathering, home, inputs, loaded)
    except BaseException:
        ledger.close()
        raise
    return hookio.Outcome(stdout=compared.emission.text, warnings=problems + list(compared.gathered.problems),
                          after_delivery=lambda delivered: _record(ledger, path, key, now, compared, delivered))


class Compared(NamedTuple):
    """One comparison under the lock: the key's Baseline, what was gathered, the Emission planned,
    the quiet path's tokens of the inputs (taken at since_ns; None without inputs, or when one
    changed too recently to be trusted), and whether the quiet path is to be armed (or forgotten)."""
    baseline: state.Baseline
    gathered: gather.Gathered
    emission: sections.Emission
    taken: Optional[list]
    since_ns: int
    home: Optional[str]
    loaded: frozenset
    arm: bool


def _compare(baseline, gathering, home, inputs, loaded):
    since_ns = time.time_ns()
    taken = quiet.tokens(inputs(), since_ns) if inputs else None
    gathered = gathering()
    found = gathered.sections
    emission = plan(found, baseline, old_texts(home, found, baseline, loaded), loaded=loaded)
    return Compared(baseline, gathered, emission, taken, since_ns, home, loaded, inputs is not None)


def _unrecorded(path, key, gathering, home, loaded, problems):
    """The comparison without the lock (the state file cannot be opened): shown, never recorded."""
    gathered = gathering()
    baseline = state.read_baseline(path, key)
    found = gathered.sections
    emission = plan(found, baseline, old_texts(home, found, baseline, loaded), loaded=loaded)
    return hookio.Outcome(stdout=emission.text, warnings=problems + list(gathered.problems))


def _record(ledger, path, key, now, compared, delivered):
    """After delivery: the printed sections recorded for the key, the quiet path armed (or
    forgotten), the copies kept for the next diff; the lock released. Nothing when not delivered."""
    with ledger:
        if not delivered:
            return ()
        partition = compared.baseline.partition
        new = sections.fingerprints_to_record(partition.sections if partition else {}, compared.gathered.sections,
                                              compared.emission.printed)
        stamp = partition.last_emit_at if partition else None
        if state.needs_record(partition, new, now):
            try:
                ledger.record(key, new)
            except (OSError, state.StateError) as error:
                return (NOT_RECORDED % error,)
            stamp = state.format_stamp(now)
        if compared.arm:
            emission, gathered = compared.emission, compared.gathered
            settled = compared.taken is not None and not emission.left_out and not gathered.problems
            _arm_quiet_path(path, key, compared.taken if settled else None, stamp, gathered, now, compared.since_ns)
    _keep_copies(compared, now)
    return ()


def _keep_copies(compared, now):
    """Copies of the rule files and client-loaded sections shown, for the next start's diff."""
    shown = set(compared.emission.printed)
    found = compared.gathered.sections
    kept = [s for s in found if sections.is_rule(s) and s.key in shown]
    kept += [s._replace(digest=sections.fingerprint_of(s)) for s in found
             if s.key in compared.loaded and s.key in shown and s.body]
    if kept and compared.home:
        rules.keep(compared.home, kept, now.timestamp())


def _arm_quiet_path(path, key, taken, stamp, gathered, now, since_ns):
    """Under the lock, after the state was written: remember what this comparison read, so the
    next start of the key can tell "nothing changed" from stats alone (None forgets it). Best
    effort: without it the next start compares in full."""
    now_ms = int(now.timestamp() * 1000)
    line = None
    recorded = state.parse_stamp(stamp)
    if taken is not None and recorded is not None:
        expiries = [int((recorded + state.RESTAMP_AFTER).timestamp() * 1000)]  # a re-stamp is due
        if gathered.valid_until_ms is not None:
            expiries.append(gathered.valid_until_ms)
        line = quiet.entry_line(key, min(expiries), quiet.token(path), since_ns, taken)
    try:
        quiet.remember(path, key, line, now_ms)
    except OSError:
        pass
