"""The edit notice's decisions and words: which files a tool call is about to write hold a live
party's uncommitted change, and the lines that say so. Pure.

A party (identity.Party: another live session in the file's checkout; for a subagent, this
session's main thread and its running siblings; for the main thread, its running subagents) has
a change at stake in a file when its transcripts show it changed the file (peerchanges) and git
holds the file changed now (gitstate), unless a commit touched the file after that change: then
the change is history, whatever the file holds now (this session's own later edits, say). A file
git holds unchanged (committed, stashed, reverted) is no party's: that change is settled, and is
never told in this session even when the file changes again later.

Claude Code's docs advise that context a hook adds be factual, not imperative "system
instruction" phrasing: each line says what was observed (who changed the file, how long ago, what
git shows, what that party works on) and messaging.advice how to reach it. Every line opens with MARK;
the party's name, status and prompts and the file's name are its to choose, so each is shown through
peerhooks.text.peertext, a prompt between quotes it cannot close.
"""
from ..claude import messaging
from ..git import gitstate
from ..startup.records import record
from ..text import peertext
from ..text.timeutil import ago

MARK = "peerhooks"  # every notice opens with it, as the guard's refusals open with theirs
MAX_LINES = 5  # (file, party) lines; more are named on one line
MAX_LISTED = 4  # parties, and files, that one line names before counting the rest
INTENT_CHARS = 160  # a party's prompt as quoted: one line

Candidate = record("Candidate", "path toplevel party at_ms link", (None,), """A file this call writes (its
    realpath and checkout) that a party's transcripts show it changed, at_ms its latest change
    (None when the record's time could not be read), link the path the call names when that is a
    link leading to the file (None: the file was named itself).""")

Notice = record("Notice", "candidate state status intent direction", (None, None, None), """A
    candidate told: git's state of the file now, the party's registry status (busy, idle, waiting;
    None for a part of this session or a `claude -p` run), and its latest substantive prompt and a
    later change of direction, redacted (None when unknown).""")

NOTICE, SETTLED = "notice", "settled"


def candidates(targets, parties, changes, links=None):
    """[Candidate] for targets [(realpath, toplevel)], parties [(Party, checkout)] and changes
    {party key: {realpath: latest change ms}}: each target a party working in its checkout changed.
    links: {target: the link the call names, which leads to it}."""
    found = []
    for path, top in targets:
        for party, checkout in parties:
            latest = changes.get(party.key, {})
            if checkout == top and path in latest:
                found.append(Candidate(path, top, party, latest[path], (links or {}).get(path)))
    return found


def relative(path, top):
    """A path under its checkout as git names it from there."""
    prefix = top.rstrip("/") + "/"
    return path[len(prefix):] if path.startswith(prefix) else path


def judge(candidate, state, committed_s):
    """NOTICE when git holds the file changed now (state) and no commit touched it since the
    party's change (committed_s: the last such commit's time, epoch seconds, or None); SETTLED
    otherwise. A commit within the second of the change counts as after it: git keeps seconds."""
    if state is None:
        return SETTLED
    if committed_s is not None and candidate.at_ms is not None and committed_s >= candidate.at_ms // 1000:
        return SETTLED
    return NOTICE


def _who(party):
    if party.kind == "session":
        return "%s, a live session in this checkout" % peertext.name(party.name)
    if party.kind == "subagent":
        return "%s, a subagent of this session that still runs" % peertext.name(party.name)
    return "this session's main thread"


def _shown(path, top):
    """A file's name as a line shows it: relative to its checkout, cleaned."""
    return peertext.clean(relative(path, top))


def _named(candidate):
    """The file as a line names it, and the link the call goes through to it, if any."""
    name = _shown(candidate.path, candidate.toplevel)
    if candidate.link is None:
        return name
    return "%s (the link %s leads to it)" % (name, _shown(candidate.link, candidate.toplevel))


def line(notice, now_ms):
    """One notice as one line."""
    candidate = notice.candidate
    facts = []
    if notice.status:
        facts.append(peertext.name(notice.status))
    if candidate.at_ms is not None:
        facts.append("it changed the file %s ago" % ago(now_ms, candidate.at_ms))
    facts.append("git shows it %s now" % gitstate.describe(notice.state))
    text = "%s: %s holds uncommitted work of %s (%s)." % (
        MARK, _named(candidate), _who(candidate.party), "; ".join(facts))
    if notice.intent:
        text += " Its latest prompt: \"%s\"" % peertext.one_line(notice.intent, INTENT_CHARS, quoted=True)
        if notice.direction:
            text += ", then: \"%s\"" % peertext.one_line(notice.direction, INTENT_CHARS, quoted=True)
        text += "."
    return text


def more_line(hidden):
    """The (file, party) pairs past MAX_LINES on one line: whose work, in which files."""
    parties, files = [], []
    for notice in hidden:
        candidate = notice.candidate
        named = peertext.name(candidate.party.name), _shown(candidate.path, candidate.toplevel)
        for items, item in zip((parties, files), named):
            if item not in items:
                items.append(item)
    return "%s: uncommitted work of %s also in %s." % (MARK, _listed(parties, "more"), _listed(files, "more files"))


def _listed(items, more, shown=MAX_LISTED):
    if len(items) <= shown:
        return ", ".join(items)
    return "%s and %d %s" % (", ".join(items[:shown]), len(items) - shown, more)


def render(notices, now_ms, can_send, host="claude"):
    """The notice text: one line per (file, party), then how to reach them; '' for none."""
    if not notices:
        return ""
    lines = [line(n, now_ms) for n in notices[:MAX_LINES]]
    if len(notices) > MAX_LINES:
        lines.append(more_line(notices[MAX_LINES:]))
    reached, peers = set(), []
    for notice in notices:
        party = notice.candidate.party
        if party.name not in reached:
            reached.add(party.name)
            peers.append((party.name, party.can_message, party.kind))
    advice = messaging.advice(peers, can_send, host)
    return "\n".join(lines + ([advice] if advice else []))
