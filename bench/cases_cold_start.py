"""cold_start.py on a `startup` with nothing changed since this agent's last start (issue 15 set 2.5x the
clean interpreter floor on a typical workspace, issue 32 sets none: informational; issue 5: at most two
git processes).

The warm-up run that benchlib.measure does before timing is the seeding start (a full emit), so
every timed run compares against a partition and, nothing being new, prints nothing (issue 32).
"""
import json
import os
import sys

import benchlib
from benchlib import Case

SCRIPT = benchlib.script("cold_start.py")
PASTED_LIMIT = 1.10  # issue 21: a pasted 16 KB prompt changes no hook's time by more than 10%
LARGE = "cold_start.py startup, nothing changed, large home"
PASTED = "cold_start.py startup, nothing changed, large home, 16 KB prompts pasted"


def _case(name, home, target):
    payload = json.dumps({"session_id": home.session_id, "cwd": home.repo,
                          "hook_event_name": "SessionStart", "source": "startup"}) + "\n"
    env = {k: v for k, v in home.env.items() if k != "LI_PLUS_AGENT_KEY"}
    return Case(name, [sys.executable, SCRIPT], payload.encode(), env, home.repo, target)


def cases(homes):
    return [
        _case("cold_start.py startup, nothing changed, small home", homes.small, None),
        _case(LARGE, homes.large, None),
        _case(PASTED, homes.pasted, None),
    ]


def ratio_checks(medians):
    if LARGE not in medians or PASTED not in medians:
        return []
    return [benchlib.pasted_check("cold_start.py", medians, PASTED, LARGE, PASTED_LIMIT)]
