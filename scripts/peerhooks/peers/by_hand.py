"""peers.py by hand: the same facts as the hook, for a person or a script, over a chosen scope.

No flag lists live sessions under this checkout's parent folder (sibling checkouts and worktrees of
one project usually sit side by side there); --here is this checkout with its last finished session;
--last only that session; --all every live session on the machine; --json the same as JSON.
What is printed goes to a terminal, which acts on escape sequences: every text in it, the JSON's
strings too, has passed through peerhooks.text.peertext.
"""
import json
import os

from ..claude import activity, history, identity, registry
from ..claude.home import claude_home
from ..git import gitrepo
from ..text import peertext
from . import report, stats

MANUAL_BUDGET = 100000  # a person at a terminal can read more than a model's context should get


def _scope(options, cwd, top, live):
    """(checkouts to describe as {toplevel: [live sessions]}, whether to add the ended session)."""
    if options.get("all"):
        return activity.group_by_checkout(live), False
    if options.get("here") or options.get("last"):
        here = [s for s in live if gitrepo.toplevel(s.cwd) == top] if top else []
        return {top: here}, True
    parent = os.path.dirname(top or os.path.realpath(cwd))
    return activity.group_by_checkout(activity.sessions_under(live, parent)), False


def collect(options, environ, now_ms):
    home, cwd = claude_home(environ), os.getcwd()
    self_id = environ.get("CLAUDE_CODE_SESSION_ID") or None  # set when run from inside a session
    top = gitrepo.toplevel(cwd)
    sessions = registry.read_sessions(home)
    ancestors = registry.ancestor_pids()
    self_ids = identity.own_ids(home, sessions, self_id, ancestors)
    all_live = registry.alive(sessions)  # one question to the platform for every pid
    live = [s for s in all_live if s.session_id not in self_ids]
    groups, with_ended = _scope(options, cwd, top, live)
    summaries = history.load(home, now_ms)
    checkouts = []
    for checkout_top in sorted(groups, key=lambda t: (t is None, t or "")):
        members = [] if options.get("last") else groups[checkout_top]
        checkouts.append(activity.describe_checkout(
            home, checkout_top, members, self_ids, now_ms, summaries, with_ended=with_ended,
            all_live=all_live))
    return checkouts


def as_text(checkouts, now_ms, messageable=frozenset()):
    parts = []
    for checkout in checkouts:
        body = report.hook_report(checkout.ended, checkout.handoff, checkout.peers, checkout.top,
                                  now_ms, budget=MANUAL_BUDGET, messageable=messageable,
                                  unread=checkout.unread)
        if body:
            parts.append("== %s ==\n%s" % (peertext.clean(checkout.top) or "(not in a git checkout)", body))
    # Each field was cleaned where it was put in; the whole is cleaned again line by line, for the
    # terminal: no escape sequence of anyone's may reach it.
    return peertext.block("\n\n".join(parts)) if parts else "No live sessions in scope, and no finished session here."


def _plain(value):
    """Records (NamedTuples) as JSON objects, recursively; every string cleaned (peertext.clean): JSON
    escapes C0 controls, but not C1, DEL or bidi controls, and a script may print what it reads."""
    if hasattr(value, "_asdict"):
        return {key: _plain(item) for key, item in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, str):
        return peertext.clean(value)
    return value


def as_json(checkouts):
    """One JSON object in every mode (as --stats --json gives), its checkouts under a key."""
    return json.dumps({"checkouts": [_plain(c) for c in checkouts]}, indent=2, ensure_ascii=False)


def run(options, environ, now_ms):
    """The text (or JSON) peers.py prints by hand for the chosen mode."""
    if options.get("stats"):
        return stats.run(claude_home(environ), now_ms, options["days"], as_json=bool(options.get("json")))
    checkouts = collect(options, environ, now_ms)
    messageable = frozenset(s.session_id for s in registry.read_sessions(claude_home(environ)) if s.can_message)
    return as_json(checkouts) if options.get("json") else as_text(checkouts, now_ms, messageable)


