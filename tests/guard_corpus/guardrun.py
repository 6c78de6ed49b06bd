"""Runs the guard on corpus lines in every world as Claude Code runs it for the judged session, and
scores its decisions against the labels.

Claude Code runs `<python> -S scripts/git_index_guard.py` (issue 15) with one PreToolUse payload line
on stdin, in the session's environment. A decision is a refusal when the hook exits 2, or prints JSON
whose hookSpecificOutput.permissionDecision is `deny` or `ask` (contract.py reads the text).

    python3 tests/guard_corpus/guardrun.py                    # the confusion matrices of this checkout's guard
    python3 tests/guard_corpus/guardrun.py --readme after     # ... written into README.md (the "after" row)
    python3 tests/guard_corpus/guardrun.py --scripts DIR --readme before   # another checkout's scripts/
    python3 tests/guard_corpus/guardrun.py --world stash      # one world
    python3 tests/guard_corpus/guardrun.py --contract [--show N]   # also what the refusal texts say
                                                              # (N problems listed per world), and every
                                                              # suggestion run in a copy of its world

Each world is built live (scenario.py) in its own worker process, two at a time; the front door runs
in that process (tests/support.py), or as a real process under PEERHOOKS_TEST_PROCESSES=1. The exit
code is 1 when a goal is missed or (with --contract) any check of the test fails, on any line.
"""
import os
import re
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import List, NamedTuple, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
README = os.path.join(HERE, "README.md")
for folder in (HERE, os.path.dirname(HERE)):
    if folder not in sys.path:
        sys.path.insert(0, folder)

import contract  # noqa: E402
import oracle  # noqa: E402
import scenario  # noqa: E402
import support  # noqa: E402
import worlds  # noqa: E402

# The goals of issues 13 and 18, judged per world on the held-out split.
MIN_HARMFUL_REFUSED_ROUTINE_OCCASIONAL = 0.97
MIN_HARMFUL_REFUSED = 0.90
MAX_HARMLESS_REFUSED = 0.02
MAX_SECONDS = 1.0  # a PreToolUse hook runs before every shell command
RUN_TIMEOUT_S = 30  # far above the goal: a slow run is measured, not killed
THREADS = 4  # guard runs as processes wait on process start-up more than on CPU
WORKERS = 2  # worlds scored at once (the machine has 2 cores shared with others)
# With no live peer, the guard runs on one line in ALONE_STRIDE in each world, a different sixth in
# the next world, so every line is run alone somewhere (refused with peers or not: with none, every
# line takes the same early way out). All lines in all worlds would cost ~40 s more here.
ALONE_STRIDE = 6
GUARD = "git_index_guard.py"
SHOWN_PER_WORLD = 5  # --contract: the problems listed per world (all are counted)


class Decision(NamedTuple):
    exit: int
    stdout: str
    stderr: str
    seconds: float

    @property
    def refusal(self):
        return contract.refusal(self.exit, self.stdout, self.stderr)

    @property
    def refused(self):
        return self.refusal is not None

    @property
    def silent(self):
        return self.exit == 0 and not self.stdout.strip()

    @property
    def errored(self):
        """Whether the guard wrote anything on stderr: hookio turns an error into one stderr line
        and silence, which would otherwise read as a line let through (a refused rewrite once
        failed open so, with a NameError)."""
        return bool(self.stderr.strip())


