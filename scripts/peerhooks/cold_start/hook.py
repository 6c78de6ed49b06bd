"""cold_start.py: on `startup` and `clear`, the orientation sections that changed since this
agent's last start; on other sources (`resume`, `compact`, `fork`: contexts that already hold the
conversation) one reminder line and no state change. `--full [folder]` prints everything by hand
and records nothing: the quiet line names that command, since a fresh context has not seen the
material that "nothing changed" refers to.

The state file is locked, read, the sections gathered, compared and recorded under one lock, so a
start never records a view older than one already recorded (issue 14: a start that gathered before
the lock could overwrite a newer version, and the key was shown the change twice). The key's
partition advances only after the text was delivered (Outcome.after_delivery), so output lost on
the way is shown again. A start whose key's last comparison left nothing pending, and none of
whose inputs changed since, prints the quiet line from stats alone (quietstart); sections, state
and the readers behind them are imported only when it cannot.
"""
import os
import sys
import time

from . import quiet as cold_start_quiet
from ..git import gitrepo
from .. import hookio, platform

FRESH_SOURCES = ("startup", "clear")  # the two sources that begin an empty context
KEY_VARIABLE = "LI_PLUS_AGENT_KEY"
# A run nobody watches (`claude -p`, the Agent SDKs) keeps what it was shown apart from the
# interactive sessions of its key: shown to a script, material is not seen by the person's next
# session. Its partition is the key's with this added.
UNATTENDED_PARTITION = "%s (print mode)"
FULL_FLAG = "--full"
MANUAL_BUDGET = 100000  # by hand, a person or a Bash tool reads it; no hook preview to fit
SHELL_PLAIN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-")


class Args:
    __slots__ = ("host", "full", "folder", "problem")

    def __init__(self, host, full, folder, problem):
        self.host, self.full, self.folder, self.problem = host, full, folder, problem


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
        if word == "--host" and words and words[0] in cold_start_quiet.HOST_FOLDERS:
            host = words.pop(0)
        elif word == FULL_FLAG:
            full = True
            if words and not words[0].startswith("--"):
                folder = words.pop(0)
        else:
            return Args("claude", False, None,
                        "ignored arguments %s (expected --host codex, --full)" % " ".join(argv))
    return Args(host, full, folder, None)


def reads_payload(argv):
    """By hand (`--full`) stdin is a terminal and must not be waited on; the hook reads its payload."""
    return FULL_FLAG not in argv


