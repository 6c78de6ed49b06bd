"""peers.py --hook: warm on both homes (issue 15: <= 2.5x the clean floor on large, flat in size), and
the first start.

The large home holds finished sessions in its checkout (the memory_delta cases' sessions, two days
old), so its report opens with a "Last session" block; the small home gets one finished session of
the same shape, so that both reports have the same parts and their ratio compares sizes only.
"""
import json
import os
import sys
import time

from benchlib import Case, with_flags
from fixtures import claudehome

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts", "peers.py")
LARGE_TARGET = 2.5  # issue 15: warm, on the large home
FLAT_LIMIT = 1.2  # issue 2: large home / small home, i.e. flat in the size of history and transcripts
SMALL = "peers.py --hook, small home (3 peers)"
LARGE = "peers.py --hook, large home (12 peers, 50 MB each)"
FIRST_START_LIMIT_S = 2.0  # issue 2: the very first start on the large home
FINISHED_ID = "finished-0000-0000-0000-000000000000"
FINISHED_AGO_MS = 48 * 3600 * 1000  # as old as the memory_delta cases' oldest session


def _payload(home):
    return (json.dumps({"session_id": home.session_id, "cwd": home.repo, "hook_event_name": "SessionStart",
                        "source": "startup"}) + "\n").encode()


def _case(name, home, target):
    return Case(name, [sys.executable, SCRIPT, "--hook"], _payload(home), home.env, home.repo, target)


def _with_a_finished_session(home):
    """One finished session in the home's checkout, its transcript written afresh."""
    path = home.claude.transcript_path(FINISHED_ID, home.repo)
    if os.path.exists(path):
        os.unlink(path)
    home.claude.append_records(FINISHED_ID, home.repo, [claudehome.user_prompt(
        FINISHED_ID, home.repo, "start the migration", claudehome.now_ms() - FINISHED_AGO_MS)])


def cases(homes):
    _with_a_finished_session(homes.small)
    return [
        _case(SMALL, homes.small, None),
        _case(LARGE, homes.large, LARGE_TARGET),
    ]


def _first_start_seconds(home):
    for index in ("history-index.json", "edit-index.json"):  # a first start has neither index;
        try:  # other hooks' state stays
            os.unlink(os.path.join(home.claude.home, "peerhooks", index))
        except OSError:
            pass
    case = with_flags(_case("first", home, None), ["-S"])
    started = time.perf_counter()
    import subprocess
    subprocess.run(case.argv, input=case.stdin, env=case.env, cwd=case.cwd,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def ratio_checks(medians):
    """Comparisons between cases of this run (over limit counts as a failure), in wall time."""
    if SMALL not in medians or LARGE not in medians:
        return []
    ratio = medians[LARGE][0] / medians[SMALL][0]
    return [("peers.py --hook large home / small home", ratio, FLAT_LIMIT)]


def extras(homes):
    first = _first_start_seconds(homes.large)
    return ["peers.py --hook first start on the large home (no history or edit index): %.2f s (limit %.1f s) %s"
            % (first, FIRST_START_LIMIT_S, "ok" if first <= FIRST_START_LIMIT_S else "OVER")]
