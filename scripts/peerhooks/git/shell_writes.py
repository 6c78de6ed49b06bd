"""A shell command writing over or removing a file (`>`, `sed -i`, `rm`, `cp`, `mv`, `find -delete`) as
an operation the guard judges as it judges git's: a SHELL_WRITE of the file, or of what a `find`
finds, which loses whatever of it is not committed. Pure.
"""
from ..shell import cmdline
from ..shell.writes import IN_PLACE_EDITORS, backup_suffix, writes_its_operands
from ..startup import oscalls
from .args import find_bound
from .kinds import Operation, Pathspec, SHELL_WRITE


def write_operation(path, pattern, command):
    """The operation of a shell command writing over (or removing) a file: `path` absolute, a glob
    when `pattern` (peerhooks.shell.writes.targets_of)."""
    if pattern:
        spec = Pathspec(path, "/", path.lstrip("/"), False, True)
    else:
        spec = Pathspec(path, path, "")
    words = ((command.path_word,) if command.path_word is not None else ()) + tuple(command.args)
    span = None
    if all(w.span is not None for w in words) and words and not command.via:  # a wrapper's words: not the line's
        span = (words[0].span[0], max([words[-1].span[1]] + [w.span[1] for w in command.writes if w.span]))
    text = " ".join([command.name] + [w.value for w in command.args])
    where = command.cwd if pattern else oscalls.posixpath.dirname(path)  # judged in the checkout of the file
    return Operation(SHELL_WRITE, where, text, (spec,), False, depth=command.depth, in_loop=command.in_loop,
                     span=span, via=command.via, rewrite=_rewrite(command, path))


def found_write_operation(run, context=cmdline.Context()):
    """The operation of a command writing over or removing what a `find` finds: `find … -delete`,
    or `find … -exec sed -i … {} +` (the files lie under find's folders, matching its -name); None
    when the command writes nothing it is given, or the folders are known only at run time."""
    find = run if run.name == "find" else run.fed_by
    if find is None or find.name != "find":
        return None
    if run.name == "find" and not any(w.value == "-delete" for w in run.args):
        return None
    if run.name != "find" and not writes_its_operands(run):
        return None
    bound = find_bound(find, context)
    if bound is None:
        return None
    text = " ".join([find.name] + [w.value for w in find.args])
    return Operation(SHELL_WRITE, find.cwd, text, tuple(bound[0]), False, depth=find.depth, in_loop=find.in_loop,
                     via=find.via, rewrite=_rewrite(run) if run is not find else None)


def _rewrite(command, path=None):
    """The rewrites.Rewrite of an in-place editor writing `path` (None: the files a find feeds it),
    or None: any other command writes what it is given, and so do a redirection of the editor's
    output (`sed -i … f > f`) and the backup a suffix names (`sed -i.bak`: f.bak is a copy of f,
    written whatever the patterns match)."""
    if command.name not in IN_PLACE_EDITORS or any(w.value != "/dev/null" for w in command.writes):
        return None
    suffix = backup_suffix(command.name, command.args)
    if suffix and (path is None or path.endswith(suffix)):
        return None
    from ..shell import rewrites  # seam: only a line running sed or perl loads the rewrite model (~30 KB)

    return rewrites.rewrite_of(command.name, command.args, command.adds_words)
