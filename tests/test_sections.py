"""Cold-start sections: what changed, the output budget, rendering, and the gatherers
(cold_start_sections, cold_start_gather, files, cold_start_git, user)."""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "scripts"))

from peerhooks.cold_start import files, gather as cold_start_gather, commits as cold_start_git  # noqa: E402
from peerhooks.cold_start import quiet as cold_start_quiet, sections as cold_start_sections, user  # noqa: E402
from peerhooks.claude.home import slug  # noqa: E402
from peerhooks.cold_start.sections import Section  # noqa: E402

GIT_ENV = {"GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "ada@example.org",
           "GIT_COMMITTER_NAME": "Ada", "GIT_COMMITTER_EMAIL": "ada@example.org",
           "GIT_CONFIG_NOSYSTEM": "1", "HOME": tempfile.gettempdir()}


def git(repo, *args):
    env = dict(os.environ, **GIT_ENV)
    return subprocess.run(["git", "-C", repo] + list(args), check=True, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE).stdout.decode()


def init_repo(path, commits=1):
    os.makedirs(path, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    for n in range(commits):
        git(path, "commit", "-q", "--allow-empty", "-m", "commit %d" % n)
    return os.path.realpath(path)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)




class PureTest(unittest.TestCase):
    a, b, c = Section("a", "A", "alpha"), Section("b", "B", "beta"), Section("c", "C", "")

    def test_fingerprint_is_sha256_of_the_utf8_body(self):
        self.assertEqual(cold_start_sections.fingerprint("é"), hashlib.sha256("é".encode()).hexdigest())

    def test_changed_sections_are_new_or_different_in_section_order(self):
        old = {"a": cold_start_sections.fingerprint("alpha"), "b": cold_start_sections.fingerprint("old beta")}
        self.assertEqual(cold_start_sections.changed_sections(old, [self.a, self.b, self.c]), ["b"])
        self.assertEqual(cold_start_sections.changed_sections({}, [self.b, self.a]), ["b", "a"])

    def test_empty_section_is_never_changed(self):
        self.assertEqual(cold_start_sections.changed_sections({}, [self.c]), [])

    def test_record_only_what_was_printed_and_keep_the_rest_pending(self):
        old = {"a": "old-a", "c": "old-c"}
        recorded = cold_start_sections.fingerprints_to_record(old, [self.a, self.b, self.c], printed=["b"])
        self.assertEqual(recorded, {"a": "old-a", "b": cold_start_sections.fingerprint("beta")})

    def test_full_emit_prints_every_section_under_banners_with_its_reason(self):
        emission = cold_start_sections.plan_emission([self.a, self.b, self.c], {}, None, "no state file yet")
        self.assertEqual(emission.text, "Cold start: full orientation (no state file yet).\n"
                                        "━━━ A ━━━\nalpha\n━━━ B ━━━\nbeta\n")
        self.assertEqual(emission.printed, ("a", "b"))

    def test_diff_prints_changed_sections_whole_under_a_header_saying_since_when(self):
        old = {"a": cold_start_sections.fingerprint("alpha")}
        emission = cold_start_sections.plan_emission([self.a, self.b], old, "2026-06-11T21:53:36Z", None)
        self.assertEqual(emission.text.splitlines(), [
            cold_start_sections.DIFF_HEADER + " (2026-06-11 21:53 UTC).", "━━━ B ━━━", "beta"])
        self.assertEqual(emission.printed, ("b",))

    MEMORY_V1 = "/m/MEMORY.md (first 40 lines):\n- [Testing](testing.md) - run the suite\n- [Old](old.md) - gone soon"
    MEMORY_V2 = "/m/MEMORY.md (first 40 lines):\n- [Testing](testing.md) - run the suite\n- [Queue](queue.md) - SQS"
    COMMITS_V1 = "Latest commits on branch main (hash, author, subject):\naaaaaaaaaaaa  Ada  second\nbbbbbbbbbbbb  Ada  init"
    COMMITS_V2 = ("Latest commits on branch main (hash, author, subject):\ncccccccccccc  Bo  third\n"
                  "aaaaaaaaaaaa  Ada  second\nbbbbbbbbbbbb  Ada  init")

    def loaded(self, memory, commits):
        return [Section("memory_index", "Memory index", memory), Section("recent_commits", "Recent commits", commits)]

    def test_a_fresh_key_is_not_shown_what_the_client_loaded_but_records_it(self):
        emission = cold_start_sections.plan_emission(self.loaded(self.MEMORY_V1, self.COMMITS_V1), {}, None,
                                                     "no state file yet",
                                                     client_loaded=cold_start_sections.CLIENT_LOADED)
        self.assertNotIn("run the suite", emission.text)
        self.assertNotIn("second", emission.text)
        self.assertIn(cold_start_sections.CLIENT_LOADED_NOTE, emission.text)
        self.assertEqual(sorted(emission.printed), ["memory_index", "recent_commits"])

    def test_a_returning_key_is_shown_the_index_lines_and_commits_since_its_last_start(self):
        old = {"memory_index": cold_start_sections.fingerprint(self.MEMORY_V1),
               "recent_commits": cold_start_sections.fingerprint(self.COMMITS_V1)}
        texts = {old["memory_index"]: self.MEMORY_V1, old["recent_commits"]: self.COMMITS_V1}
        emission = cold_start_sections.plan_emission(self.loaded(self.MEMORY_V2, self.COMMITS_V2), old,
                                                     "2026-06-11T21:53:36Z", None, texts,
                                                     client_loaded=cold_start_sections.CLIENT_LOADED)
        self.assertEqual(emission.text.splitlines()[1:], [
            "━━━ Memory index ━━━",
            "Lines added and removed since this agent last started here in /m/MEMORY.md (Claude Code loaded the new text):",
            "+ - [Queue](queue.md) - SQS", "- - [Old](old.md) - gone soon",
            "━━━ Recent commits ━━━",
            "Commits on branch main since this agent last started here:",
            "cccccccccccc  Bo  third"])

    def test_without_the_copy_it_saw_a_returning_key_gets_the_section_whole(self):
        old = {"recent_commits": cold_start_sections.fingerprint(self.COMMITS_V1)}
        emission = cold_start_sections.plan_emission([self.loaded(self.MEMORY_V1, self.COMMITS_V2)[1]], old, None,
                                                     None, {}, client_loaded=cold_start_sections.CLIENT_LOADED)
        self.assertIn("(no record of the commits shown before)", emission.text)
        self.assertIn("cccccccccccc  Bo  third", emission.text)

    def test_a_rewritten_branch_says_which_commits_are_gone(self):
        rewritten = "Latest commits on branch main (hash, author, subject):\ndddddddddddd  Ada  second again\nbbbbbbbbbbbb  Ada  init"
        section = cold_start_sections.loaded_changes(Section("recent_commits", "Recent commits", rewritten), self.COMMITS_V1)
        self.assertEqual(section.body.splitlines()[1:], ["dddddddddddd  Ada  second again", "No longer on the branch since then:",
                                                         "aaaaaaaaaaaa  Ada  second"])

    def test_under_codex_the_loaded_sections_are_shown_whole(self):
        emission = cold_start_sections.plan_emission(self.loaded(self.MEMORY_V1, self.COMMITS_V1), {}, None,
                                                     "no state file yet")
        self.assertIn("run the suite", emission.text)
        self.assertIn("aaaaaaaaaaaa  Ada  second", emission.text)

    def test_nothing_changed_says_nothing(self):
        old = {"a": cold_start_sections.fingerprint("alpha")}
        emission = cold_start_sections.plan_emission([self.a, self.c], old, "2026-06-11T21:53:36Z", None)
        self.assertEqual(emission.text, "")
        self.assertEqual(emission.printed, ())

    def test_full_emit_of_an_empty_workspace_says_so(self):
        emission = cold_start_sections.plan_emission([self.c], {}, None, "no state file yet")
        self.assertIn(cold_start_sections.EMPTY_WORKSPACE, emission.text)

    def test_sections_over_budget_are_shown_over_two_starts_none_lost(self):
        big = [Section(k, k.upper(), (k + " line\n") * 500) for k in ("x", "y", "z")]
        first = cold_start_sections.plan_emission(big, {}, None, "no state file yet")
        self.assertLess(len(first.text), cold_start_sections.BUDGET_CHARS)
        self.assertEqual(first.left_out, ("z",))
        self.assertIn("Left out to stay under 9000 characters (shown at the next start): Z.",
                      first.text)
        recorded = cold_start_sections.fingerprints_to_record({}, big, first.printed)
        second = cold_start_sections.plan_emission(big, recorded, "2026-06-11T21:53:36Z", None)
        self.assertEqual(second.printed, ("z",))
        self.assertLess(len(second.text), cold_start_sections.BUDGET_CHARS)
        recorded = cold_start_sections.fingerprints_to_record(recorded, big, second.printed)
        third = cold_start_sections.plan_emission(big, recorded, "2026-06-11T21:53:36Z", None)
        self.assertEqual(third.text, "")

    def test_a_smaller_later_section_still_fits_after_a_big_one_is_left_out(self):
        wanted = [Section("x", "X", "x" * 5000), Section("y", "Y", "y" * 5000),
                  Section("s", "S", "small")]
        emission = cold_start_sections.plan_emission(wanted, {}, None, "r")
        self.assertEqual(emission.printed, ("x", "s"))
        self.assertEqual(emission.left_out, ("y",))

    def test_capped_section_always_fits_alone_with_every_user_section_left_out(self):
        body = cold_start_sections.cap("w" * 100 + "\n" + "v" * 50000)
        self.assertLessEqual(len(body), cold_start_sections.SECTION_MAX_CHARS)
        others = [Section("u%02d" % n, "u" * user.MAX_USER_KEY_CHARS, "x" * 6000)
                  for n in range(user.MAX_USER_SECTIONS)]
        emission = cold_start_sections.plan_emission([Section("big", "Big", body)] + others, {}, None, "r")
        self.assertEqual(emission.printed[:1], ("big",))
        self.assertLess(len(emission.text), cold_start_sections.BUDGET_CHARS)

    def test_continues_line_is_one_line_naming_the_source(self):
        line = cold_start_quiet.continues_line("compact")
        self.assertEqual(line.count("\n"), 1)
        self.assertIn("compact", line)