def shell_word(text):
    if text and all(char in SHELL_PLAIN for char in text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"


def full_command(root, host):
    """The command line that prints the whole material for this workspace."""
    scripts_folder = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    script = os.path.join(scripts_folder, "cold_start.py")  # peerhooks/cold_start/hook.py -> scripts/
    words = [sys.executable or "python3", "-S", script]
    if host != "claude":
        words += ["--host", host]
    words += [FULL_FLAG, root]
    return " ".join(shell_word(word) for word in words)


def quiet_line(key, root, host):
    return cold_start_quiet.NO_NEW_MATERIAL % (key, full_command(root, host))


def plan(found, baseline, quiet, old_texts=None, budget=None, client_loaded=frozenset()):
    from . import sections as cold_start_sections

    partition = baseline.partition
    return cold_start_sections.plan_emission(
        found,
        partition.sections if partition else {},
        partition.last_emit_at if partition else None,
        baseline.full_reason,
        quiet,
        old_texts,
        budget or cold_start_sections.BUDGET_CHARS,
        client_loaded,
    )


def client_loaded(host):
    """The sections the client puts in every context itself (Claude Code: the memory index and the
    latest commits; Codex loads neither)."""
    if host != "claude":
        return frozenset()
    from .sections import CLIENT_LOADED

    return CLIENT_LOADED


def start_folder(folder, environ):
    """Where the session started: CLAUDE_PROJECT_DIR (fixed at start), else the folder given."""
    project_dir = hookio.project_dir(environ)
    folder = folder if folder and os.path.isdir(folder) else None
    return project_dir or folder


def workspace_root(folder, environ):
    """(root, git toplevel): the root is the checkout the session started in (a session started
    in a subfolder loads the checkout's rules, so its workspace is the checkout), else the folder
    it started in; root None when there is nothing to compare."""
    start = start_folder(folder, environ)
    toplevel = gitrepo.toplevel(start)
    root = toplevel or start
    return (platform.current().paths.realpath(root) if root else None), toplevel


def resolve_workspace(folder, environ, session_id, now, host):
    """The cold_start_gather.Workspace of a start; under Codex its rule files are Codex's own."""
    from . import gather as cold_start_gather
    from ..claude.home import claude_home, codex_home

    root, toplevel = workspace_root(folder, environ)
    if root is None:
        return None
    start = start_folder(folder, environ)
    return cold_start_gather.Workspace(root, toplevel, claude_home(environ), int(now * 1000), session_id,
                                       codex_home(environ) if host == "codex" else None,
                                       platform.current().paths.realpath(start) if start else root)


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
        return hookio.Outcome(stdout=cold_start_quiet.continues_line(source), warnings=problems)

    root, _ = workspace_root(payload.cwd, environ)
    if root is None:
        problems.append("no cwd in the payload and no CLAUDE_PROJECT_DIR; nothing to compare")
        return hookio.Outcome(warnings=problems)
    key = cold_start_quiet.agent_key(environ.get(KEY_VARIABLE))
    if key.warning:
        problems.append(key.warning)
    partition = UNATTENDED_PARTITION % key.key if unattended(environ) else key.key
    path = cold_start_quiet.state_path(root, args.host)
    quiet = quiet_line(partition, root, args.host)
    if cold_start_quiet.is_quiet(path, partition, int(now * 1000), payload.session_id):
        return hookio.Outcome(stdout=quiet + "\n", warnings=problems)  # nothing read has changed

    from datetime import datetime, timezone

    from . import gather as cold_start_gather

    workspace = resolve_workspace(payload.cwd, environ, payload.session_id, now, args.host)
    start = datetime.fromtimestamp(int(now), timezone.utc)
    return fresh_start(path, partition, lambda: cold_start_gather.gather(workspace), start, problems, quiet,
                       workspace.home, lambda: cold_start_gather.input_paths(workspace), client_loaded(args.host))


def unattended(environ):
    """A `claude -p` or Agent SDK session, by the entrypoint its client sets in the hook's
    environment (the registry entry may not be written yet at SessionStart)."""
    from ..claude.formats import ENTRYPOINT_VARIABLE, PRINT_ENTRYPOINT, SDK_ENTRYPOINTS

    return environ.get(ENTRYPOINT_VARIABLE) in (PRINT_ENTRYPOINT,) + SDK_ENTRYPOINTS


def by_hand(args, environ, now):
    """`--full [folder]`: every section of the workspace, as a fresh key would get it; nothing
    is read from or written to the state file."""
    from . import gather as cold_start_gather, state as cold_start_state

    workspace = resolve_workspace(args.folder or os.getcwd(), environ, None, now, args.host)
    if workspace is None:
        return hookio.Outcome(hookio.EXIT_USAGE, stderr="cold_start.py: no such folder\n")
    gathered = cold_start_gather.gather(workspace)
    reason = "asked for with %s; nothing recorded" % FULL_FLAG
    emission = plan(gathered.sections, cold_start_state.Baseline(None, reason), "", budget=MANUAL_BUDGET)
    return hookio.Outcome(stdout=emission.text, warnings=gathered.problems)


def _old_texts(home, found, baseline, loaded=frozenset()):
    """The kept copies of the rule files and client-loaded sections that changed for this key,
    for their diffs."""
    from . import sections as cold_start_sections

    old = baseline.partition.sections if baseline.partition else {}
    wanted = [old[s.key] for s in found
              if (cold_start_sections.is_rule(s) or s.key in loaded) and s.key in old
              and old[s.key] != cold_start_sections.fingerprint_of(s)]
    if not wanted:
        return {}
    from . import rules as cold_start_rules

    return cold_start_rules.load(home, wanted)


def fresh_start(path, key, gather, now, problems=(), quiet=None, home=None, inputs=None, loaded=frozenset()):
    """Lock, read the key's partition, gather the sections and compare; the Outcome prints the
    changed sections and, once they are delivered, records them and releases the lock.
    gather: () -> cold_start_gather.Gathered, called under the lock. inputs: () -> the paths the gathering
    depends on; when given and nothing is left pending, the quiet path is armed for the key.
    loaded: the sections the client put in the context itself (client_loaded)."""
    from . import sections as cold_start_sections, state as cold_start_state

    problems = list(problems)
    quiet = quiet or cold_start_quiet.NO_NEW_MATERIAL % (key, FULL_FLAG)
    try:
        ledger = cold_start_state.Ledger.open(path, now)
    except (OSError, cold_start_state.StateError) as error:
        problems.append("state not recorded (%s); this material will be shown again" % error)
        gathered = gather()
        baseline = cold_start_state.read_baseline(path, key)
        found = gathered.sections
        return hookio.Outcome(stdout=plan(found, baseline, quiet,
                                          _old_texts(home, found, baseline, loaded) if home else {},
                                          client_loaded=loaded).text,
                              warnings=problems + list(gathered.problems))
    try:
        baseline = ledger.baseline(key)
        since_ns = time.time_ns()
        taken = cold_start_quiet.tokens(inputs(), since_ns) if inputs else None
        gathered = gather()
        found = gathered.sections
        problems.extend(gathered.problems)
        emission = plan(found, baseline, quiet, _old_texts(home, found, baseline, loaded) if home else {},
                        client_loaded=loaded)
    except BaseException:
        ledger.close()
        raise

    def record(delivered):
        with ledger:
            if not delivered:
                return ()
            old = baseline.partition.sections if baseline.partition else {}
            new = cold_start_sections.fingerprints_to_record(old, found, emission.printed)
            stamp = baseline.partition.last_emit_at if baseline.partition else None
            if cold_start_state.needs_record(baseline.partition, new, now):
                try:
                    ledger.record(key, new)
                except (OSError, cold_start_state.StateError) as error:
                    return ("state not recorded (%s); this material will be shown again" % error,)
                stamp = cold_start_state.format_stamp(now)
            if inputs is not None:
                settled = taken is not None and not emission.left_out and not gathered.problems
                _arm_quiet_path(path, key, taken if settled else None, stamp, gathered, now,
                                since_ns)
        shown = set(emission.printed)
        kept = [s for s in found if cold_start_sections.is_rule(s) and s.key in shown]
        kept += [s._replace(digest=cold_start_sections.fingerprint_of(s)) for s in found
                 if s.key in loaded and s.key in shown and s.body]  # for the next start's diff
        if kept and home:
            from . import rules as cold_start_rules

            cold_start_rules.keep(home, kept, now.timestamp())
        return ()

    return hookio.Outcome(stdout=emission.text, warnings=problems, after_delivery=record)


def _arm_quiet_path(path, key, taken, stamp, gathered, now, since_ns):
    """Under the lock, after the state was written: remember what this comparison read, so the
    next start of the key can tell "nothing changed" from stats alone (None forgets it). Best
    effort: without it the next start compares in full."""
    from . import state as cold_start_state

    now_ms = int(now.timestamp() * 1000)
    line = None
    recorded = cold_start_state.parse_stamp(stamp)
    if taken is not None and recorded is not None:
        expiries = [int((recorded + cold_start_state.RESTAMP_AFTER).timestamp() * 1000)]  # a re-stamp is due
        if gathered.valid_until_ms is not None:
            expiries.append(gathered.valid_until_ms)
        line = cold_start_quiet.entry_line(key, min(expiries), cold_start_quiet.token(path), since_ns, taken)
    try:
        cold_start_quiet.remember(path, key, line, now_ms)
    except OSError:
        pass
