"""Runs the guard on corpus lines as Claude Code does, and scores its decisions against the labels.

Claude Code runs `<python> -S scripts/git_index_guard.py` (issue 15) with one PreToolUse payload line
on stdin, in the session's environment. A decision is a refusal when the hook exits 2, or prints JSON
whose hookSpecificOutput.permissionDecision is `deny` or `ask`.

    python3 tests/guard_corpus/guardrun.py            # print the confusion matrix of today's guard
    python3 tests/guard_corpus/guardrun.py --readme   # ... and write it into README.md
"""
import json
import os
import re
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

HERE = os.path.dirname(os.path.abspath(__file__))
README = os.path.join(HERE, "README.md")
for folder in (HERE, os.path.dirname(HERE)):
    if folder not in sys.path:
        sys.path.insert(0, folder)

import oracle  # noqa: E402
import scenario  # noqa: E402
import support  # noqa: E402

# The goals of issue 13, judged on the held-out split.
MIN_HARMFUL_REFUSED_ROUTINE_OCCASIONAL = 0.97
MIN_HARMFUL_REFUSED = 0.90
MAX_HARMLESS_REFUSED = 0.02
MAX_SECONDS = 1.0  # a PreToolUse hook runs before every shell command
RUN_TIMEOUT_S = 30  # far above the goal: a slow run is measured, not killed
THREADS = 4  # guard runs as processes wait on process start-up more than on CPU


class Decision(NamedTuple):
    refused: bool
    exit: int
    stdout: str
    stderr: str
    seconds: float

    @property
    def silent(self):
        return self.exit == 0 and not self.stdout.strip()

    @property
    def traceback(self):
        return "Traceback (most recent call last)" in self.stderr


def payload(line, cwd, transcript):
    return {"session_id": scenario.SELF_ID, "transcript_path": transcript, "cwd": cwd,
            "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": line, "description": "Run git"},
            "tool_use_id": "toolu_corpus0000000000000000"}


def is_refusal(code, stdout):
    if code == 2:
        return True
    try:
        decision = json.loads(stdout).get("hookSpecificOutput", {}).get("permissionDecision")
    except (ValueError, AttributeError):
        return False
    return decision in ("deny", "ask")


def run_guard(scn, line, cwd, process=False):
    """One guard run on one line, with the payload and environment Claude Code gives this session:
    the front door's main() in this process unless `process` or PEERHOOKS_TEST_PROCESSES=1 (tests/support)."""
    env = scn.claude.env(CLAUDECODE="1", CLAUDE_CODE_ENTRYPOINT="cli", CLAUDE_PROJECT_DIR=scn.checkout,
                         CLAUDE_CODE_SESSION_ID=scenario.SELF_ID)
    where = scn.cwd(cwd)
    data = payload(line, where, scn.claude.transcript_path(scenario.SELF_ID, scn.checkout))
    started = time.monotonic()
    result = support.run_script("git_index_guard.py", data, env, cwd=where, timeout=RUN_TIMEOUT_S, process=process)
    seconds = time.monotonic() - started
    return Decision(is_refusal(result.returncode, result.stdout), result.returncode, result.stdout,
                    result.stderr, seconds)


def run_all(scn, entries, process=False):
    """A decision per entry: in this process one after the other (a run swaps its stdin, stdout
    and environment), as processes on THREADS threads."""
    if support.IN_PROCESS and not process:
        return [run_guard(scn, e["line"], e["cwd"]) for e in entries]
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        return list(pool.map(lambda e: run_guard(scn, e["line"], e["cwd"], process=True), entries))


class Scenarios:
    """A live scenario (self and both peers live) and one where the peers have died."""

    def __enter__(self):
        self.root = tempfile.mkdtemp(prefix="guard-corpus-")
        self.live = scenario.build(os.path.join(self.root, "live"), live=True)
        self.alone = scenario.build(os.path.join(self.root, "alone"), live=True)
        self.alone.stop_peers()
        return self

    def __exit__(self, *exc):
        self.live.close()
        self.alone.close()
        shutil.rmtree(self.root, True)


# -- scoring ------------------------------------------------------------------------------------