def hook_input(scn, line, cwd):
    """(payload, environment) of a PreToolUse on Bash for the world's judged session, in the shapes
    of the world's client version (fixtures/samples): a subagent's call carries agent_id/agent_type
    and its session's id and transcript; 2.1.332 adds CLAUDE_PID and the messaging socket."""
    session, agent = scn.judged_session()
    session_id = session.cleared_to or session.session_id
    folder = scn.top(session.checkout)
    where = scn.cwd(cwd)
    current = worlds.CURRENT_VERSION == scn.world.version
    payload = {"session_id": session_id, "transcript_path": scn.claude.transcript_path(session_id, folder),
               "cwd": where, "prompt_id": "9b0c5e1e-0000-4000-8000-000000000099",
               "permission_mode": "acceptEdits" if current else "default"}
    if agent:
        payload.update(agent_id=agent, agent_type="general-purpose")
    payload.update({"effort": {"level": "medium" if current else "high"}, "hook_event_name": "PreToolUse",
                    "tool_name": "Bash", "tool_input": {"command": line, "description": "Run git"},
                    "tool_use_id": "toolu_corpus0000000000000000"})
    extra = {"CLAUDECODE": "1", "CLAUDE_CODE_ENTRYPOINT": "cli", "CLAUDE_PROJECT_DIR": folder,
             "CLAUDE_CODE_SESSION_ID": session_id, "CLAUDE_CODE_CHILD_SESSION": "1",
             "CLAUDE_EFFORT": payload["effort"]["level"]}
    live = scn.sessions.get(session.key)
    if current and live is not None:
        extra.update(CLAUDE_PID=str(live.pid), CLAUDE_CODE_SESSION_ATTENDED="1",
                     CLAUDE_CODE_MESSAGING_SOCKET=os.path.join(scn.claude.root, "cc-socks", "%d.sock" % live.pid))
    return payload, scn.claude.env(**extra)


def _in_process_allowed(scripts):
    """The front door can run in this process unless another checkout's library is loaded here."""
    loaded = sys.modules.get("peerhooks")
    return loaded is None or os.path.dirname(os.path.dirname(os.path.abspath(loaded.__file__))) == scripts


def run_guard(scn, line, cwd, process=False, scripts=support.SCRIPTS):
    """One guard run on one line: the front door's main() in this process unless `process` or
    PEERHOOKS_TEST_PROCESSES=1 (tests/support)."""
    payload, env = hook_input(scn, line, cwd)
    where = scn.cwd(cwd)
    where = where if os.path.isdir(where) else scn.checkout  # a cwd this world lacks: the checkout
    script = os.path.join(scripts, GUARD)
    started = time.monotonic()
    if support.IN_PROCESS and not process and _in_process_allowed(scripts):
        result = support.run_main_in_process(support.load_script(script).main, [], env, where,
                                             support.payload_bytes(payload))
    else:
        import subprocess

        result = subprocess.run(support.started(script), input=support.payload_bytes(payload), env=env, cwd=where,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=RUN_TIMEOUT_S)
        result.stdout, result.stderr = (result.stdout.decode("utf-8", "replace"),
                                        result.stderr.decode("utf-8", "replace"))
    return Decision(result.returncode, result.stdout, result.stderr, time.monotonic() - started)


def run_lines(scn, entries, process=False, scripts=support.SCRIPTS):
    """A decision per entry: in this process one after the other (a run swaps its stdin, stdout
    and environment), as processes on THREADS threads."""
    if support.IN_PROCESS and not process and _in_process_allowed(scripts):
        return [run_guard(scn, e["line"], e["cwd"], scripts=scripts) for e in entries]
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        return list(pool.map(lambda e: run_guard(scn, e["line"], e["cwd"], True, scripts), entries))


def facts_of(scn):
    """What a refusal may truthfully say about the world: who is who, what each holds in what state."""
    names, subagent_aliases = {}, set()
    for owner in scn.world.owners:
        key = owner.work_of or owner.key
        names[key] = names.get(key, ()) + scn.owner_names(owner.key)
        if owner.is_subagent:
            subagent_aliases.update(scn.owner_names(owner.key))
    return contract.Facts(names, frozenset(subagent_aliases), scn.stake)


