"""cold_start.py: on `startup` and `clear`, the orientation sections that changed since this
agent's last start; on other sources one reminder line and no state change.

The state file is read, compared and written under one lock, and the key's partition advances only
after the text was delivered (Outcome.after_delivery), so output lost on the way is shown again.
"""
import os
from datetime import datetime, timezone

from . import gitrepo, hookio, sections, state
from .home import claude_home, codex_home

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


def run(payload, argv, environ, now):
    host, problem = parse_host(argv)
    problems = [problem] if problem else []
    source = payload.source
    if source is None:
        # no payload to speak of: silence rather than a guess in the context
        return hookio.Outcome(warnings=problems)
    if source not in FRESH_SOURCES:
        return hookio.Outcome(stdout=sections.continues_line(source), warnings=problems)

    project_dir = environ.get("CLAUDE_PROJECT_DIR") or None
    cwd = payload.cwd if payload.cwd and os.path.isdir(payload.cwd) else None
    toplevel = gitrepo.toplevel(project_dir or cwd)
    root = state.workspace_root(project_dir, cwd, toplevel)
    if root is None:
        problems.append("no cwd in the payload and no CLAUDE_PROJECT_DIR; nothing to compare")
        return hookio.Outcome(warnings=problems)
    key = state.agent_key(environ.get(KEY_VARIABLE))
    if key.warning:
        problems.append(key.warning)

    start = datetime.fromtimestamp(int(now), timezone.utc)
    workspace = sections.Workspace(os.path.realpath(root), toplevel, claude_home(environ),
                                   int(now * 1000), payload.session_id,
                                   codex_home(environ) if host == "codex" else None)
    gathered = sections.gather(workspace)
    problems.extend(gathered.problems)
    return fresh_start(state.state_path(workspace.root, host), key.key, gathered.sections, start,
                       problems)


def fresh_start(path, key, found, now, problems=()):
    """Compare with the key's partition under the state lock; the Outcome prints the changed
    sections and, once they are delivered, records them and releases the lock."""
    problems = list(problems)
    try:
        ledger = state.Ledger.open(path, now)
    except (OSError, state.StateError) as error:
        problems.append("state not recorded (%s); this material will be shown again" % error)
        return hookio.Outcome(stdout=plan(found, state.read_baseline(path, key)).text,
                              warnings=problems)
    try:
        baseline = ledger.baseline(key)
        emission = plan(found, baseline)
    except BaseException:
        ledger.close()
        raise

    def record(delivered):
        with ledger:
            if not delivered:
                return ()
            old = baseline.partition.sections if baseline.partition else {}
            new = sections.fingerprints_to_record(old, found, emission.printed)
            if not state.needs_record(baseline.partition, new, now):
                return ()
            try:
                ledger.record(key, new)
            except (OSError, state.StateError) as error:
                return ("state not recorded (%s); this material will be shown again" % error,)
        return ()

    return hookio.Outcome(stdout=emission.text, warnings=problems, after_delivery=record)
