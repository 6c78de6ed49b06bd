"""cold_start.py: on `startup` and `clear`, the orientation sections that changed since this
agent's last start; on other sources (`resume`, `compact`, `fork`: contexts that already hold the
conversation) one reminder line and no state change. `--full [folder]` prints everything by hand
and records nothing: the quiet line names that command, since a fresh context has not seen the
material that "nothing changed" refers to.

The state file is locked, read, the sections gathered, compared and recorded under one lock, so a
start never records a view older than one already recorded (issue 14: a start that gathered before
the lock could overwrite a newer version, and the key was shown the change twice). The key's
partition advances only after the text was delivered (Outcome.after_delivery), so output lost on
the way is shown again.
"""
import os
import re
import sys
from datetime import datetime, timezone
from typing import NamedTuple, Optional

from . import gitrepo, hookio, sections, state
from .home import claude_home

FRESH_SOURCES = ("startup", "clear")  # the two sources that begin an empty context
KEY_VARIABLE = "LI_PLUS_AGENT_KEY"
FULL_FLAG = "--full"
MANUAL_BUDGET = 100000  # by hand, a person or a Bash tool reads it; no hook preview to fit
_PLAIN_WORD = re.compile(r"[A-Za-z0-9_@%+=:,./\-]+\Z")


class Args(NamedTuple):
    host: str
    full: bool
    folder: Optional[str]  # the workspace named after --full
    problem: Optional[str]


def parse_args(argv):
    """`[--host codex] [--full [folder]]`, by hand: argparse exits 2 on a usage error, which
    Claude Code reads as a refusal. Anything odd is warned about and the hook runs as Claude's."""
    words = list(argv)
    host, full, folder = "claude", False, None
    while words:
        word = words.pop(0)
        if word.startswith("--host="):
            words.insert(0, word[len("--host="):])
            word = "--host"
        if word == "--host" and words and words[0] in state.HOST_FOLDERS:
            host = words.pop(0)
        elif word == FULL_FLAG:
            full = True
            if words and not words[0].startswith("--"):
                folder = words.pop(0)
        else:
            return Args("claude", False, None,
                        "ignored arguments %s (expected --host codex, --full)" % " ".join(argv))
    return Args(host, full, folder, None)


def shell_word(text):
    return text if _PLAIN_WORD.match(text) else "'" + text.replace("'", "'\"'\"'") + "'"


def full_command(root, host):
    """The command line that prints the whole material for this workspace."""
    script = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "cold_start.py")
    words = [sys.executable or "python3", "-S", script]
    if host != "claude":
        words += ["--host", host]
    words += [FULL_FLAG, root]
    return " ".join(shell_word(word) for word in words)


def quiet_line(key, root, host):
    return sections.NO_NEW_MATERIAL % (key, full_command(root, host))


def plan(found, baseline, quiet, old_texts=None, budget=sections.BUDGET_CHARS):
    partition = baseline.partition
    return sections.plan_emission(
        found,
        partition.sections if partition else {},
        partition.last_emit_at if partition else None,
        baseline.full_reason,
        quiet,
        old_texts,
        budget,
    )


def resolve_workspace(folder, environ, session_id, now):
    """(Workspace, problem): the root is CLAUDE_PROJECT_DIR, else the git toplevel of the
    folder, else the folder; None when there is nothing to compare."""
    project_dir = environ.get("CLAUDE_PROJECT_DIR") or None
    folder = folder if folder and os.path.isdir(folder) else None
    toplevel = gitrepo.toplevel(project_dir or folder)
    root = state.workspace_root(project_dir, folder, toplevel)
    if root is None:
        return None
    return sections.Workspace(os.path.realpath(root), toplevel, claude_home(environ),
                              int(now * 1000), session_id)


def run(payload, argv, environ, now):
    args = parse_args(argv)
    problems = [args.problem] if args.problem else []
    if args.full:
        return by_hand(args, environ, now)
    source = payload.source
    if source is None:
        # no payload to speak of: silence rather than a guess in the context
        return hookio.Outcome(warnings=problems)
    if source not in FRESH_SOURCES:
        return hookio.Outcome(stdout=sections.continues_line(source), warnings=problems)

    workspace = resolve_workspace(payload.cwd, environ, payload.session_id, now)
    if workspace is None:
        problems.append("no cwd in the payload and no CLAUDE_PROJECT_DIR; nothing to compare")
        return hookio.Outcome(warnings=problems)
    key = state.agent_key(environ.get(KEY_VARIABLE))
    if key.warning:
        problems.append(key.warning)
    start = datetime.fromtimestamp(int(now), timezone.utc)
    return fresh_start(state.state_path(workspace.root, args.host), key.key,
                       lambda: sections.gather(workspace), start, problems,
                       quiet_line(key.key, workspace.root, args.host), workspace.home)


def by_hand(args, environ, now):
    """`--full [folder]`: every section of the workspace, as a fresh key would get it; nothing
    is read from or written to the state file."""
    workspace = resolve_workspace(args.folder or os.getcwd(), environ, None, now)
    if workspace is None:
        return hookio.Outcome(hookio.EXIT_USAGE, stderr="cold_start.py: no such folder\n")
    gathered = sections.gather(workspace)
    reason = "asked for with %s; nothing recorded" % FULL_FLAG
    emission = plan(gathered.sections, state.Baseline(None, reason), "", budget=MANUAL_BUDGET)
    return hookio.Outcome(stdout=emission.text, warnings=gathered.problems)


def _old_texts(home, found, baseline):
    """The kept copies of the rule files that changed for this key, for their diffs."""
    old = baseline.partition.sections if baseline.partition else {}
    wanted = [old[s.key] for s in found
              if sections.is_rule(s) and s.key in old and old[s.key] != sections.fingerprint_of(s)]
    if not wanted:
        return {}
    from . import rulecopies

    return rulecopies.load(home, wanted)


def fresh_start(path, key, gather, now, problems=(), quiet=None, home=None):
    """Lock, read the key's partition, gather the sections and compare; the Outcome prints the
    changed sections and, once they are delivered, records them and releases the lock.
    gather: () -> sections.Gathered, called under the lock."""
    problems = list(problems)
    quiet = quiet or sections.NO_NEW_MATERIAL % (key, FULL_FLAG)
    try:
        ledger = state.Ledger.open(path, now)
    except (OSError, state.StateError) as error:
        problems.append("state not recorded (%s); this material will be shown again" % error)
        gathered = gather()
        baseline = state.read_baseline(path, key)
        found = gathered.sections
        return hookio.Outcome(stdout=plan(found, baseline, quiet,
                                          _old_texts(home, found, baseline) if home else {}).text,
                              warnings=problems + list(gathered.problems))
    try:
        baseline = ledger.baseline(key)
        gathered = gather()
        found = gathered.sections
        problems.extend(gathered.problems)
        emission = plan(found, baseline, quiet, _old_texts(home, found, baseline) if home else {})
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
        shown = set(emission.printed)
        rules = [s for s in found if sections.is_rule(s) and s.key in shown]
        if rules and home:
            from . import rulecopies

            rulecopies.keep(home, rules, now.timestamp())
        return ()

    return hookio.Outcome(stdout=emission.text, warnings=problems, after_delivery=record)