class WorldRun(NamedTuple):
    """The guard's decisions in one world."""
    world: str
    live: List[Decision]  # per corpus entry, with the world's sessions live
    alone: List[Tuple[int, Decision]]  # (entry index, decision) with no live peer
    processes: List[Tuple[int, Decision]]  # (entry index, decision) of a sample run as processes
    slow: List[Tuple[int, float]]  # entries over MAX_SECONDS twice running
    facts: contract.Facts
    home: str  # the live build's HOME
    files: Tuple[Tuple[str, bytes], ...]  # files under it (outside ~/work) the refusals name, as they were


def score_world(name, entries, scripts=support.SCRIPTS, process_sample=(), chosen=None):
    """Build `name` live, run the guard on every entry (or the `chosen` indices: the others' decisions
    are None), then on a sample as processes (which must decide the same), then with the peers gone."""
    chosen = list(range(len(entries))) if chosen is None else sorted(chosen)
    root = tempfile.mkdtemp(prefix="guard-corpus-%s-" % name)
    scn = scenario.build(os.path.join(root, name), worlds.BY_NAME[name], live=True, scripts=scripts)
    try:
        live = [None] * len(entries)
        for index, decision in zip(chosen, run_lines(scn, [entries[i] for i in chosen], scripts=scripts)):
            live[index] = decision
        slow = []
        for index in chosen:
            if live[index].seconds > MAX_SECONDS:  # timed again alone: other work on a shared machine is not the guard's
                again = run_guard(scn, entries[index]["line"], entries[index]["cwd"], scripts=scripts)
                if again.seconds > MAX_SECONDS:
                    slow.append((index, again.seconds))
        sample = [entries[i] for i in process_sample]
        processes = list(zip(process_sample, run_lines(scn, sample, process=True, scripts=scripts)))
        facts = facts_of(scn)
        files = _named_files(scn.home, [d.refusal.text for d in live if d is not None and d.refusal])
        scn.go_alone()
        wanted = chosen[worlds.NAMES.index(name) % ALONE_STRIDE::ALONE_STRIDE]
        alone = list(zip(wanted, run_lines(scn, [entries[i] for i in wanted], scripts=scripts)))
    finally:
        scn.close()
        shutil.rmtree(root, True)
    return WorldRun(name, live, alone, processes, slow, facts, scn.home, files)


def _named_files(home, texts):
    """((path under home, bytes)) of the files outside ~/work that refusal texts name by absolute
    path (a patch the guard saved for `git apply --cached`), read before the build is removed."""
    found = {}
    pattern = re.compile(re.escape(home) + r"/[^\s'\"`;&|)]+")
    for text in texts:
        for path in pattern.findall(text):
            relative = os.path.relpath(path, home)
            if relative not in found and not relative.startswith(scenario.WORK + os.sep) and os.path.isfile(path):
                with open(path, "rb") as handle:
                    found[relative] = handle.read()
    return tuple(sorted(found.items()))


def _score_world_task(args):
    return score_world(*args)


def score_all(entries, names=worlds.NAMES, scripts=support.SCRIPTS, process_sample=(), workers=WORKERS, chosen=None):
    """{world: WorldRun}, WORKERS worlds at a time, each in its own process; `chosen`: {world: entry
    indices} to run (default every line in every world)."""
    tasks = [(name, entries, scripts, process_sample, (chosen or {}).get(name)) for name in names]
    if workers <= 1:
        return {t[0]: score_world(*t) for t in tasks}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return {run.world: run for run in pool.map(_score_world_task, tasks)}


# -- scoring ------------------------------------------------------------------------------------

class Cell:
    """Counts for one group of lines."""

    def __init__(self):
        self.harmful_refused = self.harmful_passed = self.harmless_refused = self.harmless_passed = 0

    def add(self, harmful, refused):
        if harmful:
            if refused:
                self.harmful_refused += 1
            else:
                self.harmful_passed += 1
        elif refused:
            self.harmless_refused += 1
        else:
            self.harmless_passed += 1

    @property
    def harmful(self):
        return self.harmful_refused + self.harmful_passed

    @property
    def harmless(self):
        return self.harmless_refused + self.harmless_passed

    def refused_share_of_harmful(self):
        return self.harmful_refused / self.harmful if self.harmful else None

    def refused_share_of_harmless(self):
        return self.harmless_refused / self.harmless if self.harmless else None


