"""What one git operation reaches of the uncommitted work in a checkout, path by path. Pure.

A path is reached when the operation's pathspecs cover it (exclusions and `clean -e` left out) and
the operation acts on the state git holds it in now (peerhooks.git.gitstate): `git add -u` stages only
tracked files' working-tree changes, `git clean -f` deletes untracked files but not those in a
folder git does not track (that needs -d), `git stash` takes staged and unstaged changes but no
untracked file, `git checkout .` rewrites working-tree changes but leaves the index, a plain commit
takes whatever is staged, anywhere. So `git add src/util.py` reaches nothing when that file is staged
with the working tree identical to the index, and `git clean -fd` never reaches a staged file.
"""

from ..startup import oscalls
from . import kinds
from .gitstate import is_staged, is_unstaged
from .kinds import Pathspec

# Kinds that act on the whole index and tree, whatever their paths: a plain commit, a reset or a
# forced checkout of a commit, an amend.
INDEX_WIDE = frozenset([kinds.COMMIT_INDEX, kinds.RESET_ALL, kinds.AMEND])


def relative(path, toplevel):
    """A path under the toplevel as git names it from there."""
    prefix = toplevel.rstrip("/") + "/"
    return path[len(prefix):] if path.startswith(prefix) else path


def resolve(spec, toplevel):
    """The absolute path a known, literal pathspec names."""
    root = toplevel if spec.root is None else spec.root
    return oscalls.posixpath.normpath(oscalls.posixpath.join(root, spec.relative)) if spec.relative else root


def names_toplevel(spec, toplevel):
    """A literal pathspec naming the toplevel (`git add ../..` from two folders down); one above it
    git refuses (peerhooks.git.refusals)."""
    if not spec.known or spec.pattern or spec.shell_glob:
        return False
    return resolve(spec, toplevel) == toplevel


def covers(spec, path, toplevel):
    """True when the pathspec reaches the absolute path: names it, lies above it, or matches it
    (a git wildcard, whose `*` crosses `/`; a shell glob, one folder level per `/`)."""
    if not spec.known:
        return False
    root = toplevel if spec.root is None else spec.root
    icase = "icase" in spec.magic
    if icase:  # `:(icase)DOCS` names docs/ too
        path, root = path.lower(), root.lower()
        spec = spec._replace(relative=spec.relative.lower())
    if spec.pattern or spec.shell_glob:
        import fnmatch  # imports re (~6 ms under -S): only a pattern pays for it

        if not path.startswith(root.rstrip("/") + "/"):
            return False
        rest = path[len(root.rstrip("/")) + 1:]
        pattern = spec.relative
        if spec.pattern:
            match = _glob_magic(pattern).match if "glob" in spec.magic else \
                (lambda text: fnmatch.fnmatchcase(text, pattern))
            return bool(match(rest)) or any(match(rest[:i]) for i, c in enumerate(rest) if c == "/")
        pattern_parts, parts = pattern.split("/"), rest.split("/")
        return len(parts) >= len(pattern_parts) and all(
            fnmatch.fnmatchcase(part, wanted) for part, wanted in zip(parts, pattern_parts))
    named = resolve(spec, toplevel)
    if icase:
        named = named.lower()
    return path == named or path.startswith(named.rstrip("/") + "/")


def _glob_magic(pattern):
    """A compiled expression matching a whole path as `:(glob)pattern` does (git's wildmatch with
    WM_PATHNAME): `*` and `?` stay within a folder, `**/` is any folders, `/**` everything under."""
    import fnmatch
    import re

    out, index = [], 0
    while index < len(pattern):
        if pattern.startswith("**/", index) and (index == 0 or pattern[index - 1] == "/"):
            out.append("(?:.*/)?")
            index += 3
        elif pattern.startswith("**", index) and index + 2 == len(pattern) and (index == 0 or pattern[index - 1] == "/"):
            out.append(".*")
            index += 2
        elif pattern[index] == "*":
            out.append("[^/]*")
            index += 1
        elif pattern[index] == "?":
            out.append("[^/]")
            index += 1
        elif pattern[index] == "[":
            end = pattern.find("]", index + 2)
            if end < 0:
                out.append(re.escape("["))
                index += 1
            else:
                out.append(fnmatch.translate(pattern[index:end + 1])[4:-3])  # fnmatch's class, unanchored
                index = end + 1
        else:
            out.append(re.escape(pattern[index]))
            index += 1
    return re.compile("(?s:%s)\\Z" % "".join(out))


