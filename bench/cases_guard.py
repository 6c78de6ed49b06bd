"""git_index_guard.py: a command without git, a read-only git command and a refused-shape git command,
each with 12 live peers on the large home (issue 32's targets: the line without git, the quiet line
before every shell command, <= 1.15x; the refused `git add -A` <= 2.5x), plus informational cases that read
transcripts or git, and lines that run git through a wrapper (issue 19): the file a wrapper runs costs
one bounded read, checked as `make commit` against the same recipe typed; the refused shape again on
the pasted home (issue 21: a pasted 16 KB prompt changes nothing); and a 300 KB line of 20,000
`git add` commands (issue 21: judged or put to the human within 1 s).
"""
import json
import os
import statistics
import subprocess
import sys
import time

import benchlib
from benchlib import Case, with_flags

SCRIPT = benchlib.script("git_index_guard.py")
NO_GIT_TARGET = 1.15  # issue 32: a quiet line, before every shell command: hardly more than start-up
REFUSED_TARGET = 2.5  # issue 32: the refused `git add -A` beside 12 live peers
PASTED_LIMIT = 1.10  # issue 21: a pasted 16 KB prompt changes no hook's time by more than 10%
HUGE_LINE_LIMIT_S = 1.0  # issue 21: the guard under 1 s whatever the command line
HUGE_LINE_COMMANDS = 20000  # `git add fNNNNN; ` 20,000 times: a 300 KB line
HUGE_LINE_RUNS = 3
REFUSED = "guard: git add -A, 12 live peers (refused)"
MADE = "guard: make commit, 12 live peers (refused)"
TYPED = "guard: the make commit recipe typed, 12 live peers (refused)"
REFUSED_PASTED = "guard: git add -A, 12 live peers, 16 KB prompts pasted"
# issue 19: following `make commit` costs its Makefile's one bounded read and parse over the recipe typed
# (~1.8 ms here: the follower, the makefile module, the read). In CPU time, steadier than wall time on
# a machine busy with other work: 1.03 at a load of 2.6 on 2 cores, 1.09 at 6 (wall time 1.12-1.18).
MAKEFILE_READ_LIMIT = 1.15
RECIPE = "git add -A && git commit -m save"
MAKEFILE = ".PHONY: commit test\ncommit:\n\t@%s\ntest:\n\t@pytest -q\n" % RECIPE
PACKAGE_JSON = '{"name": "bench", "scripts": {"test": "pytest -q", "commit": "%s"}}\n' % RECIPE


def _payload(home, command):
    return (json.dumps({"session_id": home.session_id, "cwd": home.repo, "hook_event_name": "PreToolUse",
                        "tool_name": "Bash", "tool_input": {"command": command, "description": "x"},
                        "tool_use_id": "toolu_bench"}) + "\n").encode()


def _case(name, home, command, target):
    return Case(name, [sys.executable, SCRIPT], _payload(home, command), home.env, home.repo, target)


def _wrapper_files(repo):
    """The Makefile and package.json the wrapper cases run (untracked files of the bench checkout)."""
    for name, text in (("Makefile", MAKEFILE), ("package.json", PACKAGE_JSON)):
        with open(os.path.join(repo, name), "w", encoding="utf-8") as handle:
            handle.write(text)


def cases(homes):
    _wrapper_files(homes.large.repo)
    return [
        # No git and no word that may start a wrapper: decided on the raw bytes. (Before issue 19 this
        # line was `ls -la && npm test …`; `npm test` runs package.json's scripts, which may run git,
        # so that line is now a wrapper line, measured below.)
        _case("guard: command without git", homes.large, "ls -la && pytest -q 2>&1 | tail -20",
              NO_GIT_TARGET),
        # A wrapper line without git is judged in full (the guard's imports, one package.json read):
        # issue 19 sets it no target; 1.58x here, against 1.14x when npm was not followed.
        _case("guard: npm test without git, package.json read", homes.large, "ls -la && npm test 2>&1 | tail -20",
              None),
        _case(MADE, homes.large, "make commit", None),
        _case(TYPED, homes.large, RECIPE, None),
        _case(REFUSED, homes.large, "git add -A", REFUSED_TARGET),
        _case(REFUSED_PASTED, homes.pasted, "git add -A", None),
        # Issue 15 set it 1.5x; issue 32 sets it none (a read-only line is a quiet line too).
        _case("guard: git status, 12 live peers (allowed)", homes.large, "git status", None),
        _case("guard: git add src, 12 peers' 50 MB transcripts read", homes.large, "git add src", None),
        _case("guard: git commit -m x, 12 peers + index read", homes.large, "git commit -m x", None),
    ]


def ratio_checks(medians):
    checks = []
    made, typed = medians.get(MADE), medians.get(TYPED)
    if made and typed:
        checks.append(("guard: make commit / the same recipe typed (one Makefile read), CPU", made[1] / typed[1],
                       MAKEFILE_READ_LIMIT))
    if REFUSED in medians and REFUSED_PASTED in medians:
        checks.append(benchlib.pasted_check("guard", medians, REFUSED_PASTED, REFUSED, PASTED_LIMIT))
    return checks


def huge_line():
    return "; ".join("git add f%d" % index for index in range(HUGE_LINE_COMMANDS))


def extras(homes):
    case = with_flags(_case("huge", homes.large, huge_line(), None), ["-S"])
    times = []
    for _ in range(HUGE_LINE_RUNS):
        started = time.perf_counter()
        subprocess.run(case.argv, input=case.stdin, env=case.env, cwd=case.cwd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    seconds = statistics.median(times)
    ok = seconds <= HUGE_LINE_LIMIT_S
    return [("guard: a %d KB line of %d `git add`, 12 live peers: %.2f s (limit %.1f s) %s"
             % (len(case.stdin) // 1024, HUGE_LINE_COMMANDS, seconds, HUGE_LINE_LIMIT_S, "ok" if ok else "OVER"), ok)]
