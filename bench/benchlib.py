"""Timing hooks as a ratio to bare interpreter start-up, measured in the same run.

Absolute milliseconds depend on the machine and its load; the ratio to the interpreter's own start,
timed interleaved with every case (one round runs each case once), is what the targets are written in.

Two floors are timed. `python3 -S -c pass` is the clean one: no site-packages, so nothing a .pth file
imports (re, typing, ... on some machines) is paid before the hook starts, and the hooks are run the
way they are registered, `python3 -S <script>`; the targets are checked against it. `python3 -c pass`
is what this interpreter costs with its site-packages, shown for comparison.

Wall time is what a user waits for and what the targets are written in. On a machine busy with other
work it also counts time spent waiting for a CPU, so the table adds each case's CPU time (user +
system, from the child's rusage) as a ratio to the clean floor's: steadier under load, and a check
on whether a wall-clock miss is the code or the machine.

Each case is given as it is felt (issue 32): its median and its 95th percentile wall time, both as a
ratio to the clean floor's median in the same run, and the tail (p95 / median). A targeted case is
within its budget when its median ratio is at most its target and its p95 at most TAIL_LIMIT times
its own median. The p95 is the nearest-rank one: with n runs, the ceil(0.95 n)-th fastest, so it
sits below the slowest run only from 20 rounds on (run.py's default gives it several runs above).
"""
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from typing import Dict, List, NamedTuple, Optional


class Case(NamedTuple):
    name: str
    argv: List[str]  # [python, script, ...]: the runner adds -S (or not) after the interpreter
    stdin: bytes
    env: Dict[str, str]
    cwd: str
    target: Optional[float]  # issue 32's ceiling on the median, a ratio to the clean floor; None = informational


class Timing(NamedTuple):
    """A case's figures over the rounds: [0] and [1] are the medians the ratio checks compare."""
    wall: float  # median wall seconds
    cpu: float  # median CPU seconds (user + system of the child)
    p95: float  # 95th percentile wall seconds (nearest rank)
    runs: int


# Issue 32: for every targeted case, the 95th percentile wall time at most this times its own median.
TAIL_LIMIT = 1.5


# The scripts measured: this checkout's, or another tree's given to run.py with --scripts (the same
# cases on the code before a change give the "before" column of docs/performance.md).
SCRIPTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts")


def script(name):
    return os.path.join(SCRIPTS, name)


CLEAN_FLOOR = "python3 -S -c pass (clean floor)"
SITE_FLOOR = "python3 -c pass (site floor)"


def floor_cases():
    """The clean floor first (what ratios are checked against), then the site floor."""
    return [Case(CLEAN_FLOOR, [sys.executable, "-S", "-c", "pass"], b"", dict(os.environ), os.getcwd(), None),
            Case(SITE_FLOOR, [sys.executable, "-c", "pass"], b"", dict(os.environ), os.getcwd(), None)]


def with_flags(case, flags):
    """The case with interpreter flags (e.g. -S, -X importtime) inserted after the interpreter."""
    if not flags or not case.argv or case.argv[0] != sys.executable:
        return case
    return case._replace(argv=[case.argv[0]] + list(flags) + case.argv[1:])


def _children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


# A run longer than this is stopped, and its case is not run again (the code before issue 21 took
# minutes on the 100,000-notes home, where the client would have killed it at 5 s).
TIMEOUT_S = 30.0


class TimedOut(Exception):
    pass


def _run(case, stderr=subprocess.DEVNULL):
    """(wall seconds, CPU seconds, the completed process) of one run; TimedOut past TIMEOUT_S.

    The child is waited for without a timeout (a watchdog kills it past TIMEOUT_S): with one,
    subprocess polls with sleeps doubling from 0.5 ms, and every wall time read as the next step of
    that schedule, 16, 32 or 64 ms (a 9 ms floor read 16 ms, a 25 ms hook 32 ms)."""
    import threading

    cpu_before = _children_cpu()
    started = time.perf_counter()
    process = subprocess.Popen(case.argv, stdin=subprocess.PIPE, env=case.env, cwd=case.cwd,
                               stdout=subprocess.DEVNULL, stderr=stderr)
    killed = []

    def kill():
        killed.append(True)
        process.kill()

    watchdog = threading.Timer(TIMEOUT_S, kill)
    watchdog.start()
    try:
        _out, err = process.communicate(case.stdin)
    finally:
        watchdog.cancel()
    elapsed = time.perf_counter() - started
    if killed:
        raise TimedOut(case.name)
    completed = subprocess.CompletedProcess(case.argv, process.returncode, None, err)
    if completed.returncode not in (0, 2):
        raise RuntimeError("%s exited %d" % (case.name, completed.returncode))
    return elapsed, _children_cpu() - cpu_before, completed


# What a front door writes when its library did not load (it then exits 0 having judged nothing), and
# an uncaught error: a case that shows either measures nothing, so the run stops (a tree mid-move).
BROKEN = (b"cannot load its library", b"Traceback (most recent call last)")