class UserConfigTest(unittest.TestCase):
    def setUp(self):
        self.root = os.path.realpath(tempfile.mkdtemp(prefix="sections-config-"))
        self.addCleanup(shutil.rmtree, self.root, True)

    def parse(self, value):
        return user.parse_user_config(json.dumps(value), self.root)

    def test_valid_entries_resolve_inside_the_workspace(self):
        entries, problem = self.parse([{"key": "plan", "file": "docs/PLAN.md", "lines": 5}])
        self.assertIsNone(problem)
        self.assertEqual(entries, [user.UserSection(
            "plan", os.path.join(self.root, "docs", "PLAN.md"), 5)])

    def test_each_kind_of_bad_config_is_one_problem_and_no_entries(self):
        bad = [
            {"key": "x"},
            [{"key": "x", "file": "../outside.md"}],
            [{"key": "x", "file": "/etc/passwd"}],
            [{"key": "rules", "file": "a.md"}],
            [{"key": "x", "file": "a.md"}, {"key": "x", "file": "b.md"}],
            [{"key": "x", "file": "a.md", "lines": 0}],
            [{"key": "x", "file": "a.md", "lines": True}],
            [{"key": "", "file": "a.md"}],
            [{"key": "x\ny", "file": "a.md"}],
            [{"key": "x", "command": "ls"}],
            ["a.md"],
        ]
        for value in bad:
            entries, problem = self.parse(value)
            self.assertEqual(entries, [], value)
            self.assertTrue(problem and "\n" not in problem, value)

    def test_symlink_escaping_the_workspace_is_refused(self):
        os.symlink("/etc", os.path.join(self.root, "escape"))
        _, problem = self.parse([{"key": "x", "file": "escape/hostname"}])
        self.assertIn("inside the workspace", problem)

    def test_bad_json_is_reported_in_one_line_and_ignored(self):
        write(os.path.join(self.root, ".claude", "cold-start.json"), "[{")
        found, problem = user.gather_user_sections(self.root)
        self.assertEqual(found, [])
        self.assertIn("ignored", problem)
        self.assertNotIn("\n", problem)

    def test_user_section_shows_the_head_of_its_file_and_missing_file_is_empty(self):
        write(os.path.join(self.root, ".claude", "cold-start.json"), json.dumps([
            {"key": "plan", "file": "PLAN.md", "lines": 2}, {"key": "gone", "file": "nope.md"}]))
        write(os.path.join(self.root, "PLAN.md"), "one\ntwo\nthree\n")
        found, problem = user.gather_user_sections(self.root)
        self.assertIsNone(problem)
        self.assertEqual([s.key for s in found], ["plan", "gone"])
        self.assertTrue(found[0].body.endswith("one\ntwo"))
        self.assertEqual(found[1].body, "")