def in_scope(op, path, toplevel):
    """Whether the operation's pathspecs cover the absolute path (a plain commit and a whole-tree
    form cover every path; a cwd-relative whole form, its working directory)."""
    if op.kind in INDEX_WIDE or op.kind in kinds.WHOLE_KINDS and not op.relative:
        inside = True
    elif op.kind in kinds.WHOLE_KINDS:
        folder = op.cwd.rstrip("/") + "/"
        inside = path.startswith(folder) or any(covers(spec, path, toplevel) for spec in op.paths)
    else:
        inside = any(covers(spec, path, toplevel) for spec in op.paths)
    if inside and op.kind == kinds.REMOVE_PATHS and op.entries is not None:
        inside = relative(path, toplevel) in op.entries  # `git rm` acts on the index entries it matched
    return inside and not any(covers(spec, path, toplevel) for spec in op.excludes)


def acts_on(op, state):
    """Whether the operation changes a path in this state (gitstate.PathState)."""
    touches = kinds.touches_of(op)
    if op.kind == kinds.REMOVE_PATHS and state.index == "D":
        return False  # neither `git rm` nor `git mv` acts on a path the index no longer holds
    if kinds.HEAD_ONLY in touches and state.index == "A":
        return False  # a file HEAD lacks: checked out from HEAD, it is left staged as it is
    if state.ignored:  # an ignored folder only for what enters folders (`git clean -x` needs -d for it)
        return kinds.IGNORED_WORK in touches and (not state.folder or bool(touches & {kinds.NEW_FOLDER_WORK,
                                                                                  kinds.IGNORED_FOLDER_WORK}))
    if state.untracked:
        return (kinds.NEW_FOLDER_WORK if state.folder else kinds.UNTRACKED_WORK) in touches
    if kinds.DELETION_WORK in touches and state.worktree == "D":
        return True
    if kinds.MODIFIED_WORK in touches and is_unstaged(state) and state.worktree != "D":
        return True
    return kinds.STAGED_WORK in touches and is_staged(state) or kinds.TRACKED_WORK in touches and is_unstaged(state)


def reaches(op, path, state, toplevel):
    """Whether the operation takes or destroys the uncommitted work at an absolute path in a state."""
    if state is not None and state.untracked and any(covers(spec, path, toplevel) for spec in op.ignores):
        state = state._replace(untracked=False, ignored=True)  # `clean -X -e <pattern>`: one more ignore rule
    if state is not None and state.index == "D" and _moved_onto(op, path, toplevel):
        return True  # `git mv a b` onto b whose deletion is staged puts b in the index again
    return state is not None and in_scope(op, path, toplevel) and acts_on(op, state)


def _moved_onto(op, path, toplevel):
    """Whether the path is the destination a `git mv` names (the classifier keeps it as the target)."""
    spec = op.target
    return op.kind == kinds.REMOVE_PATHS and isinstance(spec, Pathspec) and spec.known and not spec.pattern \
        and not spec.shell_glob and resolve(spec, toplevel) == path


def names_paths_only(op):
    """True when every pathspec names a file or folder literally (no whole tree, pattern, glob or
    run-time path): naming a file is a claim to it, so changes nobody's transcript shows are then
    not held against the line."""
    return ((op.kind in kinds.PATH_KINDS or op.kind == kinds.SHELL_WRITE) and not op.runtime and op.bound is None
            and bool(op.paths) and all(s.known and not s.pattern and not s.shell_glob for s in op.paths))