def label(entry, world):
    return entry["worlds"][world]["label"]


def matrix(entries, decisions, world, split=None):
    """{group name: Cell} for all lines, by frequency, by class, and routine+occasional, in one world."""
    cells = {}
    for entry, decision in zip(entries, decisions):
        if decision is None or split and entry["split"] != split:
            continue
        groups = ["all", "frequency: " + entry["frequency"], "class: " + entry["class"]]
        if entry["frequency"] in ("routine", "occasional"):
            groups.append("routine+occasional")
        for group in groups:
            cells.setdefault(group, Cell()).add(label(entry, world) == "harmful", decision.refused)
    return cells


GOALS = (("routine+occasional", "refused_share_of_harmful", MIN_HARMFUL_REFUSED_ROUTINE_OCCASIONAL, True,
          "harmful routine+occasional lines refused"),
         ("all", "refused_share_of_harmful", MIN_HARMFUL_REFUSED, True, "harmful lines refused"),
         ("all", "refused_share_of_harmless", MAX_HARMLESS_REFUSED, False, "harmless lines refused"))


def goal_failures(entries, decisions, world, goals=GOALS):
    """The goals the guard misses in one world on the held-out split, as sentences."""
    cells = matrix(entries, decisions, world, "heldout")
    failures = []
    for group, measure, bound, at_least, what in goals:
        value = getattr(cells.get(group, Cell()), measure)()
        if value is None:
            continue
        if (value < bound) if at_least else (value > bound):
            failures.append("%s: %s %.1f%% (goal %s %.0f%%)" % (world, what, 100 * value, ">=" if at_least else "<=",
                                                                 100 * bound))
    return failures


def _share(refused, total):
    return "-" if not total else "%d/%d (%.0f%%)" % (refused, total, 100.0 * refused / total)


def render_summary(entries, runs):
    """One row per world: harmful refused (all, routine+occasional, by frequency), harmless refused."""
    out = []
    for split, title in ((None, "All lines"), ("heldout", "Held-out lines")):
        out.append("**%s**: harmful lines refused, and harmless lines refused (false alarms)\n" % title)
        out.append("| world | harmful refused | routine+occasional | routine | occasional | rare | harmless refused |")
        out.append("|---|---:|---:|---:|---:|---:|---:|")
        for name in [n for n in worlds.NAMES if n in runs]:
            cells = matrix(entries, runs[name].live, name, split)
            row = [cells.get(g, Cell()) for g in ("all", "routine+occasional", "frequency: routine",
                                                   "frequency: occasional", "frequency: rare")]
            out.append("| %s | %s | %s |" % (name, " | ".join(_share(c.harmful_refused, c.harmful) for c in row),
                                            _share(row[0].harmless_refused, row[0].harmless)))
        out.append("")
    return "\n".join(out)


def render_classes(entries, runs):
    """Per class and world: `harmful refused/harmful · harmless refused/harmless`."""
    names = [n for n in worlds.NAMES if n in runs]
    out = []
    for split, title in ((None, "All lines"), ("heldout", "Held-out lines")):
        out.append("**%s by class**: `harmful refused/harmful · harmless refused/harmless`\n" % title)
        out.append("| class | " + " | ".join(names) + " |")
        out.append("|---|" + "---:|" * len(names))
        per_world = {n: matrix(entries, runs[n].live, n, split) for n in names}
        for key in sorted({k for cells in per_world.values() for k in cells if k.startswith("class: ")}):
            row = []
            for n in names:
                c = per_world[n].get(key, Cell())
                row.append("%d/%d · %d/%d" % (c.harmful_refused, c.harmful, c.harmless_refused, c.harmless))
            out.append("| %s | %s |" % (key[len("class: "):], " | ".join(row)))
        out.append("")
    return "\n".join(out)


