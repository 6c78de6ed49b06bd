#!/usr/bin/env python3
"""Benchmark every hook against bare interpreter start-up, on a small and a large Claude home.

    python3 bench/run.py [--rounds N] [--only TEXT] [--no-site]

Each `bench/cases_<topic>.py` contributes `cases(homes) -> [benchlib.Case]`, and optionally
`ratio_checks(medians) -> [(label, ratio, limit)]` for comparisons between its cases and
`extras(homes) -> [str]` for one-off measurements. Every case runs once per round, interleaved
with `python3 -c pass`, so load on the machine hits every case alike; the table gives medians and
their ratio to that floor, with the issue's target beside each. Exit 1 when a case is over target.
"""
import compileall
import glob
import importlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import benchlib  # noqa: E402
import homes as bench_homes  # noqa: E402

DEFAULT_ROUNDS = 15


def parse(argv):
    rounds, only, no_site = DEFAULT_ROUNDS, None, False
    words = list(argv)
    while words:
        word = words.pop(0)
        if word == "--rounds" and words and words[0].isdigit():
            rounds = int(words.pop(0))
        elif word == "--only" and words:
            only = words.pop(0)
        elif word == "--no-site":
            no_site = True
        else:
            sys.exit("usage: bench/run.py [--rounds N] [--only TEXT] [--no-site]")
    return rounds, only, no_site


def without_site(case):
    """The case run with `python -S`: no site-packages, so no .pth file imports modules the hooks
    would otherwise get for free (what a clean interpreter costs)."""
    if case.argv and case.argv[0] == sys.executable:
        return case._replace(argv=[case.argv[0], "-S"] + case.argv[1:])
    return case


def main(argv=None):
    rounds, only, no_site = parse(sys.argv[1:] if argv is None else argv)
    # As install.py does: the hooks start from cached bytecode even under PYTHONDONTWRITEBYTECODE.
    compileall.compile_dir(os.path.join(os.path.dirname(HERE), "scripts"), quiet=1)
    homes = bench_homes.Homes()
    try:
        modules = [importlib.import_module(os.path.basename(p)[:-3])
                   for p in sorted(glob.glob(os.path.join(HERE, "cases_*.py")))]
        cases = [c for m in modules for c in m.cases(homes) if not only or only in c.name]
        if no_site:
            cases = [without_site(c) for c in cases]
        all_cases, medians = benchlib.measure(cases, rounds, no_site)
        table, failures = benchlib.report(all_cases, medians)
        print(table)
        for module in modules:
            for label, ratio, limit in getattr(module, "ratio_checks", lambda _: [])(medians):
                failures += ratio > limit
                print("%s: %.2f (limit %.2f) %s" % (label, ratio, limit, "ok" if ratio <= limit else "OVER"))
        # One-off measurements after the table: they may reset state the cases rely on.
        for module in modules:
            if hasattr(module, "extras") and (not only or only in module.__name__):
                for line in module.extras(homes):
                    print(line)
        print("rounds: %d, python: %s%s" % (rounds, sys.version.split()[0], ", -S (no site)" if no_site else ""))
        return 1 if failures else 0
    finally:
        homes.close()


if __name__ == "__main__":
    raise SystemExit(main())
