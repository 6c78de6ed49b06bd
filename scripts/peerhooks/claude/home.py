"""Where Claude Code keeps its files, the slug rule, and peerhooks' own state folder.

The Claude home is $CLAUDE_CONFIG_DIR when set, else `.claude` in the user's home folder as the
client finds it (%USERPROFILE% on Windows: peerhooks/platform). The slug turns a start directory, as
the client spells it (`C:\\Users\\me\\repo` on Windows), into a folder name under projects/: every
character outside [A-Za-z0-9] becomes '-' (`C--Users-me-repo`), and a slug over 200 characters is
cut to 200 plus a hash suffix we cannot recompute, so long paths match by prefix. Windows matches
those folders case-insensitively, and so do we there.
"""

from .. import platform
from ..git import gitrepo
from ..startup import oscalls
from ..startup.jsonfast import loads
from ..state.safefiles import read_regular
from .formats import MEMORY_FOLDER, PROJECTS_FOLDER, SETTINGS_FILE, TRANSCRIPT_SUFFIX

SLUG_MAX = 200
# Kept as characters, not a pattern: `re` costs a hook ~6 ms of start-up under -S, and every hook
# slugs a path.
SLUG_KEPT = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
STATE_FOLDER = "peerhooks"  # under the Claude home; never inside sessions/, which Claude Code sweeps


def _client_home(environ, variable, default_folder):
    environ = environ if environ is not None else oscalls.environ
    configured = (environ.get(variable) or "").strip()  # the client trims CLAUDE_CONFIG_DIR
    if configured:
        expanded = _expand_user(configured, environ)
        paths = platform.current().paths
        named = paths.local(expanded)  # the client's spelling (C:\\Users\\me\\.claude), opened here
        return paths.normpath(named) if named else oscalls.path.abspath(expanded)
    return oscalls.path.join(user_home(environ), default_folder)


def _expand_user(path, environ):
    """`~` and `~/…` from the given environment's home (os.path.expanduser reads this process's)."""
    if path == "~" or path.startswith(("~/", "~\\")):
        return user_home(environ) + path[1:]
    return oscalls.path.expanduser(path)


def claude_home(environ=None):
    """Claude Code's home: $CLAUDE_CONFIG_DIR when set, else .claude in the user's home."""
    return _client_home(environ, "CLAUDE_CONFIG_DIR", ".claude")


def codex_home(environ=None):
    """Codex's home: $CODEX_HOME when set, else ~/.codex."""
    return _client_home(environ, "CODEX_HOME", ".codex")


def slug(path):
    """The projects/ folder name for a directory (without the long-path hash suffix)."""
    return "".join(char if char in SLUG_KEPT else "-" for char in platform.current().paths.slug_text(path))


def _matches(name, wanted, case_insensitive):
    return name == wanted or case_insensitive and name.lower() == wanted.lower()


def _starts(name, prefix, case_insensitive):
    return name.startswith(prefix) or case_insensitive and name.lower().startswith(prefix.lower())


def project_dirs(home, path):
    """Existing projects/ folders that belong to a directory: the exact slug (on Windows in any
    case, as the client matches it there), or for a slug over 200 characters every folder that
    starts with its first 200 characters."""
    projects = oscalls.path.join(home, PROJECTS_FOLDER)
    wanted = slug(path)
    folding = platform.current().paths.case_insensitive
    if len(wanted) <= SLUG_MAX:
        candidate = oscalls.path.join(projects, wanted)
        if oscalls.path.isdir(candidate) or not folding:
            return [candidate] if oscalls.path.isdir(candidate) else []
    try:
        names = sorted(oscalls.listdir(projects))
    except OSError:
        return []
    if len(wanted) <= SLUG_MAX:
        return [oscalls.path.join(projects, n) for n in names if _matches(n, wanted, folding)][:1]
    return [oscalls.path.join(projects, n) for n in names if _starts(n, wanted[:SLUG_MAX], folding)]