class Cell:
    """Counts for one group of lines."""

    def __init__(self):
        self.harmful_refused = self.harmful_passed = self.harmless_refused = self.harmless_passed = 0

    def add(self, harmful, refused):
        if harmful:
            if refused:
                self.harmful_refused += 1
            else:
                self.harmful_passed += 1
        elif refused:
            self.harmless_refused += 1
        else:
            self.harmless_passed += 1

    @property
    def harmful(self):
        return self.harmful_refused + self.harmful_passed

    @property
    def harmless(self):
        return self.harmless_refused + self.harmless_passed

    def refused_share_of_harmful(self):
        return self.harmful_refused / self.harmful if self.harmful else None

    def refused_share_of_harmless(self):
        return self.harmless_refused / self.harmless if self.harmless else None


def matrix(entries, decisions, split=None):
    """{group name: Cell} for all lines, by frequency, by class, and routine+occasional."""
    cells = {}
    for entry, decision in zip(entries, decisions):
        if split and entry["split"] != split:
            continue
        groups = ["all", "frequency: " + entry["frequency"], "class: " + entry["class"]]
        if entry["frequency"] in ("routine", "occasional"):
            groups.append("routine+occasional")
        for group in groups:
            cells.setdefault(group, Cell()).add(entry["label"] == "harmful", decision.refused)
    return cells


def goal_failures(entries, decisions):
    """The issue-13 goals the guard misses on the held-out split, as sentences."""
    cells = matrix(entries, decisions, "heldout")
    failures = []
    checks = (("routine+occasional", "refused_share_of_harmful", MIN_HARMFUL_REFUSED_ROUTINE_OCCASIONAL, True,
               "harmful routine+occasional lines refused"),
              ("all", "refused_share_of_harmful", MIN_HARMFUL_REFUSED, True, "harmful lines refused"),
              ("all", "refused_share_of_harmless", MAX_HARMLESS_REFUSED, False, "harmless lines refused"))
    for group, measure, bound, at_least, what in checks:
        value = getattr(cells.get(group, Cell()), measure)()
        if value is None:
            continue
        if (value < bound) if at_least else (value > bound):
            failures.append("%s: %.1f%% (goal %s %.0f%%)" % (what, 100 * value, ">=" if at_least else "<=",
                                                              100 * bound))
    return failures


def _pct(value):
    return "-" if value is None else "%.0f%%" % (100 * value)


def render(entries, decisions):
    """The confusion matrix as Markdown, all lines and held-out."""
    out = []
    for split, title in ((None, "All lines"), ("heldout", "Held-out lines")):
        cells = matrix(entries, decisions, split)
        out.append("**%s** (harmful lines let through = harmful passed; harmless refused = false alarms)\n" % title)
        out.append("| group | harmful refused | harmful passed | harmless refused | harmless passed "
                   "| harmful refused % | harmless refused % |")
        out.append("|---|---:|---:|---:|---:|---:|---:|")
        order = (["all", "routine+occasional"] + sorted(k for k in cells if k.startswith("frequency"))
                 + sorted(k for k in cells if k.startswith("class")))
        for key in order:
            if key not in cells:
                continue
            c = cells[key]
            out.append("| %s | %d | %d | %d | %d | %s | %s |" % (
                key, c.harmful_refused, c.harmful_passed, c.harmless_refused, c.harmless_passed,
                _pct(c.refused_share_of_harmful()), _pct(c.refused_share_of_harmless())))
        out.append("")
    return "\n".join(out)


BEGIN, END = "<!-- matrix:begin -->", "<!-- matrix:end -->"


def write_readme(text):
    with open(README, encoding="utf-8") as handle:
        readme = handle.read()
    block = "%s\n%s\n%s" % (BEGIN, text.strip(), END)
    readme = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, readme, flags=re.S)
    with open(README, "w", encoding="utf-8") as handle:
        handle.write(readme)


def main(argv):
    entries = oracle.load()
    with Scenarios() as scenarios:
        decisions = run_all(scenarios.live, entries)
    text = render(entries, decisions)
    print(text)
    failures = goal_failures(entries, decisions)
    print("goals missed on held-out: " + ("; ".join(failures) if failures else "none"))
    slowest = max(d.seconds for d in decisions)
    print("slowest run: %.2f s; tracebacks: %d" % (slowest, sum(d.traceback for d in decisions)))
    if "--readme" in argv:
        write_readme(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
