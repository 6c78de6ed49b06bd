"""The paths a line feeds a git command at run time: the words `xargs` or `find -exec` adds, a
`$(…)` among its operands, the patch a `git diff` pipes to `git apply`. What the producer prints
is read from the line (peerhooks.git.feed_sources): words the line holds stand as if typed; a
lister's output stands as the pathspecs it lists under and the states it lists (its bound) until
git's state of the checkout is read, and then as the paths it prints (with_fed_paths).

Loaded only for a line that feeds git (peerhooks.git.classify, forms.run): with shell.feeds and
feed_sources, ~60 KB of bytecode a plain `git add -A` does not read.
"""
from ..shell import feeds
from ..shell.lexer import Word
from ..shell.programs import LINES_SPLIT, NUL_SPLIT, XARGS_SPLIT
from . import feed_sources
from .args import pathspec
from .kinds import EVERYTHING, IGNORED_WORK, Pathspec
from .reach import covers

# How xargs cuts what it reads into words, as feeds reads it.
XARGS_SPLITS = {XARGS_SPLIT: feeds.XARGS, LINES_SPLIT: feeds.LINES, NUL_SPLIT: feeds.LINES}
# The work each state a git lister shows holds (kinds' letters).
SHOWN_WORK = {"staged": "S", "unstaged": "WR", "deleted": "WR", "untracked": "ND"}


def received(run, words, location, context, lookup):
    """(words, adds_words, feed, bound) of a git run xargs, `find -exec` or a pipe feeds: words the
    line holds added as if typed (`echo a.py | xargs git add`), else the feeds.Feed of what the run
    will be given, and its bound (None when nothing can be read)."""
    if run.adds_words:
        feed = _xargs_feed(run, context, lookup)
    else:
        feed = feed_sources.patch_feed(run.piped_from, context, lookup)
    if feed is not None and run.adds_words and isinstance(feed.source, feeds.Words):
        fed = feeds.fed(feed, None, None, None, location)
        if fed is not None:
            return words + tuple(Word(w) for w in fed.words), False, None, None
    return words, run.adds_words, feed, bound_of(feed, context)


def _xargs_feed(run, context, lookup):
    """The Feed of the words xargs or `find -exec` adds to a run, or None."""
    split = XARGS_SPLITS.get(run.xargs.split)
    if split is None:
        return None
    return feed_sources.feed_of(run.fed_by, split, context, lookup, nul=run.xargs.split == NUL_SPLIT)


def substituted(word, cwd, run):
    """What a `$(…)` operand run from cwd stands for: None when its producer cannot be read; else
    (pathspecs, None) for words the line holds, (None, None) when those cannot be told, or
    (pathspecs, (feed, pathspecs)) for what a lister prints (its bound)."""
    feed = feed_sources.substitution_feed(word, cwd, run.context, run.lookup)
    if feed is None:
        return None
    if isinstance(feed.source, feeds.Words):
        fed = feeds.fed(feed, None, None, None, run.cwd)
        if fed is None:
            return None, None
        return [pathspec(Word(w), run.cwd, run.context.paths) for w in fed.words], None
    bound = bound_of(feed, run.context)[0]
    return bound, (feed, tuple(bound))


def bound_of(feed, context):
    """(Pathspecs, work) the paths a feed gives lie in and the states they are in, until git's state
    tells them: a lister's pathspecs (the whole tree without) and what it lists, find's folders."""
    if feed is None:
        return None
    source = feed.source
    if isinstance(source, feeds.Found):
        return source.specs, EVERYTHING
    if isinstance(source, feeds.Words):  # paths a lookup named (a stash entry's files)
        return tuple(pathspec(Word(line), None, context.paths) for line in source.lines), EVERYTHING
    work = set()
    for shown in source.shows:
        work |= set(SHOWN_WORK[shown])
    if source.ignored:
        work.add(IGNORED_WORK)
    specs = source.specs or ((Pathspec(source.under, source.under, ""),) if source.under else
                             (Pathspec(":/", None, ""),))
    return specs, frozenset(work)


def with_fed_paths(op, top, states, renamed=None):
    """The operation with what its feeds print in place of the pathspecs that stood for it, given
    git's state of its checkout ({path: PathState}) and the renames git finds there (feeds.fed's
    `renamed`): exact paths when every feed is read in full (it then reads as if the line named
    them), the upper bound they are otherwise. Unchanged when a feed cannot be told, or gives
    nothing (the command then runs as if without the words)."""
    if not op.feeds or states is None:
        return op
    standing = {spec for _feed, specs in op.feeds for spec in specs}
    paths = [p for p in op.paths if p not in standing]
    exact = complete = True
    fed = []
    for feed, _specs in op.feeds:
        got = feeds.fed(feed, top, states, lambda spec, path: covers(spec, path, top), op.cwd, renamed)
        if got is None:
            return op
        exact, complete = exact and got.exact, complete and got.complete
        fed.extend(pathspec(Word(w), op.cwd) for w in got.words)
    if not fed and exact and complete:  # the feeds print nothing: git runs without their words
        return op.alone._replace(step=op.step) if op.alone is not None else op
    return op._replace(paths=tuple(paths + fed), bound=None if exact else op.bound, runtime=False)
