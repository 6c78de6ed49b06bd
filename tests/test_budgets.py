"""Issue 35 item 2: every bound that stops the guard judging a line ends, beside a live peer's work,
in an ask that says what was not judged, and never in silence or an allow; alone, the line runs as
before. Make's expansion is bounded by the work done, not by what it yields.

Each pathological input below exercises one bound. The guard runs as the process Claude Code
starts (payload on stdin), in a real repository where a live peer (a real process) has an
untracked file; its wall time is asserted under a second, as the client kills a hook at 5 s and
then runs the line. Nothing of the repository is executed: the files are only read.
"""
import json
import os
import subprocess
import time
import unittest
from unittest import mock

import support
from peerhooks import hookio
from peerhooks.git import checkout_lookup, gitrepo
from peerhooks.guard import hook as guard_hook
from peerhooks.shell import cmdline, lexer, words
from peerhooks.shell.lexer import TooLarge
from peerhooks.wrappers import files as wrapper_files, makefile

SESSION = "this-session-0000"
WALL_SECONDS = 1.0  # each line's answer, as the client waits for it (it kills the hook at 5 s)
CHAIN = "true && " * 10000 + "git add -A"  # issue 35: allowed in 0.2 s
BIG_X = "x" * 100000


def _makefile(text):
    return {"Makefile": text}


def _aliases(*pairs):
    """A setup that defines git aliases in the repository."""
    def setup(repo):
        for name, value in pairs:
            subprocess.run(["git", "-C", repo, "config", "alias." + name, value], check=True)
    return setup


