"""peers.py --hook: warm on both homes (target 3x on large, flat in size), and the first start."""
import json
import os
import sys
import time

from benchlib import Case

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts", "peers.py")
LARGE_TARGET = 3.0  # issue 2: <= 3x the interpreter floor, warm, on the large home
FIRST_START_LIMIT_S = 2.0  # issue 2: the very first start on the large home


def _payload(home):
    return (json.dumps({"session_id": home.session_id, "cwd": home.repo, "hook_event_name": "SessionStart",
                        "source": "startup"}) + "\n").encode()


def _case(name, home, target):
    return Case(name, [sys.executable, SCRIPT, "--hook"], _payload(home), home.env, home.repo, target)


def cases(homes):
    return [
        _case("peers.py --hook, small home (3 peers)", homes.small, None),
        _case("peers.py --hook, large home (12 peers, 50 MB each)", homes.large, LARGE_TARGET),
    ]


def _first_start_seconds(home):
    try:  # the first start is one without the history index; other hooks' state stays
        os.unlink(os.path.join(home.claude.home, "peerhooks", "history-index.json"))
    except OSError:
        pass
    case = _case("first", home, None)
    started = time.perf_counter()
    import subprocess
    subprocess.run(case.argv, input=case.stdin, env=case.env, cwd=case.cwd,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def extras(homes):
    first = _first_start_seconds(homes.large)
    return ["peers.py --hook first start on the large home (no history index): %.2f s (limit %.1f s) %s"
            % (first, FIRST_START_LIMIT_S, "ok" if first <= FIRST_START_LIMIT_S else "OVER")]
