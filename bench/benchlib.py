"""Timing hooks as a ratio to bare interpreter start-up, measured in the same run.

Absolute milliseconds depend on the machine and its load; the ratio to `python3 -c pass`, timed
interleaved with every case (one round runs each case once), is what the targets are written in.
"""
import os
import random
import statistics
import subprocess
import sys
import time
from typing import Dict, List, NamedTuple, Optional


class Case(NamedTuple):
    name: str
    argv: List[str]
    stdin: bytes
    env: Dict[str, str]
    cwd: str
    target: Optional[float]  # the ceiling as a ratio to the floor; None = informational


def floor_case(no_site=False):
    flags = ["-S"] if no_site else []
    return Case("python3 -c pass (floor)", [sys.executable] + flags + ["-c", "pass"], b"",
                dict(os.environ), os.getcwd(), None)


def time_once(case):
    started = time.perf_counter()
    completed = subprocess.run(case.argv, input=case.stdin, env=case.env, cwd=case.cwd,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - started
    if completed.returncode not in (0, 2):
        raise RuntimeError("%s exited %d" % (case.name, completed.returncode))
    return elapsed


def measure(cases, rounds, no_site=False):
    """Median seconds per case (the floor listed first), interleaved round by round in a shuffled
    order: a case that always ran right after a heavy one would carry its cache misses."""
    all_cases = [floor_case(no_site)] + list(cases)
    for case in all_cases:  # one warm-up each: page cache, history index, .pyc files
        time_once(case)
    samples = {case.name: [] for case in all_cases}
    order = list(all_cases)
    shuffler = random.Random(20261130)  # fixed: two runs on one machine shuffle alike
    for _ in range(rounds):
        shuffler.shuffle(order)
        for case in order:
            samples[case.name].append(time_once(case))
    return all_cases, {name: statistics.median(values) for name, values in samples.items()}


def report(all_cases, medians):
    floor = medians[all_cases[0].name]
    lines = ["%-58s %9s %7s %7s  %s" % ("case", "median", "ratio", "target", "")]
    failures = 0
    for case in all_cases:
        ratio = medians[case.name] / floor
        verdict = ""
        if case.target is not None:
            ok = ratio <= case.target
            failures += 0 if ok else 1
            verdict = "ok" if ok else "OVER"
        lines.append("%-58s %7.1fms %6.2fx %7s  %s" % (
            case.name, medians[case.name] * 1000, ratio,
            "%.2fx" % case.target if case.target is not None else "-", verdict))
    return "\n".join(lines), failures
