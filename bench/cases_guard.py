"""git_index_guard.py: a command without git, a read-only git command and a refused-shape git command,
each with 12 live peers on the large home (issue 15's targets), plus informational cases that read
transcripts or git."""
import json
import os
import sys

from benchlib import Case

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts",
                      "git_index_guard.py")
NO_GIT_TARGET = 1.10  # issue 15: runs before every shell command, so no more than start-up
READ_ONLY_TARGET = 1.5  # issue 15: the commonest git lines; the command alone says they cannot harm a peer
REFUSED_TARGET = 2.0  # issue 15: a refused-shape git command with 12 live peers


def _payload(home, command):
    return (json.dumps({"session_id": home.session_id, "cwd": home.repo, "hook_event_name": "PreToolUse",
                        "tool_name": "Bash", "tool_input": {"command": command, "description": "x"},
                        "tool_use_id": "toolu_bench"}) + "\n").encode()


def _case(name, home, command, target):
    return Case(name, [sys.executable, SCRIPT], _payload(home, command), home.env, home.repo, target)


def cases(homes):
    return [
        _case("guard: command without git", homes.large, "ls -la && npm test 2>&1 | tail -20",
              NO_GIT_TARGET),
        _case("guard: git add -A, 12 live peers (refused)", homes.large, "git add -A", REFUSED_TARGET),
        _case("guard: git status, 12 live peers (allowed)", homes.large, "git status", READ_ONLY_TARGET),
        _case("guard: git add src, 12 peers' 50 MB transcripts read", homes.large, "git add src", None),
        _case("guard: git commit -m x, 12 peers + index read", homes.large, "git commit -m x", None),
    ]