# (bound, the line, the files of the checkout (or a setup function), words the reason must hold)
BOUNDS = [
    # shell/lexer and shell/cmdline: the line itself
    ("lexer.MAX_TOKENS", CHAIN, {}, "more than 20000 words and operators"),
    ("lexer.MAX_TOKENS in `bash -c`", "bash -c '%s'" % CHAIN, {}, "more than 20000 words and operators"),
    ("lexer.MAX_TOKENS in `eval`", "eval '%s'" % CHAIN, {}, "more than 20000 words and operators"),
    ("lexer.MAX_TOKENS in a heredoc fed to bash", "bash <<'EOF'\n%s\nEOF" % CHAIN, {}, "more than 20000 words"),
    ("lexer.MAX_TOKENS in a script", "bash x.sh", {"x.sh": CHAIN + "\n"}, "what `bash x.sh` runs is too large"),
    ("lexer.MAX_NESTING", "echo " + "$(" * 30 + "git add -A" + ")" * 30, {}, "nested more than 24 deep"),
    ("cmdline.MAX_DEPTH (eval)", "eval " * 10 + "git add -A", {}, "nested more than 8 deep"),
    ("cmdline.MAX_DEPTH (substitutions)", "echo " + "$(echo " * 10 + "git add -A" + ")" * 10, {},
     "nested more than 8 deep"),
    ("cmdline.MAX_COMMANDS", "true; " * 2001 + "git add -A", {}, "more than 2000 commands"),
    ("cmdline.MAX_COMMANDS (loop iterations)", "for a in %s; do for b in %s; do git add $a$b; done; done" % (
        " ".join("a%d" % n for n in range(60)), " ".join("b%d" % n for n in range(60))), {},
     "more than 2000 loop iterations"),
    ("words.MAX_BRACE_WORDS (lists)", "rm " + "{a,b}" * 22 + " peer.py", {}, "braces make more than 256 words"),
    ("words.MAX_BRACE_WORDS (a range)", "git add f{1..100000}", {}, "braces make more than 256 words"),
    ("inline_code.MAX_PROGRAM_CHARS (writes)", "python3 -c \"" + "x=1;" * 20000 + "open('peer.py','w')\"", {},
     "code longer than 64 KB that may write files"),
    ("inline_code.MAX_PROGRAM_CHARS (git)", "python3 -c \"" + "x=1;" * 20000 + "import os; os.system('git add -A')\"",
     {}, "code longer than 64 KB that mentions git"),
    # wrappers: make
    ("makefile.MAX_EXPANSION_WORK (reading, issue 35)", "make commit", _makefile(
        "V = $(subst x,,%s)\n" % BIG_X + "".join("W%d := $(V)\n" % n for n in range(1000))
        + "commit:\n\tgit add -A && git commit -m x\n"), "the reading of Makefile is too large to judge"),
    ("makefile.MAX_EXPANSION_WORK (a recipe)", "make commit", _makefile(
        "V = $(subst x,,%s)\n" % BIG_X + "commit:\n\t" + "$(V)" * 1000 + "\n\tgit add -A\n"),
     "Makefile's expansion of `commit` is too large to judge"),
    ("makefile.MAX_EXPANSION_WORK (`$(subst)` making gigabytes)", "make commit", _makefile(
        "Y := " + "y" * 60000 + "\nZ := " + "x" * 60000 + "\ncommit:\n\t$(subst x,$(Y),$(Z))\n\tgit add -A\n"),
     "Makefile's expansion of `commit` is too large to judge"),
    ("makefile.MAX_EXPANSION_WORK (`$(foreach)` in `$(foreach)`)", "make commit", _makefile(
        "L := " + " ".join(["w"] * 256) + "\ncommit:\n\t$(foreach a,$(L),$(foreach b,$(L),$(foreach c,$(L),x)))\n"),
     "Makefile's expansion of `commit` is too large to judge"),
    ("makefile.MAX_EXPANSION_WORK (references nested in references)", "make commit", _makefile(
        "commit:\n\tgit add -A " + "$(a " * 15000 + ")" * 15000 + "\n"),
     "Makefile's expansion of `commit` is too large to judge"),
    ("makefile.MAX_EXPANSIONS", "make commit", _makefile(
        "L := " + " ".join(["w"] * 10001) + "\ncommit:\n\tgit add -A $(foreach a,$(L),$(a))\n"),
     "too large to judge (over 10000 references and calls)"),
    ("makefile.MAX_EXPANSION_DEPTH", "make commit", _makefile(
        "A0 = git add -A\n" + "".join("A%d = $(A%d)\n" % (n + 1, n) for n in range(40)) + "commit:\n\t$(A40)\n"),
     "references nested more than 32 deep"),
    ("makefile.MAX_INCLUDES (a makefile including itself)", "make commit", _makefile(
        "include Makefile\ncommit:\n\techo $(X)\n"), "includes are too many to judge"),
    ("makefile.MAX_TARGETS", "make all", _makefile(
        "all: " + " ".join("o%d" % n for n in range(300)) + "\n" + "".join("o%d:\n\t@true\n" % n for n in range(300))
        + "o299:\n\tgit add -A\n"), "more targets than the guard follows"),
    ("makefile.MAX_PREREQUISITE_DEPTH", "make t0", _makefile(
        "".join("t%d: t%d\n" % (n, n + 1) for n in range(40)) + "t40:\n\tgit add -A\n"),
     "more targets than the guard follows"),
    ("files.MAX_FILE_BYTES (an include)", "make commit", {
        "Makefile": "include big.mk\ncommit:\n\t$(SWEEP)\n",
        "big.mk": "SWEEP = git add -A\n" + "# padding\n" * (wrapper_files.MAX_FILE_BYTES // 10 + 1)},
     "the include big.mk is too large to judge"),
    ("files.MAX_FILE_BYTES (the Makefile)", "make commit", _makefile(
        "commit:\n\tgit add -A\n" + "# padding\n" * (wrapper_files.MAX_FILE_BYTES // 10 + 1)),
     "Makefile is too large to judge (larger than 128 KB)"),
    ("files.MAX_FILE_BYTES (a script)", "bash x.sh", {
        "x.sh": "git add -A\n" + "# padding\n" * (wrapper_files.MAX_FILE_BYTES // 10 + 1)}, "larger than 128 KB"),
    ("files.MAX_FILES", " && ".join("bash s%d.sh" % n for n in range(wrapper_files.MAX_FILES + 1)),
     {"s%d.sh" % n: "echo %d\n" % n for n in range(wrapper_files.MAX_FILES + 1)}, "more than 32 files"),
    # wrappers: the follower
    ("follower.MAX_LINES", "make commit", _makefile("commit:\n" + "\ttrue\n" * 600 + "\tgit add -A\n"),
     "more than the guard follows in one judgement"),
    ("follower.MAX_TEXT", "bash a.sh && bash b.sh", {
        "a.sh": "cat <<'EOF'\n" + "data\n" * 20000 + "EOF\n", "b.sh": "cat <<'EOF'\n" + "data\n" * 20000 + "EOF\n"},
     "more than the guard follows in one judgement"),
    ("follower depth (cmdline.MAX_DEPTH)", "make", _makefile("all:\n\t$(MAKE)\n"), "wrappers nested more than 8 deep"),
    # git: aliases
    ("classify.MAX_ALIAS_CHAIN", "git a1", _aliases(*[("a%d" % n, "a%d" % (n + 1)) for n in range(1, 12)]
                                                  + [("a12", "add -A")]), "git aliases of aliases more than 10 deep"),
    ("stakes.MAX_ALIAS_EXPANSIONS", " && ".join("git nosuch%d" % n for n in range(70)) + " && git sweep",
     _aliases(("sweep", "add -A")), "more than 64 git aliases or unknown git commands"),
]

ISSUE_MAKEFILE = next(case for case in BOUNDS if "issue 35" in case[0])

# Bounds that already end in a refusal naming the computed paths (the model is left unknown, never
# empty): pinned here so that they stay closed.
CLOSED_ALREADY = [
    ("words.MAX_LOOP_VALUES", "for f in %s peer.py; do git add $f; done" % " ".join("f%d" % n for n in range(70)),
     {}, "computes its paths only when it runs"),
    ("feed_sources.MAX_STAGES", "git ls-files -o" + " | cat" * 9 + " | xargs git add", {},
     "computes its paths only when it runs"),
]

# Hostile wrapper files that the guard already refuses in time: they must keep passing, under 3 s.
HOSTILE = [
    ("a Makefile that is a FIFO", "make commit", {"Makefile": os.mkfifo}, "not a regular file"),
    ("a Makefile linked to /dev/zero", "make commit", {"Makefile": lambda path: os.symlink("/dev/zero", path)},
     "a link out of the checkout"),
    ("a Makefile including itself", "make commit", _makefile("include Makefile\ncommit:\n\tgit add -A\n"),
     "git add -A"),
    ("a package.json 60,000 deep", "npm run commit", {"package.json": "[" * 60000 + "]" * 60000},
     "cannot be read as JSON"),
    ("`python -c` with 50,000 `(`", "python3 -c \"" + "(" * 50000 + "import os; os.system('git add -A')\"", {},
     "git add -A"),
]
HOSTILE_SECONDS = 3.0


class BesideAPeer(support.HomeTestCase):
    def checkout(self, files):
        """A checkout holding the files (a text, or a function making the file at its path), or
        set up by a function of the checkout, where a peer's new file waits uncommitted."""
        self.checkouts = getattr(self, "checkouts", 0) + 1
        setup = files if callable(files) else None
        texts = {} if setup else {k: v for k, v in files.items() if isinstance(v, str)}
        repo = self.repo("repo%d" % self.checkouts, dict({"README.md": "hello\n"}, **texts))
        for name, make in ({} if setup else files).items():
            if not isinstance(make, str):
                make(os.path.join(repo, name))
        if setup:
            setup(repo)
        with open(os.path.join(repo, "peer.py"), "w") as handle:
            handle.write("PEER = 1\n")  # the peer's work, untracked: what `git add -A` would sweep up
        return repo

    def guard(self, command, repo):
        """(decision, reason, wall seconds) of the guard run as the client runs it."""
        payload = {"session_id": SESSION, "hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": {"command": command}, "cwd": repo}
        started = time.monotonic()
        result = support.run_script("git_index_guard.py", payload, self.claude.env(), cwd=repo, process=True,
                                    timeout=30)
        elapsed = time.monotonic() - started
        self.assertEqual((result.returncode, result.stderr), (0, ""))
        output = json.loads(result.stdout)["hookSpecificOutput"] if result.stdout else {}
        return output.get("permissionDecision"), output.get("permissionDecisionReason", ""), elapsed

    def assertRefusedBesideThePeerAndSilentAlone(self, cases, seconds, decisions=("ask",), first_line=True):
        """Each case: refused beside a live peer (the reason's first line naming what was not
        judged), silent once the peer is gone, each answer within `seconds`."""
        for bound, command, files, named in cases:
            with self.subTest(bound=bound):
                repo = self.checkout(files)
                peer = self.claude.live_session(repo, name="busy-peer", edits=[os.path.join(repo, "peer.py")])
                decision, reason, elapsed = self.guard(command, repo)
                self.assertIn(decision, decisions, reason)
                self.assertIn(named, reason.splitlines()[0] if first_line else reason)
                self.assertIn("busy-peer", reason.splitlines()[0])
                self.assertLess(elapsed, seconds)
                peer.stop()
                decision, reason, elapsed = self.guard(command, repo)  # alone: it runs, as before
                self.assertEqual((decision, reason), (None, ""))
                self.assertLess(elapsed, seconds)


class EachBoundAsksBesideAPeerAndIsSilentAlone(BesideAPeer):
    """BOUNDS, one pathological input per bound: an ask naming what was not judged, within a second."""

    def test_every_bound_asks_naming_what_was_not_judged(self):
        self.assertRefusedBesideThePeerAndSilentAlone(BOUNDS, WALL_SECONDS)

    def test_bounds_that_leave_paths_unknown_still_refuse(self):
        self.assertRefusedBesideThePeerAndSilentAlone(CLOSED_ALREADY, WALL_SECONDS, ("ask", "deny"))

    def test_hostile_wrapper_files_are_still_refused_in_time(self):
        self.assertRefusedBesideThePeerAndSilentAlone(HOSTILE, HOSTILE_SECONDS, ("ask", "deny"), first_line=False)

    def test_the_first_line_says_what_was_not_judged_and_claims_nothing_git_would_do(self):
        _bound, command, files, _named = ISSUE_MAKEFILE
        repo = self.checkout(files)
        self.claude.live_session(repo, name="busy-peer", edits=[os.path.join(repo, "peer.py")])
        _decision, reason, _elapsed = self.guard(command, repo)
        first = reason.splitlines()[0]
        self.assertIn("`make commit` was not judged: the reading of Makefile is too large to judge", first)
        self.assertNotIn("would stage", reason)
        _decision, reason, _elapsed = self.guard(CHAIN, repo)
        self.assertIn("this command line is too large to judge in time (more than 20000 words", reason.splitlines()[0])
        self.assertNotIn("would stage", reason)

    def test_a_line_too_large_that_starts_outside_every_checkout_asks_beside_a_peer_anywhere(self):
        repo = self.checkout({})
        self.claude.live_session(repo, name="busy-peer", edits=[os.path.join(repo, "peer.py")])
        outside = os.path.join(self.tmp, "scratch")
        os.makedirs(outside)
        decision, reason, _elapsed = self.guard("cd %s && %s" % (repo, CHAIN), outside)
        self.assertEqual(decision, "ask")
        self.assertIn("in a checkout this line may reach", reason.splitlines()[0])


class TheShellModelsBounds(unittest.TestCase):
    """The same bounds on the pure model: TooLarge, never a quiet partial answer."""

    def test_a_substitution_past_the_nesting_bound_is_not_skipped(self):
        line = "echo " + "$(" * (lexer.MAX_NESTING + 1) + "git add -A" + ")" * (lexer.MAX_NESTING + 1)
        with self.assertRaises(TooLarge):
            lexer.tokenize(line)
        heredoc = "cat <<EOF\n" + "$(" * (lexer.MAX_NESTING + 1) + "git add -A\nEOF\n"
        with self.assertRaises(TooLarge):
            lexer.tokenize(heredoc)

    def test_backticks_spend_the_lines_token_budget(self):
        body = "a;" * (lexer.MAX_TOKENS // 2)
        with self.assertRaises(TooLarge):
            lexer.tokenize("echo `%s` `%s`" % (body, body))

    def test_a_nested_shell_spends_the_budget_its_substitutions_use_too(self):
        inner = "echo $(" + "a;" * (lexer.MAX_TOKENS // 4) + ")"
        with self.assertRaises(TooLarge):
            cmdline.commands("bash -c '%s'; bash -c '%s'; bash -c '%s'" % (inner, inner, inner), "/r")

    def test_walking_deeper_than_the_bound_raises(self):
        with self.assertRaises(TooLarge):
            cmdline.commands("eval " * (cmdline.MAX_DEPTH + 2) + "git add -A", "/r")
        self.assertEqual([c.name for c in cmdline.commands("eval " * 3 + "git add -A", "/r")][-1], "git")

    def test_the_walk_stops_once_its_time_is_spent(self):
        spent = cmdline.Context(spent=lambda: True)
        with self.assertRaises(TooLarge) as raised:
            cmdline.commands("git add -A", "/r", spent)
        self.assertIn("time", str(raised.exception))
        self.assertEqual([c.name for c in cmdline.commands("git add -A", "/r", cmdline.Context(spent=lambda: False))],
                         ["git"])

    def test_braces_expand_in_full_or_raise(self):
        self.assertEqual(words.brace_expand("f{1..3}.{c,h}"), ["f1.c", "f1.h", "f2.c", "f2.h", "f3.c", "f3.h"])
        self.assertEqual(len(words.brace_expand("x{1..256}")), 256)  # cut at 256 before: x257… went unjudged
        for word in ("x{1..257}", "{a,b}" * 9, "{a}" * 20000 + "{b,c}" * 9):
            with self.assertRaises(TooLarge):
                words.brace_expand(word)
        self.assertEqual(len(words.brace_expand("{a}" * 20000 + "{b,c}")), 2)  # linear in the braces it holds

    def test_a_loop_over_more_brace_words_reads_its_variable_as_unknown(self):
        found = cmdline.commands("for f in x{1..1000}; do git add $f; done", "/r")
        self.assertEqual([(c.name, dict(c.variables).get("f")) for c in found], [("git", None)])

    def test_write_targets_of_a_line_past_a_bound_are_none(self):
        self.assertEqual(cmdline.write_targets("rm " + "{a,b}" * 10, "/r"), [])


class MakesWorkIsBounded(unittest.TestCase):
    """peerhooks.wrappers.makefile: work counted as done, what yields nothing included."""

    ROOT = "/r"

    def follow(self, text, goals=("commit",)):
        from peerhooks.wrappers import make_invocation

        started = time.monotonic()
        found = makefile.follow(make_invocation.Invocation(list(goals), self.ROOT), {self.ROOT + "/Makefile": text}.get)
        return found, time.monotonic() - started

    def test_references_that_yield_nothing_still_spend_the_budget(self):
        (lines, unknown), elapsed = self.follow(ISSUE_MAKEFILE[2]["Makefile"])
        self.assertEqual(lines, [])
        self.assertEqual(unknown, ["the reading of Makefile is too large to judge (over %d KB scanned or made)"
                                   % (makefile.MAX_EXPANSION_WORK // 1024)])
        self.assertLess(elapsed, WALL_SECONDS)

    def test_a_function_is_charged_for_what_it_would_make_before_it_makes_it(self):
        text = "Y := " + "y" * 60000 + "\nZ := " + "x" * 60000 + "\ncommit:\n\t$(subst x,$(Y),$(Z))\n"
        (lines, unknown), elapsed = self.follow(text)
        self.assertIn("is too large to judge", unknown[0])
        self.assertLess(elapsed, WALL_SECONDS)

    def test_a_foreach_walks_every_word_or_says_it_could_not(self):
        many = "L := " + " ".join("w%d" % n for n in range(300)) + "\ncommit:\n\t$(foreach a,$(L),echo $(a);)\n"
        (lines, unknown), _elapsed = self.follow(many)
        self.assertEqual(unknown, [])
        self.assertIn("echo w299;", lines[0][0])  # cut at 256 words before: the rest went unjudged

    def test_an_ordinary_makefile_is_far_inside_the_budget(self):
        text = "CFLAGS = -O2 -Wall\nSRC := $(wildcard src/*.c)\nOBJ = $(SRC:.c=.o)\n" + "".join(
            "t%d: $(OBJ)\n\t$(CC) $(CFLAGS) -o $@ $^\n" % n for n in range(200)) + "commit: t0\n\tgit add -A\n"
        (lines, unknown), _elapsed = self.follow(text)
        self.assertEqual(unknown, [])
        self.assertEqual(lines[-1], ("git add -A", False))


class GitBounds(support.HomeTestCase):
    def test_past_the_worktrees_read_a_branch_counts_as_checked_out(self):
        repo = self.repo("repo", {"README.md": "hello\n"})
        folders = os.path.join(repo, ".git", "worktrees")
        for n in range(gitrepo.MAX_WORKTREES + 1):
            os.makedirs(os.path.join(folders, "w%02d" % n))
            with open(os.path.join(folders, "w%02d" % n, "HEAD"), "w") as handle:
                handle.write("ref: refs/heads/b%d\n" % n)
            with open(os.path.join(folders, "w%02d" % n, "gitdir"), "w") as handle:
                handle.write(os.path.join(self.tmp, "w%d" % n, ".git") + "\n")
        self.assertIsNone(gitrepo.worktree_heads(repo))
        self.assertIsNone(checkout_lookup.CheckoutLookup().checked_out("refs/heads/b%d" % gitrepo.MAX_WORKTREES, repo))


class TheReadTimeOfTheGuard(support.HomeTestCase):
    def test_a_guard_whose_reading_time_is_spent_asks_beside_a_peer(self):
        repo = self.repo("repo", {"README.md": "hello\n"})
        with open(os.path.join(repo, "peer.py"), "w") as handle:
            handle.write("PEER = 1\n")
        self.claude.live_session(repo, name="busy-peer", edits=[os.path.join(repo, "peer.py")])
        raw = support.payload_bytes({"session_id": SESSION, "hook_event_name": "PreToolUse", "tool_name": "Bash",
                                     "tool_input": {"command": "git add -A"}, "cwd": repo})  # as the client spells it
        with mock.patch.object(guard_hook, "READ_SECONDS", -1.0):
            outcome = guard_hook.run(hookio.decode_payload(raw), [], self.claude.env(), time.time())
        output = json.loads(outcome.stdout)["hookSpecificOutput"]
        self.assertEqual(output["permissionDecision"], "ask")
        self.assertIn("more than the guard can read in its time", output["permissionDecisionReason"])


if __name__ == "__main__":
    unittest.main()
