"""memory_delta.py: on each prompt, the memory and rule files a peer wrote since this session last
looked, once each. The quiet path (nothing changed) is a stat per watched file and one stamp read;
memory_report runs only when something did change.
"""
from . import gitrepo, hookio, memory_watch
from . import home as homes


def run(payload, argv, environ, now):
    session_id = payload.session_id
    if not memory_watch.is_safe_session_id(session_id):
        return hookio.QUIET
    cwd = payload.working_folder(environ)
    home = homes.claude_home(environ)
    state_folder = homes.state_dir(home)
    checkout = gitrepo.toplevel(cwd)
    project_root = homes.project_root(cwd, checkout)
    memory_folder = homes.memory_dir(home, project_root)
    now_ms = int(now * 1000)  # read before listing: anything written after it shows next time
    seen = memory_watch.look(home, state_folder, session_id, memory_folder, checkout, now_ms)
    if memory_watch.unchanged(seen):
        return hookio.QUIET
    if seen.previous is None:
        memory_watch.sweep_stamps(state_folder, home, now_ms)
    from . import memory_report

    text = memory_report.notice(seen, memory_report.Where(
        home, homes.user_home(environ), session_id, cwd, checkout, project_root, memory_folder,
        payload.transcript_path))

    def record(delivered):
        # Recorded after printing: a notice lost on the way would otherwise never come again. What
        # is recorded is the listing taken before deciding, so a file written meanwhile shows next time.
        if not delivered:
            return ()
        try:
            memory_watch.write_stamp(seen.stamp_path, memory_watch.stamp_of(seen))
        except OSError as error:
            return ("cannot record what was shown: %s" % error,)
        return ()

    return hookio.Outcome(stdout=text, after_delivery=record)
