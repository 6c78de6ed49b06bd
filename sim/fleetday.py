#!/usr/bin/env python3
"""A fleet's working day, simulated from a seed, measured by what happened to the work.

    python3 sim/fleetday.py --seed 1                      # the full day, all three runs
    python3 sim/fleetday.py --seed 3 --quick --runs no    # 4 sessions, ~60 steps
    python3 sim/fleetday.py --seed 1 --details --json out.json

Nine sessions (four with --quick) over one checkout and a linked worktree: real processes registered
as Claude Code registers them, transcripts written as it writes them, the hooks driven as it drives
them, every command run for real. The ledger (ledger.py) says where each change ended, from git and
the file system alone. Runs: `no` (asks answered No), `yes` (asks answered Yes), `without` (no hooks).
Seeds 1-5 are for tuning; 101-105 are held out (docs/testing.md).

A dev tool, standard library only; nothing in scripts/ imports it.
"""
import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
for folder in (HERE, REPO):
    if folder not in sys.path:
        sys.path.insert(0, folder)

import report  # noqa: E402
from day import MODES, run_day  # noqa: E402
from script import FULL, QUICK, plan_day  # noqa: E402


def parse(argv):
    parser = argparse.ArgumentParser(description="Simulate a fleet's working day and measure what happened to the work.")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--quick", action="store_true", help="4 sessions, ~60 steps")
    parser.add_argument("--runs", default=",".join(MODES), help="comma-separated: no, yes, without")
    parser.add_argument("--details", action="store_true", help="list the commands behind the numbers")
    parser.add_argument("--json", help="also write every run's numbers to this file")
    args = parser.parse_args(argv)
    args.runs = [r.strip() for r in args.runs.split(",") if r.strip()]
    unknown = [r for r in args.runs if r not in MODES]
    if unknown:
        parser.error("unknown run %s (runs: %s)" % (", ".join(unknown), ", ".join(MODES)))
    return args


def main(argv=None):
    args = parse(argv)
    day = plan_day(args.seed, QUICK if args.quick else FULL)
    results, walls = [], {}
    for mode in args.runs:
        started = time.monotonic()
        results.append(run_day(day, mode))
        walls[mode] = round(time.monotonic() - started, 1)
    print(report.table(results))
    print("\nwall time (s): %s" % ", ".join("%s %.1f" % item for item in walls.items()))
    if args.details:
        for result in results:
            print("\n" + report.details(result))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({r.mode: report.numbers(r) for r in results}, handle, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
