"""cold_start.py: on `startup` and `clear`, the orientation sections that changed since this
agent's last start, and nothing when none did; on other sources (`resume`, `compact`, `fork`:
contexts that already hold the conversation) one reminder line and no state change. `--full
[folder]` prints everything by hand and records nothing; `--help` says so.

A start whose key's last comparison left nothing pending, and none of whose inputs changed since,
is answered from stats alone (cold_start.quiet); the comparison (cold_start.compare: the sections,
the state file and the readers behind them) loads only when it cannot.
"""
from .. import hookio
from ..claude.formats import ENTRYPOINT_VARIABLE, PRINT_ENTRYPOINT, SDK_ENTRYPOINTS
from ..startup import oscalls
from . import quiet

FRESH_SOURCES = ("startup", "clear")  # the two sources that begin an empty context
KEY_VARIABLE = "LI_PLUS_AGENT_KEY"
# A run nobody watches (`claude -p`, the Agent SDKs) keeps what it was shown apart from the
# interactive sessions of its key: shown to a script, material is not seen by the person's next
# session. Its partition is the key's with this added.
UNATTENDED_PARTITION = "%s (print mode)"
FULL_FLAG = "--full"
HELP_FLAGS = ("--help", "-h")
USAGE = """\
    cold_start.py                       SessionStart hook: reads the payload on stdin; prints the
                                        orientation material that changed since this agent key last
                                        started here, and nothing when none did
    cold_start.py --full [folder]       the whole material of a workspace (this folder's by default),
                                        by hand; reads no payload, records nothing
    cold_start.py --host codex ...      as wired for Codex: its state under .codex/, its rule files
"""


class Args:
    __slots__ = ("host", "full", "folder", "help", "problem")

    def __init__(self, host, full, folder, problem, help=False):
        self.host, self.full, self.folder, self.problem, self.help = host, full, folder, problem, help


def parse_args(argv):
    """`[--host codex] [--full [folder]]`, by hand: argparse exits 2 on a usage error, which
    Claude Code reads as a refusal. Anything odd is warned about and the hook runs as Claude's."""
    words = list(argv)
    host, full, folder, asked = "claude", False, None, False
    while words:
        word = words.pop(0)
        if word.startswith("--host="):
            words.insert(0, word[len("--host="):])
            word = "--host"
        if word == "--host" and words and words[0] in quiet.HOST_FOLDERS:
            host = words.pop(0)
        elif word in HELP_FLAGS:
            asked = True
        elif word == FULL_FLAG:
            full = True
            if words and not words[0].startswith("--"):
                folder = words.pop(0)
        else:
            return Args("claude", False, None,
                        "ignored arguments %s (expected --host codex, --full, --help)" % " ".join(argv))
    return Args(host, full, folder, None, asked)


def reads_payload(argv):
    """By hand (`--full`, `--help`) stdin is a terminal and must not be waited on; the hook reads
    its payload."""
    return not any(flag in argv for flag in (FULL_FLAG,) + HELP_FLAGS)


def run(payload, argv, environ, now):
    args = parse_args(argv)
    problems = [args.problem] if args.problem else []
    if args.help:
        return hookio.Outcome(stdout=USAGE)
    if args.full:
        from . import compare  # seam: by hand, the comparison (the sections, the state file, their readers)

        return compare.by_hand(args.folder or oscalls.getcwd(), args.host, environ, now)
    source = payload.source
    if source is None:
        # no payload to speak of: silence rather than a guess in the context
        return hookio.Outcome(warnings=problems)
    if source not in FRESH_SOURCES:
        return hookio.Outcome(stdout=quiet.continues_line(source), warnings=problems)

    root, _ = quiet.workspace_root(payload.cwd, environ)
    if root is None:
        problems.append("no cwd in the payload and no CLAUDE_PROJECT_DIR; nothing to compare")
        return hookio.Outcome(warnings=problems)
    key = quiet.agent_key(environ.get(KEY_VARIABLE))
    if key.warning:
        problems.append(key.warning)
    partition = UNATTENDED_PARTITION % key.key if unattended(environ) else key.key
    path = quiet.state_path(root, args.host)
    if quiet.is_quiet(path, partition, int(now * 1000), payload.session_id):
        return hookio.Outcome(warnings=problems)  # nothing read has changed: nothing to say
    from . import compare  # seam: past the quiet path, the sections, the state file and their readers (~60 modules)

    return compare.session_start(payload.cwd, environ, payload.session_id, now, args.host, path, partition,
                                 problems)


def unattended(environ):
    """A `claude -p` or Agent SDK session, by the entrypoint its client sets in the hook's
    environment (the registry entry may not be written yet at SessionStart)."""
    return environ.get(ENTRYPOINT_VARIABLE) in (PRINT_ENTRYPOINT,) + SDK_ENTRYPOINTS