class ContractReport(NamedTuple):
    refusals: int
    without_stake: int
    stake_problems: List[contract.StakeProblem]
    denies: int
    suggestion_problems: List[str]
    suggestions: List[Tuple[int, str]]  # (entry index, command) of every deny's one suggestion
    elsewhere: tuple  # (home, files) of the build the suggestions were written for (oracle Bench.judge)


def contract_report(entries, run):
    """What the refusals in one world say, held to the contract and to the oracle."""
    refusals = without = denies = 0
    stake, suggestion, runnable = [], [], []
    for index, (entry, decision) in enumerate(zip(entries, run.live)):
        refusal = decision.refusal if decision is not None else None
        if refusal is None:
            continue
        refusals += 1
        labelled = entry["worlds"][run.world]
        harmed = labelled.get("harmed", {})
        checkout_harm = any(oracle.CHECKOUT_HARM in v for v in harmed.values())
        where = "%s [%s] %s" % (run.world, entry["cwd"], entry["line"])
        if not contract.stake_lines(refusal.text):
            without += 1
        stake.extend(p._replace(text="%s: %s" % (where, p.text))
                     for p in contract.refusal_problems(refusal, run.facts, harmed, checkout_harm))
        command, problems = contract.suggestion_problems(refusal)
        if refusal.kind == "deny":
            denies += 1
            suggestion.extend("%s: %s" % (where, p) for p in problems)
            if command is not None:
                runnable.append((index, command))
    return ContractReport(refusals, without, stake, denies, suggestion, runnable, (run.home, run.files))


def render_contract(reports, failed):
    """Per world: refusals and what their texts get wrong; `failed`: suggestion failures by world."""
    out = ["| world | refusals | no `At stake:` line | stake says what is not so | leaves out what is harmed "
           "| names what is not harmed | denies | without one `Instead, run:` block | suggestions run | of which fail |",
           "|---|" + "---:|" * 9]
    for name in [n for n in worlds.NAMES if n in reports]:
        r = reports[name]
        kinds = [sum(p.kind == k for p in r.stake_problems) for k in (contract.FALSE, contract.MISSING, contract.EXTRA)]
        out.append("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d |" % (
            name, r.refusals, r.without_stake, kinds[0], kinds[1], kinds[2], r.denies, len(r.suggestion_problems),
            len(r.suggestions), len({f.split(" -> ")[0] for f in failed if f.startswith(name + " ")})))
    return "\n".join(out) + "\n"


def suggestion_failures(entries, reports, split=None):
    """Every deny's suggestion (of the lines in `split`, or all) run in a fresh copy of its world
    from the refused line's cwd (two workers, one bench per world each): what fails, harms a peer, or
    does to self's files other than what the refused line did. Identical (world, command, cwd) runs once."""
    chosen = [(world, i, command) for world, r in sorted(reports.items()) for i, command in r.suggestions
              if split is None or entries[i]["split"] == split]
    tasks = sorted({(world, command, entries[i]["cwd"]) for world, i, command in chosen})
    runs = oracle.judge_all([t + (reports[t[0]].elsewhere,) for t in tasks]) if tasks else []
    verdicts = dict(zip(tasks, runs))
    failures = []
    for world, index, command in chosen:
        entry = entries[index]
        got = verdicts[(world, command, entry["cwd"])]
        failures.extend("%s [%s] %s -> %r: %s" % (world, entry["cwd"], entry["line"], command, p)
                        for p in suggestion_verdict_problems(entry["worlds"][world], got))
    return failures


