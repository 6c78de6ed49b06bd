"""memory_delta.py: on each prompt, the memory and rule files a peer wrote since this session last
looked, and the peers that joined or ended this checkout since it last heard, once each. The quiet
path (nothing changed) is a stat per watched file, one listing of the registry folder and two small
reads (the stamp, the roster); report and roster_report are loaded only when something did change.
"""
from .. import hookio
from ..claude.formats import is_safe_session_id
from ..claude.home import claude_home, memory_dir, project_root, state_dir, user_home
from ..git import gitrepo
from ..peers import roster
from . import watch


def run(payload, argv, environ, now):
    session_id = payload.session_id
    if not is_safe_session_id(session_id):
        return hookio.QUIET
    cwd = payload.working_folder(environ)
    home = claude_home(environ)
    state_folder = state_dir(home)
    checkout = gitrepo.toplevel(cwd)
    root = project_root(cwd, checkout)
    memory_folder = memory_dir(home, root)
    now_ms = int(now * 1000)  # read before listing: anything written after it shows next time
    seen = watch.look(home, state_folder, session_id, memory_folder, checkout, now_ms)
    heard = roster.look(home, state_folder, session_id)
    memory_quiet, roster_quiet = watch.unchanged(seen), roster.unchanged(heard)
    if memory_quiet and roster_quiet:
        return hookio.QUIET
    texts, found = [], None
    if not memory_quiet:
        from . import report  # seam: the slow path, only when a watched file changed (19 modules)

        if seen.previous is None:
            report.sweep_stamps(state_folder, home, now_ms)
        texts.append(report.notice(seen, report.Where(
            home, user_home(environ), session_id, cwd, checkout, root, memory_folder, payload.transcript_path)))
    if not roster_quiet:
        from . import roster_report  # seam: the slow path, only when a peer joined or ended (22 modules)

        found = roster_report.report(home, heard, session_id, checkout, environ, now_ms)
        texts.append(found.text)

    def record(delivered):
        # Recorded after printing: a notice lost on the way would otherwise never come again. What
        # is recorded is what was listed before deciding, so a change meanwhile shows next time.
        if not delivered:
            return ()
        problems = []
        if not memory_quiet:
            try:
                watch.write_stamp(seen.stamp_path, watch.stamp_of(seen))
            except OSError as error:
                problems.append("cannot record what was shown: %s" % error)
        if found is not None:
            try:
                if heard.previous is None:
                    roster.sweep(roster.folder_of(state_folder), now_ms)
                roster.write(heard.path, found.roster)
            except OSError as error:
                problems.append("cannot record the roster told: %s" % error)
        return problems

    return hookio.Outcome(stdout="".join(t for t in texts if t), after_delivery=record)
