"""What a step of the script names, resolved against the run's state with the step's own draw: the
file an edit changes and the line it anchors on, the files a narrow commit names, the command line
as an agent types it. Pure: the caller reads the state (View) and does the step.
"""
import random
from typing import NamedTuple, Optional, Tuple

from script import COMMIT_STYLES, OWN_STYLE_SHARE, weighted
from world import suffix, tracked_paths

READS = ("git status", "git status --short", "git diff", "git diff --stat", "git log --oneline -5")
WORDS = ("export", "retry", "limits", "audit", "report", "queue", "hooks", "filters", "batch", "notify")
TOUCHED_SHARE = 0.6  # an edit goes back to a file the session already has work in
WRITE_SHARE = 0.1  # an edit of an existing file done with Write (the whole file)


class View(NamedTuple):
    """What a step needs to know of its session and the run."""
    session: str
    checkout: str
    area: str
    style: str
    created: Tuple[str, ...]  # files it wrote new
    own_dirty: Tuple[str, ...]  # files with its uncommitted changes
    peer_dirty: Tuple[str, ...]  # files with a live peer's uncommitted changes, in its checkout
    has_stash: bool
    switched_from: Optional[str]
    read: object  # read(path) -> text or None: a file of its checkout


class Action(NamedTuple):
    tool: str  # "Bash", "Edit", "MultiEdit", "Write"
    command: str = ""
    path: str = ""  # relative to the checkout
    anchors: Tuple[str, ...] = ()  # lines an Edit or MultiEdit inserts after (one change each)
    whole: Optional[str] = None  # a Write's file before its change (None: a new file)
    kind: str = ""


def area_files(area):
    return tuple(p for p in tracked_paths() if p.startswith(area + "/"))


def _edit(rng, view, path=None):
    if path is None:
        touched = [p for p in view.own_dirty if view.read(p) is not None]
        pool = touched if touched and rng.random() < TOUCHED_SHARE else list(area_files(view.area)) + list(view.created)
        path = rng.choice(sorted(pool))
    text = view.read(path)
    if text is None:
        return _write_new(rng, view, path)
    lines = text.splitlines()
    unique = sorted({line for line in lines if line.strip() and lines.count(line) == 1})
    if not unique or rng.random() < WRITE_SHARE:
        return Action("Write", path=path, whole=text, kind="write")
    return Action("Edit", path=path, anchors=(rng.choice(unique),), kind="edit")


def _multiedit(rng, view):
    action = _edit(rng, view)
    if action.tool != "Edit":
        return action
    lines = view.read(action.path).splitlines()
    unique = sorted({line for line in lines if line.strip() and lines.count(line) == 1} - set(action.anchors))
    if not unique:
        return action
    return action._replace(tool="MultiEdit", anchors=action.anchors + (rng.choice(unique),), kind="multiedit")


def _write_new(rng, view, path=None):
    if path is None:
        for _ in range(20):
            path = "%s/%s_%s%s" % (view.area, rng.choice(WORDS), view.session, suffix(view.area))
            if view.read(path) is None:
                break
            path = "%s/%s_%s_%d%s" % (view.area, rng.choice(WORDS), view.session, rng.randint(2, 99), suffix(view.area))
            if view.read(path) is None:
                break
    return Action("Write", path=path, whole=None, kind="write_new")


def _commit(rng, view):
    if not view.own_dirty:
        return _edit(rng, view)
    style = view.style if rng.random() < OWN_STYLE_SHARE else weighted(rng, COMMIT_STYLES)
    message = "Update %s: %s" % (view.area, rng.choice(WORDS))
    if style == "narrow":
        line = "git add %s && git commit -m \"%s\"" % (" ".join(view.own_dirty), message)
    elif style == "add_all":
        line = "git add -A && git commit -m \"%s\"" % message
    elif style == "add_dot":
        line = "git add . && git commit -m \"%s\"" % message
    else:
        line = "git commit -am \"%s\"" % message
    return Action("Bash", command=line, kind="commit_" + style)


def _discard(rng, view):
    tracked = [p for p in view.own_dirty if p not in view.created]
    if not tracked:
        return Action("Bash", command=rng.choice(READS), kind="read")
    path = rng.choice(tracked)
    line = rng.choice(("git checkout -- %s", "git restore %s")) % path
    return Action("Bash", command=line, kind="discard_own")


def resolve(kind, draw, view):
    """The Action a step of `kind` takes for `view`'s session."""
    rng = random.Random(draw)
    if kind == "edit":
        return _edit(rng, view)
    if kind == "multiedit":
        return _multiedit(rng, view)
    if kind == "write_new":
        return _write_new(rng, view)
    if kind == "edit_peer_file":
        return _edit(rng, view, rng.choice(view.peer_dirty)) if view.peer_dirty else _edit(rng, view)
    if kind == "commit":
        return _commit(rng, view)
    if kind == "discard_own":
        return _discard(rng, view)
    simple = {
        "stash": rng.choice(("git stash", "git stash push -m \"wip %s\"" % view.session)),
        "stash_pop": "git stash pop" if view.has_stash else None,
        "reset_hard": rng.choice(("git reset --hard", "git reset --hard HEAD")),
        "restore_dot": rng.choice(("git restore .", "git checkout -- .")),
        "switch": "git switch -c topic/%s-%s" % (view.session, rng.choice(WORDS)),
        "switch_back": "git switch %s" % view.switched_from if view.switched_from else None,
    }
    line = simple.get(kind)
    if line is None:
        return Action("Bash", command=rng.choice(READS), kind="read")
    return Action("Bash", command=line, kind=kind)