def transcript_folders(home, folder):
    """projects/ folders of sessions started in `folder` or below it, sorted: its slug, the slugs
    it prefixes followed by '-', and for a cut slug every folder sharing the 200 characters. Slugs
    are lossy (`repo/old` and `repo-old` share one), so callers that care confirm a transcript's
    cwd from its head."""
    projects = oscalls.path.join(home, PROJECTS_FOLDER)
    prefix = slug(folder)[:SLUG_MAX]
    folding = platform.current().paths.case_insensitive
    try:
        names = sorted(oscalls.listdir(projects))
    except OSError:
        return []
    cut = len(prefix) == SLUG_MAX  # its hash suffix cannot be recomputed: any suffix may be it
    return [oscalls.path.join(projects, n) for n in names
            if _matches(n, prefix, folding) or _starts(n, prefix + "-", folding) or (cut and _starts(n, prefix, folding))]


def transcript_entries(project_folder):
    """[(session id, os.DirEntry)] of the top-level transcripts in one projects/ folder (subagents'
    lie a level down); a folder that cannot be listed has none."""
    try:
        entries = list(oscalls.scandir(project_folder))
    except (OSError, ValueError):
        return []
    return [(e.name[:-len(TRANSCRIPT_SUFFIX)], e) for e in entries if e.name.endswith(TRANSCRIPT_SUFFIX)]


def state_dir(home):
    """peerhooks' own folder under the Claude home (created on demand by the writer)."""
    return oscalls.path.join(home, STATE_FOLDER)



def _configured_memory_dir(home):
    """The `autoMemoryDirectory` from the user's settings, if one is set (read_regular: a FIFO in
    its place is never waited on)."""
    try:
        settings = loads(read_regular(oscalls.path.join(home, SETTINGS_FILE), 1 << 24))
    except (OSError, ValueError):  # ValueError: not JSON, or nested too deep (jsonfast.TooDeep)
        return None
    configured = settings.get("autoMemoryDirectory") if isinstance(settings, dict) else None
    if isinstance(configured, str) and configured.strip():
        return oscalls.path.abspath(oscalls.path.expanduser(configured.strip()))
    return None


def user_home(environ=None):
    """The user's home folder (for `~/` in displayed paths and the Claude home), from the hook's
    environment as the client reads it: HOME, or on Windows USERPROFILE."""
    return platform.user_home(environ if environ is not None else oscalls.environ)


def project_root(folder, toplevel):
    """What Claude Code keys a checkout's auto memory by: the main working tree of its repository
    (a linked worktree maps to it), or the folder itself outside git."""
    return gitrepo.canonical_root(toplevel) if toplevel else platform.current().paths.realpath(folder)


def checkout_memory_dir(home, folder, toplevel):
    """The auto-memory folder of the checkout `folder` belongs to (None when none can be told)."""
    return memory_dir(home, project_root(folder, toplevel))


def memory_dir(home, repo_root):
    """The auto-memory folder of a repository: `autoMemoryDirectory` when configured, else
    `projects/<slug of the canonical git root>/memory` (the first match for a long slug)."""
    configured = _configured_memory_dir(home)
    if configured:
        return configured
    if not repo_root:
        return None
    matches = project_dirs(home, repo_root)
    folder = matches[0] if matches else oscalls.path.join(home, PROJECTS_FOLDER, slug(repo_root)[:SLUG_MAX])
    return oscalls.path.join(folder, MEMORY_FOLDER)


def transcript_path(home, session_id, cwd, folders_of=None):
    """The transcript of a session started in cwd; falls back to any project folder holding it.
    folders_of: a dict the caller keeps across calls ({cwd: its project folders}), so that peers
    sharing a cwd (the usual case: one checkout) resolve it and look for its folders once, rather
    than one lstat per path component and two stats each."""
    if not session_id:
        return None
    filename = session_id + TRANSCRIPT_SUFFIX
    folders_of = {} if folders_of is None else folders_of
    if cwd not in folders_of:
        folders_of[cwd] = project_dirs(home, platform.current().paths.realpath(cwd) if cwd else "")
    for folder in folders_of[cwd]:
        candidate = oscalls.path.join(folder, filename)
        if oscalls.path.isfile(candidate):
            return candidate
    projects = oscalls.path.join(home, PROJECTS_FOLDER)
    try:
        names = oscalls.listdir(projects)
    except OSError:
        return None
    for name in names:
        candidate = oscalls.path.join(projects, name, filename)
        if oscalls.path.isfile(candidate):
            return candidate
    return None
