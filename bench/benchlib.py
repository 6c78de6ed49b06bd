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
"""
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
    target: Optional[float]  # the ceiling as a ratio to the clean floor; None = informational


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


def measure(cases, rounds):
    """Median wall and CPU seconds per case ({name: (wall, cpu)}, floors included), interleaved
    round by round in a shuffled order: a case that always ran right after a heavy one would carry
    its cache misses."""
    timed_out = set()
    for case in cases:  # one warm-up each: page cache, history index, .pyc files
        try:
            time_once(case)
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
    return {name: (statistics.median(wall for wall, _ in values), statistics.median(cpu for _, cpu in values))
            for name, values in samples.items()}


def pasted_check(hook, medians, pasted, plain, limit):
    """(label, ratio, limit) of a case with pasted prompts against the same case without, in CPU
    time: the two differ by a few percent at most, which wall time on a shared machine blurs
    (cold start, which reads no prompt, measured 0.60 to 1.17 wall across runs)."""
    return ("%s 16 KB pasted prompts / none (CPU time; wall %.2f)" % (hook, medians[pasted][0] / medians[plain][0]),
            medians[pasted][1] / medians[plain][1], limit)


def verdict(ratio, limit):
    return "ok" if ratio <= limit else "OVER"


def report(cases, medians, modules, checked_against=CLEAN_FLOOR):
    """The table: median wall time, its ratio to each floor, the target (against the clean floor,
    or the one named) and verdict, the CPU-time ratio to the clean floor, and the modules imported
    beyond the clean floor's. Returns (text, failures)."""
    clean, site = medians[CLEAN_FLOOR][0], medians[SITE_FLOOR][0]
    floor = medians[checked_against][0]
    clean_cpu = medians[CLEAN_FLOOR][1] or float("nan")
    floor_modules = modules.get(CLEAN_FLOOR, 0)
    lines = ["%-62s %9s %8s %8s %7s %5s %8s %8s" % (
        "case", "median", "x clean", "x site", "target", "", "cpu x", "modules")]
    failures = 0
    for case in cases:
        median, cpu = medians[case.name]
        mark = ""
        if case.target is not None:
            mark = verdict(median / floor, case.target)
            failures += mark != "ok"
        count = modules.get(case.name)
        lines.append("%-62s %7.1fms %7.2fx %7.2fx %7s %5s %7.2fx %8s" % (
            case.name, median * 1000, median / clean, median / site,
            "%.2fx" % case.target if case.target is not None else "-", mark, cpu / clean_cpu,
            "+%d" % (count - floor_modules) if count is not None else "-"))
    return "\n".join(lines), failures


def warm_server_pid(scripts=None):
    """The pid of the guard's warm server for these scripts and this interpreter (peerhooks.warm:
    one per user, scripts folder and interpreter, under this run's TMPDIR), or None."""
    scripts = scripts or SCRIPTS
    sys.path.insert(0, scripts)
    try:
        from peerhooks.warm import client, place
    finally:
        sys.path.remove(scripts)
    folder = client.folder_of(scripts, os.environb, os.getuid())[1]
    try:
        with open(os.path.join(folder, place.PID)) as handle:
            pid = int(handle.read())
        with open("/proc/%d/cmdline" % pid, "rb") as handle:  # still that server, not a pid reused since
            words = handle.read().split(b"\0")
    except (OSError, ValueError):
        return None
    return pid if os.fsencode(folder) in words else None


def reaped_cpu(pid):
    """Seconds of CPU a process's reaped children used (cutime + cstime of /proc/<pid>/stat)."""
    with open("/proc/%d/stat" % pid) as handle:
        fields = handle.read().rpartition(")")[2].split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def stop_warm_servers(scripts=None):
    """End the warm server the cases started, so that a run leaves no process behind."""
    import signal

    pid = warm_server_pid(scripts)
    if pid is not None:
        try:
            os.kill(pid, signal.SIGTERM)
        except OSError:
            pass
