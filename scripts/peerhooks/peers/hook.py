"""peers.py: who else is live in this checkout, what each is working on, what the last session did.

One entry, run(payload, argv, environ, now): `--hook` is the SessionStart hook (the payload names
the session and its folder); every other mode is by hand and reads no payload.
"""
from .. import hookio
from ..claude import activity, history, names, registry
from ..claude.formats import is_safe_session_id
from ..claude.home import claude_home, state_dir
from ..claude.identity import own_ids
from ..git import gitrepo
from . import report, roster

USAGE = """\
    peers.py --hook            SessionStart hook: reads the payload on stdin
    peers.py                   live sessions under this checkout's parent folder
    peers.py --here            this checkout only (with its last finished session)
    peers.py --last            the last finished session in this checkout
    peers.py --all             every live session on this machine
    peers.py --json            any of the above as JSON
    peers.py --stats [--days N] [--json]   do sessions see each other and talk?
"""
FLAGS = ("--hook", "--here", "--last", "--all", "--json", "--stats", "--days", "--help", "-h")
DEFAULT_STATS_DAYS = 30


class UsageError(Exception):
    pass


def reads_payload(argv):
    """Only the hook mode has a payload; by hand stdin is a terminal and must not be waited on."""
    return "--hook" in argv


def parse_args(argv):
    """Flags by hand, not argparse: a usage error must never exit 2 in a hook."""
    options = {"days": DEFAULT_STATS_DAYS}
    given = set()
    words = list(argv)
    while words:
        word = words.pop(0)
        if word == "--days" or word.startswith("--days="):
            value = word.split("=", 1)[1] if "=" in word else (words.pop(0) if words else "")
            if not value.isdigit() or int(value) < 1:
                raise UsageError("--days takes a whole number of days, 1 or more")
            options["days"] = int(value)
            given.add("days")
        elif word in FLAGS:
            options[word.lstrip("-")] = True
        else:
            raise UsageError("unknown option: %s" % word)
    modes = [m for m in ("hook", "here", "last", "all", "stats") if options.get(m)]
    if len(modes) > 1:
        raise UsageError("choose one of --hook, --here, --last, --all, --stats")
    if "days" in given and not options.get("stats"):
        raise UsageError("--days only applies to --stats")
    return options


def run(payload, argv, environ, now):
    try:
        options = parse_args(argv)
    except UsageError as error:
        return hookio.Outcome(hookio.EXIT_USAGE, stderr="peers.py: %s\n%s" % (error, USAGE))
    if options.get("help") or options.get("h"):
        return hookio.Outcome(stdout=USAGE)
    now_ms = int(now * 1000)
    if options.get("hook"):
        return hookio.Outcome(stdout=session_start_report(payload, environ, now_ms))
    from . import by_hand  # seam: the by-hand modes (and --stats behind them) load only by hand

    return hookio.Outcome(stdout=by_hand.run(options, environ, now_ms))


def session_start_report(payload, environ, now_ms):
    """The SessionStart text: the last finished session here and each live peer."""
    home = claude_home(environ)
    top = gitrepo.toplevel(payload.working_folder(environ))
    sessions = registry.read_sessions(home)
    chain = registry.ancestor_chain()
    ancestors = frozenset(chain)
    live = registry.peers_in_checkout(home, top, payload.session_id, ancestors, sessions)
    all_live = registry.alive(sessions)  # one question to the platform for every pid
    names.remember(home, sessions, now_ms, {s.session_id for s in all_live})
    own = registry.own_entry(sessions, payload.session_id, ancestors)
    if own is None and payload.session_id:  # started before its registry entry was written
        starts = registry.process_starts(chain)
        names.remember_unregistered(home, payload.session_id, names.possible_processes(
            [(pid, starts.get(pid)) for pid in chain], {s.pid for s in sessions}), now_ms)
    summaries = history.load(home, now_ms)
    _remember_roster(home, payload.session_id, live)
    checkout = activity.describe_checkout(
        home, top, live, own_ids(home, sessions, payload.session_id, ancestors), now_ms, summaries,
        all_live=all_live)
    return report.hook_report(checkout.ended, checkout.handoff, checkout.peers, top, now_ms,
                              messageable=frozenset(s.session_id for s in live if s.can_message),
                              can_send=registry.can_send(own, environ), unread=checkout.unread)


def _remember_roster(home, session_id, live):
    """What this start tells the session about its peers, so that memory_delta.py later tells only
    who joined or ended since (best effort: without it, the first prompt takes peers that started
    after this session for joined)."""
    if not is_safe_session_id(session_id):
        return
    try:
        roster.write(roster.path_of(state_dir(home), session_id),
                     roster.Roster(tuple(roster.registry_names(home)), roster.heard_of(live)), unless_same=True)
    except OSError:
        pass
