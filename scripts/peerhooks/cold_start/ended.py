"""The sessions that ended in this checkout as a cold-start section, and what that section
depends on (for the quiet path): the checkout's transcript folders and its live sessions.
"""
from .. import platform
from ..claude import activity, registry
from ..claude.formats import DAY_MS
from ..claude.home import transcript_folders
from ..claude.intent import PROMPT_CHARS
from ..git import gitrepo
from ..peers.report import display_path, how_it_ended
from ..text import peertext
from ..text.timeutil import ms_to_utc
from .quiet import exists_only, process, transcripts
from .sections import cap, section

MAX_ENDED_SESSIONS = 5  # a week of finished sessions; the newest orient, older ones are history
SHOWN_EDITS = 8  # the newest files orient; the count of the rest is enough
UNREAD_LINE = ("(%d more transcripts that may hold later sessions were not read within this start's "
               "budget; later starts go on from there)")


def gather_ended_sessions(workspace):
    """Sessions that ended in this checkout in the last week, except the last one, which
    peers.py describes at the same start (one session described twice was noise), with absolute
    end times so the body does not age by itself. Live sessions and their contexts before
    /clear are never listed, so a /clear does not change this section."""
    top = workspace.toplevel
    if not top:
        return section("ended_sessions", ""), None
    exclude = {workspace.session_id} if workspace.session_id else set()
    search = activity.find_ended(workspace.home, top, workspace.now_ms, exclude,
                                 limit=MAX_ENDED_SESSIONS + 1)
    every = search.found
    blocks = [ended_lines(ended, top) for ended in every[1:]]
    if search.unread:
        blocks.append(UNREAD_LINE % search.unread)
    body = ""
    if blocks:
        body = ("Sessions that ended in this checkout in the last %d days before the last one "
                "(peers.py describes that one), newest first:\n"
                % activity.ENDED_WINDOW_DAYS) + "\n".join(blocks)
    # The section changes by the clock alone when the oldest listed session leaves the window; with
    # transcripts left unread it is not settled, so the next start compares (and reads) again.
    expiry = min(e.ended_ms for e in every) + activity.ENDED_WINDOW_DAYS * DAY_MS \
        if every else None
    if search.unread:
        expiry = workspace.now_ms
    return section("ended_sessions", cap(body)), expiry


def ended_lines(ended, top):
    """One finished session: name, how and when it ended (UTC: the body is compared between starts
    and must not change with the clock), latest prompt, files edited. The name comes after `- `, so
    that it cannot pass for a line of ours."""
    done = ended.activity
    count = done.prompt_count
    lines = ["- %s %s, %d prompt%s" % (peertext.name(done.name), how_it_ended(ended.exited, ms_to_utc(ended.ended_ms)),
                                      count, "" if count == 1 else "s")]
    if done.latest:
        lines.append("  latest prompt: " + peertext.one_line(done.latest, PROMPT_CHARS))
    if done.edits:
        names = ", ".join(display_path(e.path, top) for e in done.edits[:SHOWN_EDITS])
        extra = len(done.edits) - SHOWN_EDITS
        lines.append("  edited: " + names + (" +%d more" % extra if extra > 0 else ""))
    return "\n".join(lines)


def session_inputs(home, top):
    """What the ended-sessions section depends on: the checkout's transcript folders (a session
    that ended since the comparison wrote its transcript there), and whether each live session of
    this checkout is still registered and running (one that exits removes its registry file; one
    that crashed leaves it, but its process goes: /proc/<pid> on Linux, the platform's answer
    elsewhere). Sessions of other checkouts, and the status rewrites of registry files, do not
    count."""
    processes = platform.current().processes
    paths = []
    for session in registry.read_sessions(home):
        if gitrepo.toplevel(session.cwd) == top:
            paths.append(exists_only(registry.entry_path(home, session.pid)))
            marker = processes.exists_marker(session.pid)
            paths.append(exists_only(marker) if marker else process(session.pid, session.proc_start))
    paths += [transcripts(folder) for folder in transcript_folders(home, top)]
    return paths
