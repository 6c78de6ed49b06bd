"""peerhooks.shell.feeds and feed_sources: what a command feeding git prints, from git's state. Pure: the
commands are read by cmdline, the state is given."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))

from peerhooks.shell import cmdline, feeds, programs
from peerhooks.git import classify, fed_paths, feed_sources, kinds, reach  # noqa: E402
from peerhooks.git.forms import run as forms_run  # noqa: E402
from peerhooks.git.gitstate import PathState  # noqa: E402

TOP = "/r"
STATES = {
    "docs/usage.md": PathState("docs/usage.md", ".", "M"),
    "docs/new.md": PathState("docs/new.md", ".", ".", True),
    "src/api.py": PathState("src/api.py", ".", "M"),
    "src/gone.py": PathState("src/gone.py", ".", "D"),
    "src/util.py": PathState("src/util.py", "M", "."),
    "src/parser.py": PathState("src/parser.py", "A", "."),
    "vendor": PathState("vendor", ".", ".", True, False, True),
}


class Lookup(forms_run.Lookup):
    def is_revision(self, word, cwd):
        return word in ("HEAD", "main")

    def is_folder(self, path):
        return path.rstrip("/").endswith(("docs", "src"))


def words(line, cwd=TOP, states=STATES, renames=None):
    """The words the last command of the line is fed, or None; renames: {new: old} git finds for
    the line's lister (None: not asked)."""
    context = cmdline.Context(glob=lambda pattern, folder: ["docs/a.md", "docs/b.md"] if "*" in pattern else None)
    runs = cmdline.commands(line, cwd, context)
    consumer = runs[-1]
    if consumer.xargs is not None:
        split = {programs.XARGS_SPLIT: feeds.XARGS, programs.LINES_SPLIT: feeds.LINES}.get(consumer.xargs.split)
        feed = feed_sources.feed_of(consumer.fed_by, split, context, Lookup()) if split else None
    else:
        word = next(w for w in consumer.args if w.substitutions)
        feed = feed_sources.substitution_feed(word, cwd, context, Lookup())
    if feed is None:
        return None
    renamed = {feed.source: renames} if renames is not None else None
    got = feeds.fed(feed, TOP, states, lambda spec, path: reach.covers(spec, path, TOP), cwd, renamed)
    return None if got is None else (list(got.words), got.exact)


RENAMED = dict(STATES, **{"src/old.py": PathState("src/old.py", "D", "."), "lib/gone.py": PathState("lib/gone.py", "D", "."),
                          "src/new.py": PathState("src/new.py", "A", ".")})  # `git mv src/old.py src/new.py`


