#!/usr/bin/env python3
"""SessionStart hook: show a new session what changed in this workspace since *this agent* last
started here, and nothing it has already seen.

The material is gathered as named sections (rules, memory index, handoff, recent commits, worktrees,
ended sessions, the user's own). On `startup` and `clear`, the sources that begin a fresh context,
each section's fingerprint is compared with this agent's partition of the state file and only the
changed ones are printed; `resume`, `compact` and unknown sources get one reminder line and never
touch the state. The partition key is `LI_PLUS_AGENT_KEY` (else `default`), so two agents sharing a
workspace each get every change instead of splitting the changes between them.

`--host codex` keeps the state under `.codex/state/` instead of `.claude/state/`, and watches the rule
files Codex loads (AGENTS.md, not CLAUDE.md). Codex turns a SessionStart hook's plain stdout into
context just as Claude Code does, so the output is the same.
"""
import os
import sys
from datetime import datetime, timezone

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

try:
    from peerhooks import gitrepo, hookio, sections, state
    from peerhooks.home import claude_home, codex_home
except Exception as error:  # noqa: BLE001 - a broken install must not break the session (exit 0)
    sys.stderr.write("peerhooks: cannot load its library: %s\n" % " ".join(str(error).split()))
    raise SystemExit(0)

NAME = "cold_start"
FRESH_SOURCES = ("startup", "clear")  # the two sources that begin an empty context
KEY_VARIABLE = "LI_PLUS_AGENT_KEY"


def parse_host(argv):
    """`--host codex` / `--host=codex` -> ("codex", None); anything odd -> ("claude", problem).
    Parsed by hand: argparse exits 2 on a usage error, which Claude Code reads as a refusal."""
    args = list(argv)
    if not args:
        return "claude", None
    if len(args) == 1 and args[0].startswith("--host="):
        args = ["--host", args[0][len("--host="):]]
    if len(args) == 2 and args[0] == "--host" and args[1] in state.HOST_FOLDERS:
        return args[1], None
    return "claude", "ignored arguments %s (expected --host codex)" % " ".join(argv)


def plan(found, baseline):
    partition = baseline.partition
    return sections.plan_emission(
        found,
        partition.sections if partition else {},
        partition.last_emit_at if partition else None,
        baseline.full_reason,
    )


def fresh_start(path, key, found, now, write=hookio.emit):
    """Compare with the key's partition, print, then record what was printed, all under the state
    lock. Returns a problem line when the state could not be used (the material is still shown),
    else None. If writing the output raises, nothing is recorded."""
    try:
        ledger = state.Ledger.open(path, now)
    except (OSError, state.StateError) as error:
        write(plan(found, state.read_baseline(path, key)).text)
        return "state not recorded (%s); this material will be shown again" % error
    with ledger:
        baseline = ledger.baseline(key)
        emission = plan(found, baseline)
        write(emission.text)
        old = baseline.partition.sections if baseline.partition else {}
        new = sections.fingerprints_to_record(old, found, emission.printed)
        if not state.needs_record(baseline.partition, new, now):
            return None
        try:
            ledger.record(key, new)
        except (OSError, state.StateError) as error:
            return "state not recorded (%s); this material will be shown again" % error
    return None


def payload_cwd(payload):
    cwd = payload.get("cwd")
    return cwd if isinstance(cwd, str) and os.path.isdir(cwd) else None


def run(argv, environ):
    payload = hookio.read_payload()
    host, problem = parse_host(argv)
    problems = [problem] if problem else []
    source = payload.get("source")
    if not isinstance(source, str) or not source:
        return _finish(problems)  # no payload to speak of: silence rather than a guess in the context
    if source not in FRESH_SOURCES:
        hookio.emit(sections.continues_line(source))
        return _finish(problems)

    cwd = payload_cwd(payload)
    project_dir = environ.get("CLAUDE_PROJECT_DIR") or None
    toplevel = gitrepo.toplevel(project_dir or cwd)
    root = state.workspace_root(project_dir, cwd, toplevel)
    if root is None:
        problems.append("no cwd in the payload and no CLAUDE_PROJECT_DIR; nothing to compare")
        return _finish(problems)
    key = state.agent_key(environ.get(KEY_VARIABLE))
    if key.warning:
        problems.append(key.warning)

    now = datetime.now(timezone.utc).replace(microsecond=0)
    session_id = payload.get("session_id")
    workspace = sections.Workspace(os.path.realpath(root), toplevel, claude_home(environ),
                                   int(now.timestamp() * 1000),
                                   session_id if isinstance(session_id, str) else None,
                                   codex_home(environ) if host == "codex" else None)
    gathered = sections.gather(workspace)
    problems.extend(gathered.problems)
    problem = fresh_start(state.state_path(workspace.root, host), key.key, gathered.sections, now)
    if problem:
        problems.append(problem)
    return _finish(problems)


def _finish(problems):
    if problems:
        hookio.warn("peerhooks %s: %s" % (NAME, "; ".join(problems)))
    return hookio.EXIT_OK


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    return hookio.run_hook(NAME, lambda: run(argv, os.environ))


if __name__ == "__main__":
    raise SystemExit(main())