class GatherTest(unittest.TestCase):
    def setUp(self):
        self.tmp = os.path.realpath(tempfile.mkdtemp(prefix="sections-gather-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.home = os.path.join(self.tmp, "home", ".claude")
        os.makedirs(self.home)
        self.repo = init_repo(os.path.join(self.tmp, "repo"), commits=2)

    def workspace(self, root=None, toplevel="repo"):
        root = root or self.repo
        return cold_start_gather.Workspace(root, self.repo if toplevel == "repo" else toplevel, self.home)

    def gathered(self, **kwargs):
        return {s.key: s.body for s in cold_start_gather.gather(self.workspace(**kwargs)).sections}

    def memory(self, root=None):
        folder = os.path.join(self.home, "projects", slug(root or self.repo), "memory")
        os.makedirs(folder, exist_ok=True)
        return folder

    def rules(self):
        return [s for s in cold_start_gather.gather(self.workspace()).sections if cold_start_sections.is_rule(s)]

    def test_rule_files_are_sections_of_their_own_workspace_then_home(self):
        write(os.path.join(self.repo, "CLAUDE.md"), "be kind")
        write(os.path.join(self.repo, ".claude", "rules", "b", "z.md"), "z")
        write(os.path.join(self.repo, ".claude", "rules", "a.md"), "a")
        write(os.path.join(self.repo, ".claude", "rules", "notes.txt"), "not a rule")
        write(os.path.join(self.home, "CLAUDE.md"), "home")
        write(os.path.join(self.home, "rules", "r.md"), "r")
        rules = self.rules()
        self.assertEqual([s.title for s in rules], [
            os.path.join(self.repo, "CLAUDE.md"),
            os.path.join(self.repo, ".claude", "rules", "a.md"),
            os.path.join(self.repo, ".claude", "rules", "b", "z.md"),
            os.path.join(self.home, "CLAUDE.md"),
            os.path.join(self.home, "rules", "r.md")])
        self.assertEqual(rules[0].digest, hashlib.sha256(b"be kind").hexdigest())
        self.assertEqual(rules[0].body, "be kind")

    def test_changed_rule_file_changes_only_its_own_fingerprint(self):
        write(os.path.join(self.repo, "CLAUDE.md"), "v1")
        write(os.path.join(self.repo, "CLAUDE.local.md"), "local")
        before = [cold_start_sections.fingerprint_of(s) for s in self.rules()]
        write(os.path.join(self.repo, "CLAUDE.md"), "v2")
        after = [cold_start_sections.fingerprint_of(s) for s in self.rules()]
        self.assertEqual([a == b for a, b in zip(before, after)], [False, True])

    def test_a_rule_file_over_the_limit_is_never_read_and_fingerprinted_by_size_and_mtime(self):
        path = os.path.join(self.repo, "CLAUDE.md")
        with open(path, "wb") as handle:
            handle.truncate(files.RULE_TEXT_MAX_BYTES + 1)  # sparse: no disk, but "large"
        with mock.patch.object(files, "read_regular", side_effect=AssertionError("read")):
            first = files.rule_section(path, (self.repo,))
        self.assertEqual(first.body, "")
        self.assertEqual(first.digest, self.rules()[0].digest)
        os.utime(path, (5, 5))
        self.assertNotEqual(first.digest, self.rules()[0].digest)

    def test_memory_index_is_the_head_of_memory_md_under_the_git_root_slug(self):
        lines = ["- entry %d" % n for n in range(60)]
        write(os.path.join(self.memory(), "MEMORY.md"), "\n".join(lines))
        os.makedirs(os.path.join(self.repo, "sub"))
        body = self.gathered(root=os.path.join(self.repo, "sub"))["memory_index"]
        self.assertIn("- entry 39", body)
        self.assertNotIn("- entry 40", body)

    def test_handoff_is_the_newer_of_repo_root_and_memory_folder(self):
        in_memory = os.path.join(self.memory(), "HANDOFF.md")
        write(in_memory, "from memory")
        self.assertIn("from memory", self.gathered()["handoff"])
        write(os.path.join(self.repo, "HANDOFF.md"), "from root")
        os.utime(in_memory, (1, 1))
        self.assertIn("from root", self.gathered()["handoff"])

    def test_handoff_outside_a_repository_is_the_workspace_roots(self):
        plain = os.path.join(self.tmp, "plain")
        write(os.path.join(plain, "HANDOFF.md"), "plain handoff")
        self.assertIn("plain handoff", self.gathered(root=plain, toplevel=None)["handoff"])

    def test_recent_commits_are_the_last_15_with_fixed_length_hashes_and_branch(self):
        for n in range(16):
            git(self.repo, "commit", "-q", "--allow-empty", "-m", "more %d" % n)
        body = self.gathered()["recent_commits"]
        lines = body.splitlines()
        self.assertEqual(lines[0], "Latest commits on branch main (hash, author, subject):")
        self.assertEqual(len(lines), 16)
        self.assertTrue(all(len(line.split("  ")[0]) == 12 for line in lines[1:]))
        self.assertTrue(lines[1].endswith("Ada  more 15"))

    def test_head_commit_is_read_from_loose_packed_detached_and_worktree_heads(self):
        expected = git(self.repo, "rev-parse", "HEAD").strip()
        self.assertEqual(cold_start_git.head_commit(self.repo), expected)
        git(self.repo, "pack-refs", "--all")
        self.assertEqual(cold_start_git.head_commit(self.repo), expected)
        linked = os.path.join(self.tmp, "linked")
        git(self.repo, "worktree", "add", "-q", "--detach", linked)
        self.assertEqual(cold_start_git.head_commit(os.path.realpath(linked)), expected)
        git(self.repo, "checkout", "-q", "--detach")
        self.assertEqual(cold_start_git.head_commit(self.repo), expected)

    def test_recent_commits_run_no_git_until_head_moves(self):
        first = self.gathered()["recent_commits"]
        with mock.patch("subprocess.run") as run:
            self.assertEqual(self.gathered()["recent_commits"], first)
        run.assert_not_called()
        git(self.repo, "commit", "-q", "--allow-empty", "-m", "newest")
        self.assertIn("newest", self.gathered()["recent_commits"])
        git(self.repo, "checkout", "-q", "-b", "other")
        self.assertIn("on branch other", self.gathered()["recent_commits"])

    def test_worktrees_list_main_and_linked_with_their_branches(self):
        self.assertEqual(self.gathered()["worktrees"], "")
        linked = os.path.join(self.tmp, "linked")
        git(self.repo, "worktree", "add", "-q", "-b", "feature", linked)
        body = self.gathered()["worktrees"]
        self.assertEqual(body.splitlines()[1:], [
            "%s  branch main (main)" % self.repo,
            "%s  branch feature" % os.path.realpath(linked)])
        from_linked = cold_start_gather.gather(cold_start_gather.Workspace(linked, linked, self.home)).sections
        self.assertEqual({s.key: s.body for s in from_linked}["worktrees"], body)

    def test_non_repo_workspace_has_no_git_sections_and_runs_no_git(self):
        plain = os.path.join(self.tmp, "plain")
        os.makedirs(plain)
        with mock.patch("subprocess.run") as run:
            found = self.gathered(root=plain, toplevel=None)
        run.assert_not_called()
        self.assertEqual(found["recent_commits"], "")
        self.assertEqual(found["worktrees"], "")

    def test_gathering_runs_at_most_two_git_processes(self):
        real = subprocess.run
        with mock.patch("subprocess.run", side_effect=real) as run:
            self.gathered()
        self.assertLessEqual(run.call_count, 2)

    def test_bodies_are_identical_when_nothing_changed(self):
        write(os.path.join(self.repo, "CLAUDE.md"), "rule")
        write(os.path.join(self.memory(), "MEMORY.md"), "- a\n- b\n")
        first = self.gathered()
        os.utime(os.path.join(self.repo, "CLAUDE.md"), (1, 1))
        self.assertEqual(first, self.gathered())

    def test_empty_sections_are_present_but_empty(self):
        found = self.gathered(root=os.path.join(self.tmp, "repo"))
        self.assertEqual(found["handoff"], "")
        self.assertEqual(found["memory_index"], "")


if __name__ == "__main__":
    unittest.main()