def checked_run(case):
    """One run, its stderr read: RuntimeError when the hook did not run its library."""
    elapsed, cpu, completed = _run(case, stderr=subprocess.PIPE)
    if any(mark in completed.stderr for mark in BROKEN):
        raise RuntimeError("%s did not run: %s" % (case.name, completed.stderr.decode("utf-8", "replace").strip()))
    return elapsed, cpu


def time_once(case):
    """(wall seconds, CPU seconds) of one run."""
    return _run(case)[:2]


def imported_modules(case):
    """How many modules a run imports (`-X importtime` lines): a count that load does not blur.
    The case must already carry its flags (-S or not); None when the run timed out."""
    try:
        completed = _run(with_flags(case, ["-X", "importtime"]), stderr=subprocess.PIPE)[2]
    except TimedOut:
        return None
    lines = completed.stderr.decode("utf-8", errors="replace").splitlines()
    return sum(1 for line in lines if line.startswith("import time:") and "self [us]" not in line)


def p95(values):
    """The 95th percentile by nearest rank: the ceil(0.95 n)-th smallest of n values (the slowest
    run when n < 20; with 100 runs the 95th, five slower runs above it)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def p95_rank(rounds):
    """Which run the p95 of `rounds` runs is, counting from the fastest."""
    return max(1, math.ceil(0.95 * rounds))


def measure(cases, rounds):
    """{name: Timing} per case, floors included, interleaved round by round in a shuffled order: a
    case that always ran right after a heavy one would carry its cache misses. A run past TIMEOUT_S
    counts as TIMEOUT_S; a case whose warm-up run passes it is not run again."""
    timed_out = set()
    for case in cases:  # one warm-up each, not counted: page cache, history index, .pyc files
        try:
            checked_run(case)
        except TimedOut:
            timed_out.add(case.name)
    samples = {case.name: [(TIMEOUT_S, TIMEOUT_S)] if case.name in timed_out else [] for case in cases}
    order = [case for case in cases if case.name not in timed_out]
    shuffler = random.Random(20261130)  # fixed: two runs on one machine shuffle alike
    for _ in range(rounds):
        shuffler.shuffle(order)
        for case in order:
            try:
                samples[case.name].append(time_once(case))
            except TimedOut:
                samples[case.name].append((TIMEOUT_S, TIMEOUT_S))
    return {name: Timing(statistics.median(wall for wall, _ in values), statistics.median(cpu for _, cpu in values),
                         p95([wall for wall, _ in values]), len(values))
            for name, values in samples.items()}


def pasted_check(hook, medians, pasted, plain, limit):
    """(label, ratio, limit) of a case with pasted prompts against the same case without, in CPU
    time: the two differ by a few percent at most, which wall time on a shared machine blurs
    (cold start, which reads no prompt, measured 0.60 to 1.17 wall across runs)."""
    return ("%s 16 KB pasted prompts / none (CPU time; wall %.2f)" % (hook, medians[pasted][0] / medians[plain][0]),
            medians[pasted][1] / medians[plain][1], limit)


def verdict(ratio, limit):
    return "ok" if ratio <= limit else "OVER"


def report(cases, timings, modules, checked_against=CLEAN_FLOOR):
    """The table, one row per case: median and p95 wall time, each as a ratio to the floor's median
    (the clean floor, or the one named), the tail (p95 / median), the target on the median ratio
    and the tail's limit, each with ok/OVER for a targeted case; the CPU-time ratio to the same
    floor's median CPU, and the modules imported beyond the clean floor's.
    Returns (text, checked, failures): a targeted case counts two checks, its median and its tail."""
    floor, floor_cpu = timings[checked_against].wall, timings[checked_against].cpu or float("nan")
    floor_modules = modules.get(CLEAN_FLOOR, 0)
    lines = ["%-62s %8s %8s %7s %7s %7s %-10s %-9s %6s %8s" % (
        "case", "median", "p95", "med x", "p95 x", "p95/med", "target", "tail", "cpu x", "modules")]
    checked = failures = 0
    for case in cases:
        timing = timings[case.name]
        tail = timing.p95 / timing.wall
        target = tail_mark = "-"
        if case.target is not None:
            median_ok, tail_ok = timing.wall / floor <= case.target, tail <= TAIL_LIMIT
            target = "%.2fx %s" % (case.target, "ok" if median_ok else "OVER")
            tail_mark = "%.2f %s" % (TAIL_LIMIT, "ok" if tail_ok else "OVER")
            checked += 2
            failures += (not median_ok) + (not tail_ok)
        count = modules.get(case.name)
        lines.append("%-62s %6.1fms %6.1fms %6.2fx %6.2fx %7.2f %-10s %-9s %5.2fx %8s" % (
            case.name, timing.wall * 1000, timing.p95 * 1000, timing.wall / floor, timing.p95 / floor, tail,
            target, tail_mark, timing.cpu / floor_cpu,
            "+%d" % (count - floor_modules) if count is not None else "-"))
    return "\n".join(lines), checked, failures