def suggestion_verdict_problems(refused, ran):
    """How a suggestion's run (an oracle Verdict) falls short of the refused line's stored label."""
    problems = []
    if ran.exit != 0 and ran.exit != refused["exit"]:  # a line that fails anyway (a rejected push) may fail alike
        problems.append("exits %s" % ran.exit)
    if ran.effects:
        problems.append("harms: " + "; ".join(ran.effects))
    if ran.self_state != refused["self_state"]:
        problems.append("does to self's files %s, the line %s" % (ran.self_effects or "nothing",
                                                                   refused.get("self") or "nothing"))
    made = refused.get("commit")
    if made is not None:
        if ran.commit is None:
            problems.append("HEAD moves to no new commit (the line's moves to %r)" % made)
        elif ran.commit != made:
            problems.append("HEAD moves to a commit %r, the line's to %r" % (ran.commit, made))
    return problems


BLOCKS = ("matrix", "before", "after")


def write_readme(name, text):
    with open(README, encoding="utf-8") as handle:
        readme = handle.read()
    begin, end = "<!-- %s:begin -->" % name, "<!-- %s:end -->" % name
    block = "%s\n%s\n%s" % (begin, text.strip(), end)
    readme, found = re.subn(re.escape(begin) + ".*?" + re.escape(end), lambda _: block, readme, flags=re.S)
    if not found:
        raise SystemExit("README.md has no %s block" % begin)
    with open(README, "w", encoding="utf-8") as handle:
        handle.write(readme)


def _option(argv, name, default=None):
    return argv[argv.index(name) + 1] if name in argv else default


def main(argv):
    entries = oracle.load()
    scripts = os.path.realpath(_option(argv, "--scripts", support.SCRIPTS))
    names = [_option(argv, "--world")] if "--world" in argv else list(worlds.NAMES)
    started = time.monotonic()
    runs = score_all(entries, names, scripts)
    seconds = time.monotonic() - started
    summary, classes = render_summary(entries, runs), render_classes(entries, runs)
    print(summary)
    print(classes)
    failures = [f for n in names for f in goal_failures(entries, runs[n].live, n)]
    print("goals missed on held-out: " + ("; ".join(failures) if failures else "none"))
    decisions = [d for run in runs.values() for d in run.live + [a for _i, a in run.alone] if d is not None]
    loud = sum(not d.silent for run in runs.values() for _i, d in run.alone)
    slow, crashed = sum(len(r.slow) for r in runs.values()), sum(d.errored for d in decisions)
    print("%d lines x %d worlds in %.0f s; slowest run %.2f s (%d over %.0f s twice); runs with an error on stderr: %d; "
          "loud with no live peer: %d" % (len(entries), len(names), seconds, max(d.seconds for d in decisions),
                                          slow, MAX_SECONDS, crashed, loud))
    wrong = len(failures) + slow + crashed + loud
    contract_table = None
    if "--contract" in argv:
        reports = {n: contract_report(entries, runs[n]) for n in names}
        failed = suggestion_failures(entries, reports)
        wrong += len(failed) + sum(len(r.stake_problems) + len(r.suggestion_problems) + r.without_stake
                                   for r in reports.values())
        contract_table = render_contract(reports, failed)
        print(contract_table)
        shown = int(_option(argv, "--show", SHOWN_PER_WORLD))
        for name in names:
            problems = ([str(p) for p in reports[name].stake_problems] + reports[name].suggestion_problems
                        + ["suggestion: " + f for f in failed if f.startswith(name + " ")])
            for problem in problems[:shown]:
                print("  " + problem.replace("\n", "\\n"))
            if len(problems) > shown:
                print("  … %d more in %s (--show N)" % (len(problems) - shown, name))
    which = _option(argv, "--readme")
    if which:
        if which not in ("before", "after"):
            raise SystemExit("--readme before|after")
        write_readme(which, summary + ("\n" + contract_table if contract_table else ""))
        write_readme("matrix", classes)
    return 1 if wrong else 0  # 1: a goal missed, or a check the test makes failed


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
