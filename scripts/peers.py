#!/usr/bin/env python3
"""Who else is live in this checkout, what each is working on, and what the last session did.

Sessions sharing a checkout behave like strangers: of 297 sessions in 30 days (a median of 8 alive
at once, up to 10 in one checkout) only 7 ever messaged another. This prints, at SessionStart
(`--hook`) or by hand, each live peer's intent (its substantive prompts), the files it is editing
(its transcript tail), and the last finished session in this checkout.

    peers.py --hook            SessionStart hook: reads the payload on stdin
    peers.py                   live sessions under this checkout's parent folder
    peers.py --here            this checkout only (with its last finished session)
    peers.py --last            the last finished session in this checkout
    peers.py --all             every live session on this machine
    peers.py --json            any of the above as JSON
    peers.py --stats [--days N] [--json]   do sessions see each other and talk?
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

try:
    from peerhooks import hookio
except Exception as error:  # noqa: BLE001 - a broken install must not break the session (exit 0)
    sys.stderr.write("peerhooks: cannot load its library: %s\n" % " ".join(str(error).split()))
    raise SystemExit(0)

USAGE = __doc__.split("\n\n", 2)[2].rstrip() + "\n"
FLAGS = ("--hook", "--here", "--last", "--all", "--json", "--stats", "--days", "--help", "-h")
DEFAULT_STATS_DAYS = 30


class UsageError(Exception):
    pass


def parse_args(argv):
    """Flags by hand, not argparse: a usage error must never exit 2 in a hook."""
    options = {"days": DEFAULT_STATS_DAYS}
    words = list(argv)
    while words:
        word = words.pop(0)
        if word == "--days":
            if not words or not words[0].isdigit() or int(words[0]) < 1:
                raise UsageError("--days takes a whole number of days, 1 or more")
            options["days"] = int(words.pop(0))
        elif word.startswith("--days="):
            value = word.split("=", 1)[1]
            if not value.isdigit() or int(value) < 1:
                raise UsageError("--days takes a whole number of days, 1 or more")
            options["days"] = int(value)
        elif word in FLAGS:
            options[word.lstrip("-")] = True
        else:
            raise UsageError("unknown option: %s" % word)
    modes = [m for m in ("hook", "here", "last", "all", "stats") if options.get(m)]
    if len(modes) > 1:
        raise UsageError("choose one of --hook, --here, --last, --all, --stats")
    return options


def run_hook():
    from peerhooks import activity, gitrepo, history, names, registry, report
    from peerhooks.home import claude_home

    payload = hookio.read_payload()
    cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
    cwd = cwd or os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    self_id = payload.get("session_id") if isinstance(payload.get("session_id"), str) else None
    home, now_ms = claude_home(), int(time.time() * 1000)
    top = gitrepo.toplevel(cwd)
    sessions = registry.read_sessions(home)
    ancestors = registry.ancestor_pids()
    live = registry.peers_in_checkout(home, top, self_id, ancestors, sessions)
    names.remember(home, sessions, now_ms)
    summaries = history.load(home, now_ms)
    checkout = activity.describe_checkout(
        home, top, live, activity.own_ids(sessions, self_id, ancestors), now_ms, summaries)
    own = registry.own_entry(sessions, self_id, ancestors)
    hookio.emit(report.hook_report(checkout.ended, checkout.handoff, checkout.peers, top, now_ms,
                                   messageable=frozenset(s.session_id for s in live if s.can_message),
                                   can_send=own is None or own.can_message))
    return hookio.EXIT_OK


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    try:
        options = parse_args(argv)
    except UsageError as error:
        hookio.warn("peers.py: %s" % error)
        sys.stderr.write(USAGE)
        return 1
    if options.get("help") or options.get("h"):
        hookio.emit(USAGE)
        return 0
    if options.get("hook"):
        return hookio.run_hook("peers", run_hook)
    from peerhooks import listing

    return listing.run(options)


if __name__ == "__main__":
    raise SystemExit(main())