class Producers(unittest.TestCase):
    def test_words_the_line_holds(self):
        self.assertEqual(words("echo docs/a.md src/b.py | xargs git add"), (["docs/a.md", "src/b.py"], True))
        self.assertEqual(words("printf '%s\\n' a.py 'b c.py' | xargs -I{} git add {}"), (["a.py", "b c.py"], True))
        self.assertEqual(words("ls docs/*.md | xargs git add"), (["docs/a.md", "docs/b.md"], True))
        self.assertIsNone(words("ls docs | xargs git add"))  # a folder: ls prints what it holds
        self.assertIsNone(words("echo -e 'a\\nb' | xargs git add"))
        self.assertIsNone(words("cat list.txt | xargs git add"))

    def test_git_listers_print_git_state(self):
        self.assertEqual(words("git diff --name-only | xargs git add"),
                         (["docs/usage.md", "src/api.py", "src/gone.py"], True))
        self.assertEqual(words("git diff --name-only --diff-filter=D | xargs git add"), (["src/gone.py"], True))
        self.assertEqual(words("git diff --name-only --diff-filter=d | xargs git add"),
                         (["docs/usage.md", "src/api.py"], True))
        self.assertEqual(words("git diff --name-only src | xargs git add"), (["src/api.py", "src/gone.py"], True))
        self.assertIsNone(words("git diff --name-only main | xargs git add"))  # against a commit
        self.assertEqual(words("git ls-files -m | xargs git add", cwd="/r/src"), (["api.py", "gone.py"], True))
        self.assertEqual(words("git ls-files -o --exclude-standard | xargs git add"),
                         (["docs/new.md", "vendor/"], False))  # a new folder's files, one by one: at most those
        self.assertEqual(words("git add $(git ls-files -d)"), (["src/gone.py"], True))

    def test_an_added_file_with_nothing_deleted_is_its_own_line(self):
        self.assertEqual(words("git diff --cached --name-only | xargs git reset --"),
                         (["src/parser.py", "src/util.py"], True))

    def test_a_staged_rename_may_be_one_line_until_git_says(self):
        line = "git diff --cached --name-only | xargs git reset --"
        self.assertEqual(words(line, states=RENAMED),
                         (["lib/gone.py", "src/new.py", "src/old.py", "src/parser.py", "src/util.py"], False))
        self.assertEqual(words(line, states=RENAMED, renames={"src/new.py": "src/old.py"}),
                         (["lib/gone.py", "src/new.py", "src/parser.py", "src/util.py"], True))  # the new name only
        self.assertEqual(words(line, states=RENAMED, renames={}),
                         (["lib/gone.py", "src/new.py", "src/old.py", "src/parser.py", "src/util.py"], True))

    def test_a_rename_line_of_git_status(self):
        status = "git status --porcelain | grep '^[ADR]' | awk '{print $%d}' | xargs git add"
        pairs = {"src/new.py": "src/old.py"}
        self.assertEqual(words(status % 2, states=RENAMED, renames=pairs),
                         (["lib/gone.py", "src/old.py", "src/parser.py"], True))  # `R  src/old.py -> src/new.py`
        self.assertEqual(words(status % 4, states=RENAMED, renames=pairs), (["src/new.py"], True))
        self.assertEqual(words("git status --short | grep ^R | cut -c4- | xargs git add", cwd="/r/src",
                               states=RENAMED, renames=pairs), (["old.py", "->", "new.py"], True))
        self.assertEqual(words("git diff --cached --name-only --diff-filter=D | xargs git add", states=RENAMED,
                               renames=pairs), (["lib/gone.py"], True))  # a rename is R, not D
        self.assertEqual(words("git diff --cached --name-only -- src | xargs git add", states=RENAMED,
                               renames={"src/new.py": "lib/gone.py"})[1], False)  # its other side not listed

    def test_whether_a_lister_folds_renames(self):
        def renames(line):
            runs = cmdline.commands(line, TOP, cmdline.Context())
            return feed_sources.feed_of(runs[-1].fed_by, feeds.XARGS, cmdline.Context(), Lookup()).source.renames

        self.assertIsNone(renames("git diff --cached --name-only | xargs git add"))  # the repository's config
        self.assertFalse(renames("git diff --cached --name-only --no-renames | xargs git add"))
        self.assertTrue(renames("git diff --cached --no-renames -M --name-only | xargs git add"))  # the last wins
        self.assertFalse(renames("git -c diff.renames=false diff --cached --name-only | xargs git add"))
        self.assertFalse(renames("git -c status.renames=off status --porcelain | xargs git add"))
        self.assertTrue(renames("git -c status.renames=true -c diff.renames=0 status -s | xargs git add"))
        self.assertFalse(renames("git status --porcelain --no-renames | xargs git add"))
        self.assertIsNone(feed_sources.feed_of(cmdline.commands("git -c diff.renames=copies diff --cached --name-only"
                                                                " | xargs git add", TOP, cmdline.Context())[-1].fed_by,
                                               feeds.XARGS, cmdline.Context(), Lookup()))  # copies: not read

    def test_no_rename_to_find_without_an_added_and_a_deleted_file(self):
        listing = feeds.Listing(frozenset(["staged"]), ())
        self.assertIsNone(feeds.rename_comparison(listing, STATES))
        self.assertEqual(feeds.rename_comparison(listing, RENAMED), feeds.CACHED)
        self.assertIsNone(feeds.rename_comparison(listing._replace(renames=False), RENAMED))
        self.assertIsNone(feeds.rename_comparison(feeds.Listing(frozenset(["unstaged"]), ()), RENAMED))
        head = feeds.Listing(frozenset(["staged", "unstaged"]), ())
        gone_from_tree = dict(STATES, **{"src/new.py": PathState("src/new.py", "A", ".")})  # src/gone.py: ` D`
        self.assertEqual(feeds.rename_comparison(head, gone_from_tree), feeds.HEAD)
        self.assertIsNone(feeds.rename_comparison(listing, gone_from_tree))  # the index holds src/gone.py

    def test_status_lines_through_grep_cut_and_awk(self):
        self.assertEqual(words("git status --porcelain | grep '^??' | cut -c4- | xargs git add"),
                         (["docs/new.md", "vendor/"], True))
        self.assertEqual(words("git status -s -- docs | awk '{print $2}' | xargs git add"),
                         (["docs/new.md", "docs/usage.md"], True))
        self.assertEqual(words("git status --short | grep '^ M' | cut -c4- | xargs git checkout --", cwd="/r/src"),
                         (["../docs/usage.md", "api.py"], True))
        self.assertEqual(words("git diff --name-only | grep -v docs | head -1 | xargs git add"),
                         (["src/api.py", "src/gone.py"], False))
        self.assertIsNone(words("git diff --name-only | sed s/x/y/ | xargs git add"))
        self.assertIsNone(words("git status | xargs git add"))  # the long format

    def test_a_variable_the_line_set_to_a_lister_is_fed_like_the_lister(self):
        def fed(line):
            op = [o for o in classify.parse(line, TOP, cmdline.Context(), Lookup()) if o.kind != kinds.SAFE][0]
            op = fed_paths.with_fed_paths(op, TOP, STATES)
            return [p.text for p in op.paths], op.runtime

        expected = (["docs/usage.md", "src/api.py", "src/gone.py"], False)
        self.assertEqual(fed("files=$(git diff --name-only); git add $files"), expected)
        self.assertEqual(fed("files=$(git diff --name-only) && git add ${files} && git commit -m x"), expected)
        self.assertEqual(fed("f=$(git ls-files -d); cd src; git add $f"), (["src/gone.py"], False))  # as listed where set
        for line in ("files=$(git diff --name-only); files=$(cat x); git add $files",  # set again
                     "files=$(git diff --name-only; ls); git add $files"):  # two producers one after the other
            with self.subTest(line=line):
                self.assertTrue(fed(line)[1])  # known only at run time
        self.assertEqual(fed("files=$(git diff --name-only); for files in a; do :; done; git add $files"),
                         (["a"], False))  # the loop's value, not the lister's
        self.assertTrue(fed('files=$(git diff --name-only); git add "$files"')[1])  # one word of every line

    def test_a_loop_over_a_lister_gives_its_body_every_field_the_lister_prints(self):
        def fed(line):
            ops = [o for o in classify.parse(line, TOP, cmdline.Context(), Lookup()) if o.kind != kinds.SAFE]
            return [([p.text for p in o.paths], o.runtime) for o in (fed_paths.with_fed_paths(o, TOP, STATES) for o in ops)]

        expected = [(["docs/usage.md", "src/api.py", "src/gone.py"], False)]
        self.assertEqual(fed('for f in $(git diff --name-only); do git add "$f"; done'), expected)
        self.assertEqual(fed("for f in $(git diff --name-only); do git add $f; done"), expected)
        self.assertTrue(fed('for f in "$(git diff --name-only)"; do git add "$f"; done')[0][1])  # one iteration, one word

    def test_a_loop_over_a_lister_runs_its_command_once_a_field_so_no_run_fails_for_another(self):
        def precheck(line):
            op, = [o for o in classify.parse(line, TOP, cmdline.Context(), Lookup()) if o.kind != kinds.SAFE]
            return op.precheck

        self.assertIsNone(precheck('for f in $(git status --porcelain | cut -c4-); do git add "$f"; done'))
        self.assertIsNotNone(precheck("git add $(git status --porcelain | cut -c4-)"))  # one run: git refuses it whole

    def test_find_lists_files_on_disk(self):
        got = words("find src -name '*.py' | xargs git checkout --")
        self.assertEqual(got, (["src/api.py", "src/parser.py", "src/util.py"], True))  # not the deleted one
        self.assertEqual(words("find src -name '*.py' -newer x | xargs git add")[1], False)


class Grep(unittest.TestCase):
    def test_patterns_read_as_grep_reads_them(self):
        cases = [("docs", "G", "a/docs/b", True), ("^src/", "G", "lib/src/x", False), (r"\.py$", "G", "a.py", True),
                 ("[ab]c", "G", "xbc", True), ("a|b", "E", "zb", True), ("a|b", "G", "a|b", True),
                 ("x+", "G", "x+", True), ("^??", "G", "?? n", True), ("*.md", "G", "a*.md", True)]
        for pattern, kind, line, found in cases:
            with self.subTest(pattern=pattern, kind=kind):
                stage = feeds._grep("grep", (["-E"] if kind == "E" else []) + [pattern])
                self.assertEqual(feeds._run_stage(stage, line) is not None, found)
        for unread in (["-n", "x"], [r"\w+"], ["a\\{2\\}"], ["-E", "a{2}"], ["x", "file.txt"]):
            with self.subTest(unread=unread):
                self.assertIsNone(feeds._grep("grep", unread))


if __name__ == "__main__":
    unittest.main()
