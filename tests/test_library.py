"""The shared library on its own: payload and output, intent, slugs, registry, history, transcripts."""
import contextlib
import io
import json
import os
import subprocess
import sys
import unittest
from unittest import mock

import support  # noqa: F401  (puts scripts/ on sys.path)
from fixtures import claudehome
from peerhooks.claude import activity, budget, formats, editscan, headtailindex, history, home, identity, intent, jsonl, names, registry, transcripts
from peerhooks.git import gitrepo, gitstate
from peerhooks import hookio
from peerhooks.startup import jsonfast
from peerhooks.text import peertext, render
from peerhooks.text.timeutil import iso_to_ms


class PayloadAndOutput(unittest.TestCase):
    def test_payload_is_one_json_line_and_missing_newline_is_fine(self):
        self.assertEqual(hookio.read_raw(io.BytesIO(b'{"cwd": "/x"}')), b'{"cwd": "/x"}')
        self.assertEqual(hookio.read_raw(io.BytesIO(b'{"a": 1}\n{"b": 2}\n')), b'{"a": 1}\n')
        self.assertEqual(hookio.decode_payload(b'{"cwd": "/x", "session_id": "s"}').session_id, "s")

    def test_garbage_empty_or_non_object_payload_is_empty(self):
        deep = b"[" * 100000 + b"]" * 100000
        for raw in (b"", b"\xff\xfe\x00garbage", b"[1, 2]", b"null", b"{not json", deep):
            payload = hookio.decode_payload(raw)
            self.assertEqual([getattr(payload, f) for f in hookio.Payload.__slots__],
                             [None] * len(hookio.Payload.__slots__), raw[:20])

    def test_fields_that_are_not_non_empty_strings_read_as_absent(self):
        payload = hookio.decode_payload(b'{"cwd": 7, "session_id": "", "tool_input": {"command": ["x"]}}')
        self.assertEqual((payload.cwd, payload.session_id, payload.command), (None, None, None))

    def test_working_folder_is_payload_cwd_then_project_dir_then_process_cwd(self):
        here = os.getcwd()
        existing = os.path.dirname(os.path.abspath(__file__))
        written = claudehome.client_path  # as the client writes a path (a native one on Windows)
        project = {"CLAUDE_PROJECT_DIR": written("/p")}
        self.assertEqual(hookio.Payload({"cwd": written(existing)}).working_folder(project), existing)
        self.assertEqual(hookio.Payload({"cwd": written("/no/such")}).working_folder(project), "/p")
        self.assertEqual(hookio.Payload({}).working_folder({}), here)
        self.assertEqual(hookio.Payload({"cwd": written(existing)}).start_folder({"CLAUDE_PROJECT_DIR": written(here)}),
                         here)
        self.assertIsNone(hookio.Payload({}).start_folder({}))

    def _serve(self, run):
        errors, out = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(out):
            code = hookio.serve("t", run, [], raw=b"{}")
        return code, out.getvalue(), errors.getvalue()

    def test_any_exception_in_a_hook_exits_zero_with_one_stderr_line(self):
        def broken(*_):
            raise ValueError("boom\nsecond line")

        def exits_two(*_):
            raise SystemExit(2)

        self.assertEqual(self._serve(broken), (0, "", "peerhooks t: ValueError: boom second line\n"))
        self.assertEqual(self._serve(exits_two), (0, "", "peerhooks t: SystemExit: 2\n"))

    def test_only_a_deliberate_refusal_exits_two_and_odd_codes_become_zero(self):
        refuse = hookio.Outcome(hookio.EXIT_REFUSE, stderr="no: a peer")
        self.assertEqual(self._serve(lambda *_: refuse), (2, "", "no: a peer\n"))
        self.assertEqual(self._serve(lambda *_: hookio.Outcome(7, stdout="x"))[0], 0)

    def test_state_advances_only_after_delivery_and_warnings_are_one_line(self):
        calls = []

        def after(delivered):
            calls.append(delivered)
            return ["later problem"]

        outcome = hookio.Outcome(stdout="text", warnings=["first"], after_delivery=after)
        self.assertEqual(self._serve(lambda *_: outcome), (0, "text\n", "peerhooks t: first; later problem\n"))
        self.assertEqual(calls, [True])


class Intent(unittest.TestCase):
    def test_a_prompt_counts_as_intent_with_five_words(self):
        self.assertTrue(intent.is_substantive("fix the flaky login test"))
        self.assertFalse(intent.is_substantive("yes go ahead then"))

    def test_commands_shell_escapes_tags_and_compaction_are_not_intent(self):
        for text in ("/compact please keep the parser notes", "!git status and then the log too",
                     "<command-name>/clear</command-name> and more words here",
                     "This session is being continued from a previous conversation that ran out"):
            self.assertFalse(intent.is_substantive(text), text)

    def test_long_prompts_are_folded_and_cut(self):
        line = peertext.one_line("a\nb " + "x" * 400, intent.PROMPT_CHARS)
        self.assertNotIn("\n", line)
        self.assertLessEqual(len(line), intent.PROMPT_CHARS)


class Slugs(unittest.TestCase):
    @unittest.skipIf(support.SIMULATED == "win32", "slugs of POSIX paths; Windows' own: test_platform")
    def test_every_character_outside_ascii_alphanumerics_becomes_a_dash(self):
        self.assertEqual(home.slug("/home/me/work/repo"), "-home-me-work-repo")
        self.assertEqual(home.slug("C:\\work"), "C--work")
        self.assertEqual(home.slug("/tmp/my repo.v2/é"), "-tmp-my-repo-v2--")

    def test_claude_config_dir_wins_over_home(self):
        self.assertEqual(home.claude_home({"CLAUDE_CONFIG_DIR": "/x/cfg"}), "/x/cfg")

    def test_the_given_environments_home_is_used_not_this_processes(self):
        given = {"HOME": claudehome.client_path("/given/home")}
        self.assertEqual(home.claude_home(given), "/given/home/.claude")
        self.assertEqual(home.codex_home(given), "/given/home/.codex")
        self.assertEqual(home.claude_home(dict(given, CLAUDE_CONFIG_DIR="~/cfg")), "/given/home/cfg")



class LongSlugs(support.HomeTestCase):
    def test_long_slug_matches_by_its_200_character_prefix(self):
        long_path = "/" + "a" * 120 + "/" + "b" * 120
        folder = os.path.join(self.claude.home, "projects", claudehome.project_folder_name(long_path))
        os.makedirs(folder)
        self.assertEqual(home.project_dirs(self.claude.home, long_path), [folder])


class Timestamps(unittest.TestCase):
    def test_iso_timestamps_parse_to_epoch_milliseconds(self):
        self.assertEqual(iso_to_ms("2026-11-30T04:27:09.123Z"), 1796012829123)
        self.assertEqual(iso_to_ms("1970-01-01T00:00:00Z"), 0)
        self.assertIsNone(iso_to_ms("not a time at all"))


class Rendering(unittest.TestCase):
    def test_least_important_block_shrinks_first_then_blocks_go(self):
        blocks = [["A" * 50, "A"], ["B" * 50, "B"], ["C" * 50, "C"]]
        self.assertEqual(render.fit(blocks, 1000), "\n".join(b[0] for b in blocks))
        self.assertEqual(render.fit(blocks, 110), "A" * 50 + "\n" + "B" * 50 + "\nC")
        self.assertEqual(render.fit(blocks, 9), "A\nB\nC")
        self.assertEqual(render.fit(blocks, 5, more_line=lambda n: "+%d" % n), "A\n+2")


class Registry(support.HomeTestCase):
    def write(self, name, content):
        path = os.path.join(self.claude.home, "sessions", name)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(content)

    def test_entries_without_required_fields_legacy_and_corrupt_files_are_skipped(self):
        self.write("1.json", "{not json")
        cwd = claudehome.client_path("/x")
        self.write("2.json", json.dumps({"pid": 2, "cwd": cwd}))
        self.write("pid-3.json", json.dumps({"pid": 3, "session_id": "s", "cwd": cwd}))
        self.write("4.json", json.dumps({"pid": 4, "sessionId": "s4", "cwd": cwd}))
        self.write("5.json", "\x00\xff binary")
        self.assertEqual([s.session_id for s in registry.read_sessions(self.claude.home)], ["s4"])

    def test_a_live_process_with_matching_proc_start_is_live(self):
        peer = self.claude.live_session(self.tmp)
        (session,) = registry.read_sessions(self.claude.home)
        self.assertEqual(session.pid, peer.pid)
        self.assertTrue(registry.is_alive(session))

    @unittest.skipUnless(os.path.isdir("/proc"), "procStart is checked where /proc exists")
    def test_a_reused_pid_is_not_live(self):
        process = self.claude.spawn()
        self.claude.registry_entry(process.pid, "old", self.tmp, proc_start_value="1")
        (session,) = registry.read_sessions(self.claude.home)
        self.assertFalse(registry.is_alive(session))

    def test_a_dead_pid_is_not_live(self):
        peer = self.claude.live_session(self.tmp)
        peer.stop()
        (session,) = registry.read_sessions(self.claude.home)
        self.assertFalse(registry.is_alive(session))

    @unittest.skipUnless(support.SIMULATED == "linux", "a date string is macOS's own format (test_platform)")
    def test_an_old_date_string_proc_start_falls_back_to_the_pid(self):
        process = self.claude.spawn()
        self.claude.registry_entry(process.pid, "s", self.tmp, proc_start_value="Thu Jun 11 21:53:36 2026")
        (session,) = registry.read_sessions(self.claude.home)
        self.assertTrue(registry.is_alive(session))

    def test_this_process_is_an_ancestor_of_its_children(self):
        out = subprocess.run(
            [sys.executable, "-c", "import sys; sys.path.insert(0, %r); from peerhooks.claude import registry; "
             "print(sorted(registry.ancestor_pids()))" % support.SCRIPTS],
            stdout=subprocess.PIPE, check=True).stdout
        self.assertIn(os.getpid(), json.loads(out))

    def test_own_ids_are_the_payloads_and_the_ancestor_entrys_stale_one(self):
        cwd = claudehome.client_path("/r")
        mine = registry.parse_entry({"pid": os.getppid(), "sessionId": "before-clear", "cwd": cwd})
        other = registry.parse_entry({"pid": 999999999, "sessionId": "peer", "cwd": cwd})
        ids = registry.own_ids([mine, other], "after-clear", frozenset([os.getppid()]))
        self.assertEqual(ids, {"after-clear", "before-clear"})
        self.assertEqual(registry.own_ids([mine, other], None, frozenset()), set())


class RememberedNames(unittest.TestCase):
    """A session seen before its registry entry existed is remembered by its possible processes."""

    def live(self, session_id, pid, start, name="repo-1f"):
        return registry.Session(pid, session_id, "/repo", name, None, None, None, None, None, None, start)

    def test_possible_processes_stop_below_another_sessions_process(self):
        chain = [(30, "300"), (20, None), (10, "100"), (5, "50")]  # sh, ?, claude, an outer claude
        self.assertEqual(names.possible_processes(chain, {5}), [[30, "300"], [10, "100"]])

    def test_an_id_seen_before_its_registry_entry_is_an_earlier_context_once_its_process_has_another(self):
        table = names.with_unregistered({}, "old-id", [[30, "300"], [10, "100"]], 1000)
        self.assertEqual(identity.earlier_contexts(table, [self.live("new-id", 10, "100")]), {"old-id"})
        self.assertEqual(identity.earlier_contexts(table, [self.live("new-id", 10, "999")]), set())
        self.assertEqual(identity.earlier_contexts(table, [self.live("old-id", 10, "100")]), set())

    def test_a_registry_entry_replaces_the_possible_processes_and_never_the_reverse(self):
        table = names.with_unregistered({}, "old-id", [[10, "100"]], 1000)
        table = names.merged(table, [self.live("old-id", 10, "100", name="repo-2a")], 2000)
        self.assertEqual(table["old-id"], ["repo-2a", 2000, 10, "100"])
        self.assertIsNone(names.with_unregistered(table, "old-id", [[30, "300"]], 3000))
        self.assertIsNone(names.with_unregistered({}, "old-id", [], 3000))


    def test_each_start_records_when_a_live_session_was_last_seen_and_a_dead_one_keeps_its_sighting(self):
        live, dead = self.live("live-id", 10, "100"), self.live("dead-id", 20, "200")
        table = names.merged({}, [live, dead], 1000, live_ids={"live-id", "dead-id"})
        table = names.merged(table, [live, dead], 5000, live_ids={"live-id"})  # dead-id's process is gone
        self.assertEqual((names.last_seen_ms(table["live-id"]), names.last_seen_ms(table["dead-id"])), (5000, 1000))
        self.assertIsNone(names.merged(table, [live, dead], 5000, live_ids={"live-id"}))  # nothing new: no write


class HowASessionEnded(unittest.TestCase):
    """What each version's transcript says of its session's end (fixtures/samples, written by the CLI)."""

    SAMPLES = os.path.join(support.REPO, "fixtures", "samples")

    def tail(self, name):
        return transcripts.read_tail(os.path.join(self.SAMPLES, name))

    def test_an_exit_is_the_moment_2_1_332s_end_record_says(self):
        tail = self.tail("2.1.332/transcript-interactive-after-clear.jsonl")  # /exit typed at ...273649 (history)
        self.assertEqual((tail.exited, tail.exited_ms), (True, 1796090273688))
        self.assertLess(tail.ended_at_ms, tail.exited_ms)  # its last record was its last turn, before /exit

    def test_a_clear_ends_the_id_it_leaves_at_the_next_ids_start(self):
        tail = self.tail("2.1.332/transcript-interactive.jsonl")
        self.assertEqual((tail.exited, tail.exited_ms), (True, 1796090270954))

    def test_2_1_197_records_a_typed_exit_and_nothing_at_other_ends(self):
        exited = self.tail("transcript-interactive-after-clear.jsonl")
        self.assertEqual((exited.exited, exited.exited_ms), (True, iso_to_ms("2026-11-30T04:34:45.912Z")))
        cleared = self.tail("transcript-interactive.jsonl")
        self.assertEqual((cleared.exited, cleared.exited_ms), (None, None))  # cannot be told

    def test_a_2_1_332_transcript_without_an_end_record_after_its_last_turn_was_killed(self):
        tail = self.tail("2.1.332/transcript-subagent-agent-a60022367410877da.jsonl")  # no end record, ever
        self.assertEqual((tail.exited, tail.exited_ms), (False, None))

    def test_a_forks_end_record_counting_from_its_parents_start_gives_no_moment(self):
        tail = self.tail("2.1.332/transcript-print-fork.jsonl")
        self.assertEqual((tail.exited, tail.exited_ms), (True, None))


class ChainsThroughTheProcessIndex(unittest.TestCase):
    """chain_ids gives the same chain whether it walks the whole table or the process index."""

    def test_every_session_of_generated_tables_gets_the_same_chain_either_way(self):
        import random

        rng = random.Random(20261203)
        for _ in range(200):
            table = {}
            for number in range(rng.randint(0, 30)):
                pid, start = rng.choice([10, 11, 12, 13]), rng.choice(["100", "200", None])
                name, seen = rng.choice(["repo-1f", "repo-2a", None]), rng.randint(0, 50)
                if rng.random() < 0.3:  # seen before its registry entry: its possible processes
                    table["s%d" % number] = [name, seen, [[pid, start], [rng.choice([20, 21]), "300"]]]
                else:
                    table["s%d" % number] = [name, seen, pid, start]
            index = identity.process_index(table)
            for session_id in list(table) + ["new"]:
                for processes, name in (([(10, "100")], None), ([(11, None)], "repo-1f"), ([(12, "200"), (20, "300")], None)):
                    self.assertEqual(identity.chain_ids(session_id, processes, table, name, index=index),
                                     identity.chain_ids(session_id, processes, table, name), (table, session_id))


class ReadingRegularFiles(support.HomeTestCase):
    """safefiles.read_regular reads what a file object's read(limit) reads."""

    def test_sizes_and_limits_read_as_a_file_object_reads_them(self):
        from peerhooks.state import safefiles

        path = os.path.join(self.tmp, "f")
        for size in (0, 1, 1000, 64 * 1024, 200 * 1024 + 7):
            with open(path, "wb") as handle:
                handle.write(os.urandom(size))
            for limit in (-1, 0, 1, 999, 1000, 1001, 64 * 1024 + 1, 10 ** 7):
                with open(path, "rb") as handle:
                    self.assertEqual(safefiles.read_regular(path, limit), handle.read(limit), (size, limit))

    @unittest.skipUnless(os.path.exists("/proc/self/stat"), "a /proc file: size 0, content read to its end")
    def test_a_file_whose_size_says_nothing_is_read_to_its_end(self):
        from peerhooks.state import safefiles

        self.assertTrue(safefiles.read_regular("/proc/self/status").startswith(b"Name:"))


class Checkouts(support.HomeTestCase):
    def test_subfolder_shares_the_toplevel_but_a_linked_worktree_does_not(self):
        repo = self.repo()
        os.makedirs(os.path.join(repo, "sub", "deep"))
        worktree = os.path.join(repo, ".claude", "worktrees", "w1")
        subprocess.run(["git", "-C", repo, "worktree", "add", "-q", worktree], check=True)
        self.assertEqual(gitrepo.toplevel(os.path.join(repo, "sub", "deep")), repo)
        self.assertEqual(gitrepo.toplevel(worktree), os.path.realpath(worktree))
        self.assertEqual(gitrepo.canonical_root(os.path.realpath(worktree)), repo)

    def test_a_folder_outside_any_checkout_has_no_toplevel(self):
        self.assertIsNone(gitrepo.toplevel(self.tmp))

    def test_git_state_is_each_paths_state_as_git_holds_it_now(self):
        repo = self.repo(files={"a.py": "a\n", "b.py": "b\n", "gone.py": "g\n", ".gitignore": "*.log\n"})
        for name, text in (("a.py", "a2\n"), ("new.py", "n\n"), ("fresh/x.py", "x\n"), ("run.log", "l\n")):
            os.makedirs(os.path.dirname(os.path.join(repo, name)) or repo, exist_ok=True)
            with open(os.path.join(repo, name), "w") as handle:
                handle.write(text)
        subprocess.run(["git", "-C", repo, "add", "a.py"], check=True)
        with open(os.path.join(repo, "b.py"), "w") as handle:
            handle.write("b2\n")
        subprocess.run(["git", "-C", repo, "rm", "-q", "gone.py"], check=True)
        states = gitstate.read(repo, 5, ignored=True)
        described = {path: gitstate.describe(gitstate.state_of(states, path))
                     for path in ("a.py", "b.py", "gone.py", "new.py", "fresh/x.py", "run.log")}
        self.assertEqual(described, {"a.py": "staged", "b.py": "unstaged", "gone.py": "staged-deletion",
                                     "new.py": "untracked", "fresh/x.py": "untracked", "run.log": "ignored"})
        self.assertTrue(gitstate.state_of(states, "fresh/x.py").folder)  # clean without -d leaves it
        self.assertIsNone(gitstate.state_of(states, "README.md"))  # committed: nobody's stake

    def test_git_runs_without_subprocess_and_a_hung_one_is_killed_in_time(self):
        repo = self.repo()
        code, out = gitrepo.run_git_code(repo, ["rev-parse", "--is-inside-work-tree"], timeout=5)
        self.assertEqual((code, out), (0, b"true\n"))
        self.assertEqual(gitrepo.run_git_code(repo, ["rev-parse", "--verify", "-q", "nope"], timeout=5)[0], 1)
        hang = os.path.join(self.tmp, "bin")
        os.makedirs(hang)
        with open(os.path.join(hang, "git"), "w") as handle:
            handle.write("#!/bin/sh\nexec sleep 30\n")
        os.chmod(os.path.join(hang, "git"), 0o755)
        path = os.environ["PATH"]
        os.environ["PATH"] = hang + os.pathsep + path
        try:
            self.assertIsNone(gitrepo.run_git_code(repo, ["status"], timeout=0.2))
        finally:
            os.environ["PATH"] = path

    def test_a_started_git_runs_while_the_caller_works_and_one_nobody_reads_is_reaped(self):
        repo = self.repo()
        with open(os.path.join(repo, "new.py"), "w") as handle:
            handle.write("n\n")
        started = gitstate.start_read(repo, 5)
        self.assertEqual(gitstate.describe(gitstate.state_of(gitstate.finish_read(started), "new.py")), "untracked")
        abandoned = gitrepo.start_git(repo, ["status"])
        gitrepo.stop_git(abandoned)
        with self.assertRaises(ChildProcessError):  # reaped: no zombie left behind
            os.waitpid(abandoned.pid, os.WNOHANG)

    def test_the_commits_a_revert_applies_are_timed_one_by_one_and_a_range_whole(self):
        repo = self.repo()
        for second in (1577836800, 1577836900):
            date = "@%d +0000" % second
            subprocess.run(["git", "-C", repo, "commit", "-q", "--allow-empty", "-m", date], check=True,
                           env=dict(os.environ, GIT_COMMITTER_DATE=date, GIT_AUTHOR_DATE=date))
        self.assertEqual(gitstate.commit_times(repo, ["HEAD"], 5), [1577836900])  # not its history
        self.assertEqual(sorted(gitstate.commit_times(repo, ["HEAD~2..HEAD"], 5)), [1577836800, 1577836900])
        self.assertIsNone(gitstate.commit_times(repo, ["no-such-commit"], 5))

    def test_git_reads_take_no_optional_lock_a_peers_git_add_would_meet(self):
        # A plain `git status` refreshes stale stat data and writes the index back under index.lock;
        # a peer's `git add` at that moment stops with "Unable to create index.lock".
        repo = self.repo()
        index = os.path.join(repo, ".git", "index")
        os.utime(os.path.join(repo, "README.md"))  # stat data now stale: a refresh would rewrite
        before = os.stat(index).st_mtime_ns
        self.assertIsNotNone(gitstate.read(repo, 5))
        self.assertEqual(os.stat(index).st_mtime_ns, before)


class History(support.HomeTestCase):
    def history_path(self):
        return os.path.join(self.claude.home, "history.jsonl")

    def test_summaries_count_prompts_and_keep_opening_and_latest_intent(self):
        now = claudehome.now_ms()
        for n, text in enumerate(["ok", "refactor the parser to handle heredocs", "yes",
                                  "now add tests for the heredoc case", "go",
                                  "and document the parser limits in the readme"]):
            self.claude.append_history("s", "/r", text, now - 1000 + n)
        summary = history.load(self.claude.home, now)["s"]
        self.assertEqual(summary.count, 6)
        self.assertEqual(summary.opening, "refactor the parser to handle heredocs")
        self.assertEqual(summary.recent, ["now add tests for the heredoc case",
                                          "and document the parser limits in the readme"])

    def test_lines_folded_in_any_order_give_the_same_summary(self):
        lines = [(offset * 100, history.HistoryLine("s", "/r%d" % offset, 1000 + offset, text)) for offset, text in
                 enumerate(["ok", "refactor the parser to handle heredocs", "now add tests for the heredoc case",
                            "/clear", "and document the parser limits in the readme"])]
        summaries = []
        for order in (lines, list(reversed(lines)), lines[2:] + lines[:2]):
            folded = {}
            for offset, line in order:
                history.fold(folded, line, offset)
            summaries.append(folded["s"].to_json())
        self.assertEqual(summaries[0], summaries[1])
        self.assertEqual(summaries[0], summaries[2])
        self.assertEqual(summaries[0], ["/r4", 4, 1000, 1004, 100, [200, 400], None])

    def test_a_change_of_direction_folded_in_any_order_is_the_latest(self):
        lines = [(offset * 100, history.HistoryLine("s", "/r", 1000 + offset, text)) for offset, text in
                 enumerate(["refactor the parser to handle heredocs", "wait, undo that",
                            "now add tests for the heredoc case", "stop, revert that"])]
        for order in (lines, list(reversed(lines)), lines[1:] + lines[:1]):
            folded = {}
            for offset, line in order:
                history.fold(folded, line, offset)
            self.assertEqual(folded["s"].to_json()[-1], 300)
            self.assertEqual(folded["s"].direction_after(), 300)

    def test_gaps_are_the_uncovered_ranges_newest_first(self):
        self.assertEqual(history.gaps([], 0, 100), [(0, 100)])
        self.assertEqual(history.gaps([[40, 60]], 0, 100), [(60, 100), (0, 40)])
        self.assertEqual(history.gaps([[0, 30], [50, 100]], 0, 120), [(100, 120), (30, 50)])
        self.assertEqual(history.gaps([[50, 100]], 70, 100), [])
        self.assertEqual(history.covered([[0, 30], [50, 100]], 30, 50), [[0, 100]])

    def test_lines_without_session_id_truncated_or_binary_are_skipped(self):
        now = claudehome.now_ms()
        with open(self.history_path(), "wb") as handle:
            handle.write(b'{"display": "old line without id", "timestamp": %d}\n' % now)
            handle.write(b"\x00\xff\xfe binary\n")
            handle.write(b'{"display": "cut off in the mid')
            handle.write(b"\n")
            handle.write(json.dumps({"display": "a real prompt with five words", "timestamp": now,
                                     "project": "/r", "sessionId": "s1"}).encode() + b"\n")
        self.assertEqual(list(history.load(self.claude.home, now)), ["s1"])

    def test_an_unchanged_history_answers_from_the_index_as_the_first_read_did(self):
        now = claudehome.now_ms()
        self.claude.append_history("old", "/r", "a prompt from long ago in this repo", now - 30 * 86400000)
        self.claude.append_history("s1", "/r", "first prompt of the session here", now - 1000)
        first = history.load(self.claude.home, now)
        again = history.load(self.claude.home, now)  # from the index's rows, built only when asked
        self.assertEqual((again["s1"].count, again["s1"].opening), (first["s1"].count, first["s1"].opening))
        self.assertEqual(set(again), set(first))
        self.assertIsNone(again.get("old"))
        self.assertIsNone(again.get("never-seen"))

    def test_second_load_reads_only_appended_lines(self):
        now = claudehome.now_ms()
        self.claude.append_history("s1", "/r", "first prompt of the session here", now - 1000)
        self.assertEqual(history.load(self.claude.home, now)["s1"].count, 1)
        self.claude.append_history("s1", "/r", "second prompt of the session here", now)
        index_file = os.path.join(self.claude.home, "peerhooks", history.INDEX_NAME)
        with open(index_file) as handle:
            high_before = json.load(handle)["high"]
        summaries = history.load(self.claude.home, now)
        self.assertEqual(summaries["s1"].count, 2)
        with open(index_file) as handle:
            index = json.load(handle)
        self.assertGreater(index["high"], high_before)
        self.assertEqual(index["ranges"], [[0, index["high"]]])

    def test_a_first_read_over_budget_takes_the_newest_slice_and_later_reads_go_on(self):
        now = claudehome.now_ms()
        for n in range(60):
            self.claude.append_history("s%d" % (n % 3), "/r", "prompt number %d of the long history" % n,
                                       now - 100000 + n)
        size = os.path.getsize(self.history_path())
        unread, counts = [], []
        for _ in range(6):
            loaded = history.load(self.claude.home, now, budget=budget.Budget(size // 4, 60))
            unread.append(loaded.unread_bytes)
            counts.append(sum(loaded[sid].count for sid in loaded))
        self.assertEqual(counts[-1], 60)
        self.assertEqual(unread[-1], 0)
        self.assertEqual(counts, sorted(counts))  # each read adds to the last one's
        self.assertGreater(unread[0], size // 2)
        self.assertEqual(loaded["s2"].recent, ["prompt number 56 of the long history",
                                               "prompt number 59 of the long history"])
        self.assertEqual(loaded["s0"].opening, "prompt number 0 of the long history")

    def test_the_newest_lines_are_read_first_so_peers_prompts_come_with_the_first_slice(self):
        now = claudehome.now_ms()
        for n in range(200):
            self.claude.append_history("old-%d" % n, "/r", "an older prompt from before this week", now - 200000 + n)
        self.claude.append_history("peer", "/r", "the peer is rewriting the lexer now", now)
        loaded = history.load(self.claude.home, now, budget=budget.Budget(1000, 60))
        self.assertGreater(loaded.unread_bytes, 0)
        self.assertEqual(loaded["peer"].recent, ["the peer is rewriting the lexer now"])

    def test_the_clock_stops_a_read_whose_units_are_not_spent(self):
        now = claudehome.now_ms()
        for n in range(2000):
            self.claude.append_history("s", "/r", "prompt number %d of a long session" % n, now - 10000 + n)
        ticks = iter(range(0, 10 ** 6))
        loaded = history.load(self.claude.home, now, budget=budget.Budget(10 ** 9, 3, clock=lambda: next(ticks)))
        self.assertGreater(loaded.unread_bytes, 0)
        self.assertLess(loaded["s"].count, 2000)

    def test_the_index_keeps_no_prompt_text(self):
        now = claudehome.now_ms()
        self.claude.append_history("s1", "/r", "deploy with password hunter2 to the staging box", now)
        self.assertEqual(history.load(self.claude.home, now)["s1"].opening,
                         "deploy with password hunter2 to the staging box")
        with open(os.path.join(self.claude.home, "peerhooks", history.INDEX_NAME)) as handle:
            self.assertNotIn("hunter2", handle.read())

    def test_a_pasted_prompt_longer_than_the_read_is_shown_from_its_beginning(self):
        now = claudehome.now_ms()
        pasted = "here is the log \u00e9 " + "x" * (2 * history.PROMPT_READ_BYTES)
        self.claude.append_history("s1", "/r", pasted, now)
        opening = history.load(self.claude.home, now)["s1"].opening
        self.assertTrue(opening.startswith("here is the log \u00e9 xxx"))
        self.assertLess(len(opening), history.PROMPT_READ_BYTES)
        display = 'a "quoted" \\ word ' + "y" * 10
        for cut in range(14, 40):  # cut anywhere in the string, escapes included
            shown = history.display_of(json.dumps({"display": display}).encode()[:cut])
            self.assertTrue(display.startswith(shown), (cut, shown))

    def test_a_shrunk_or_replaced_file_rebuilds_the_index(self):
        now = claudehome.now_ms()
        for n in range(3):
            self.claude.append_history("s1", "/r", "prompt number %d of this session" % n, now - 1000 + n)
        self.assertEqual(history.load(self.claude.home, now)["s1"].count, 3)
        os.unlink(self.history_path())
        self.claude.append_history("s2", "/r", "a prompt in the new history file", now)
        self.assertEqual(set(history.load(self.claude.home, now)), {"s2"})

    def test_backward_read_stops_at_the_window(self):
        now = claudehome.now_ms()
        self.claude.append_history("old", "/r", "a prompt from three weeks ago", now - 21 * history.DAY_MS)
        self.claude.append_history("new", "/r", "a prompt from an hour ago now", now - 3600 * 1000)
        self.assertEqual(set(history.load(self.claude.home, now)), {"new"})

    def test_a_last_line_still_being_written_is_read_next_time(self):
        now = claudehome.now_ms()
        self.claude.append_history("s1", "/r", "a complete prompt line here", now)
        with open(self.history_path(), "ab") as handle:
            handle.write(b'{"display": "half wri')
        self.assertEqual(history.load(self.claude.home, now)["s1"].count, 1)
        with open(self.history_path(), "ab") as handle:
            handle.write(b'tten prompt", "timestamp": %d, "project": "/r", "sessionId": "s1"}\n' % now)
        self.assertEqual(history.load(self.claude.home, now)["s1"].count, 2)


class LineAt(support.HomeTestCase):
    def test_a_line_is_read_from_its_offset_whole_cut_at_the_limit_or_to_the_end(self):
        path = os.path.join(self.tmp, "lines.jsonl")
        long = b"x" * (3 * jsonl.LINE_FIRST_READ_BYTES + 5)
        with open(path, "wb") as handle:
            handle.write(b"short\n" + long + b"\n" + b"last without newline")
        with open(path, "rb") as handle:
            self.assertEqual(jsonl.line_at(handle, 0, 1000), b"short")
            self.assertEqual(jsonl.line_at(handle, 6, 10 ** 6), long)
            self.assertEqual(jsonl.line_at(handle, 6, 100), long[:100])
            self.assertEqual(jsonl.line_at(handle, 7 + len(long), 1000), b"last without newline")


class HeadTailIndex(support.HomeTestCase):
    def transcript(self, prompts):
        path = os.path.join(self.tmp, "t.jsonl")
        now = claudehome.now_ms()
        with open(path, "a", encoding="utf-8") as handle:
            for n, text in enumerate(prompts):
                handle.write(json.dumps(claudehome.user_prompt("s", "/r", text, now + n)) + "\n")
        return path

    def test_an_unchanged_transcript_is_answered_from_the_index_and_the_texts_read_back(self):
        path = self.transcript(["open the parser module for review", "now fix the heredoc handling"])
        now = claudehome.now_ms()
        index = headtailindex.HeadTails(self.claude.home, now)
        head, tail = index.facts(path)
        index.save()
        again = headtailindex.HeadTails(self.claude.home, now)
        with mock.patch.object(transcripts, "read_head") as head_read, mock.patch.object(transcripts, "read_tail") as tail_read:
            known_head, known_tail = again.facts(path, budget.Budget(0, 60))  # a spent budget: no read allowed
        head_read.assert_not_called()
        tail_read.assert_not_called()
        self.assertEqual(headtailindex.opening_of(path, known_head), "open the parser module for review")
        self.assertEqual(headtailindex.latest_of(path, known_tail), "now fix the heredoc handling")
        self.assertEqual((known_head.cwd, known_tail.ended_at_ms), (head.cwd, tail.ended_at_ms))
        with open(os.path.join(self.claude.home, "peerhooks", headtailindex.INDEX_NAME)) as handle:
            self.assertNotIn("heredoc", handle.read())

    def test_a_grown_transcript_keeps_its_head_and_reads_its_tail_again(self):
        path = self.transcript(["open the parser module for review"])
        now = claudehome.now_ms()
        index = headtailindex.HeadTails(self.claude.home, now)
        index.facts(path)
        self.transcript(["and now the lexer tests please"])
        with mock.patch.object(transcripts, "read_head") as head_read:
            head, tail = index.facts(path)
        head_read.assert_not_called()
        self.assertEqual(headtailindex.latest_of(path, tail), "and now the lexer tests please")

    def test_an_unknown_transcript_is_not_read_on_a_spent_budget(self):
        path = self.transcript(["open the parser module for review"])
        index = headtailindex.HeadTails(self.claude.home, claudehome.now_ms())
        self.assertIsNone(index.facts(path, budget.Budget(0, 60)))
        ticks = iter([0, 100])
        self.assertIsNone(index.facts(path, budget.Budget(5, 10, clock=lambda: next(ticks))))


class TheAssistantProbe(unittest.TestCase):
    """transcripts.says_assistant answers as the pattern it replaced, `"role"\\s*:\\s*"assistant"`."""

    def test_generated_probes_agree_with_the_pattern(self):
        import random
        import re

        pattern = re.compile(rb'"role"\s*:\s*"assistant"')
        pieces = [b'"role"', b'"role"', b":", b'"assistant"', b'"assistant', b'"user"', b" ", b"\t", b"\n", b"\r",
                  b"\x0b", b"\x0c", b"  " * 40, b",", b"{", b'"message":', b'\\"role\\"', b"x"]
        rng = random.Random(20261203)
        probes = [b'{"message":{"role":"assistant"}}', b'{"role" : \n "assistant"}', b'"role":"user"', b""]
        probes += [b"".join(rng.choice(pieces) for _ in range(rng.randint(1, 12))) for _ in range(20000)]
        for probe in probes:
            self.assertEqual(transcripts.says_assistant(probe), pattern.search(probe) is not None, probe)

    def test_a_probe_of_nothing_but_keys_and_spaces_is_answered_as_the_pattern_answers_it(self):
        import re

        pattern = re.compile(rb'"role"\s*:\s*"assistant"')
        for probe in (b'"role"' * 680, (b'"role"' + b" " * 60) * 60, b'"role"role":"assistant"',
                      (b'"role" : ' + b"\t" * 100) * 30 + b'"role":"assistant"', b'"role":' + b" " * 4000 + b'"assistant"'):
            self.assertEqual(transcripts.says_assistant(probe), pattern.search(probe) is not None, probe[:40])
        # past MAX_ROLE_KEYS keys nothing is looked for: a record the client writes never gets there
        many = b'"role" ' * transcripts.MAX_ROLE_KEYS + b'"role":"assistant"'
        self.assertFalse(transcripts.says_assistant(many))


class Transcripts(support.HomeTestCase):
    def transcript(self, records, raw_lines=()):
        path = os.path.join(self.tmp, "t.jsonl")
        with open(path, "w", encoding="utf-8") as handle:
            for record in records:
                handle.write(json.dumps(claudehome.client_paths(record)) + "\n")
            for line in raw_lines:
                handle.write(line)
        return path

    def test_edits_are_newest_first_and_deduplicated(self):
        now = claudehome.now_ms()
        records = [claudehome.edit_record("s", "/r", p, now + i) for i, p in
                   enumerate(["/r/a.py", "/r/b.py", "/r/a.py", "/r/c.ipynb"])]
        records[3] = claudehome.edit_record("s", "/r", "/r/c.ipynb", now + 3, tool="NotebookEdit")
        scan = transcripts.recent_edits(self.transcript(records))
        self.assertEqual([e.path for e in scan.edits], ["/r/c.ipynb", "/r/a.py", "/r/b.py"])
        self.assertEqual(scan.edits[0].at_ms, now + 3)
        self.assertFalse(scan.truncated)

    def test_an_edit_straddling_the_scan_bound_is_read_whole(self):
        now = claudehome.now_ms()
        edit = claudehome.edit_record("s", "/r", "/r/straddle.py", now, content="y" * 5000)
        filler = claudehome.tool_result("s", "/r", "z" * 3000, now + 1)
        path = self.transcript([edit, filler])
        size = os.path.getsize(path)
        scan = transcripts.recent_edits(path, scan_bytes=size - 2000)  # bound falls inside the edit
        self.assertEqual([e.path for e in scan.edits], ["/r/straddle.py"])

    def test_a_single_20_mb_write_is_seen_without_parsing_it(self):
        now = claudehome.now_ms()
        big = claudehome.edit_record("s", "/r", "/r/big.bin", now, tool="Write", content="q" * (20 * 1024 * 1024))
        small = claudehome.tool_result("s", "/r", "ok", now + 5)
        decoded = []

        def loads(data, *args, **kwargs):
            decoded.append(len(data))
            return jsonfast.loads(data, *args, **kwargs)

        with mock.patch.object(transcripts, "loads", loads):
            scan = transcripts.recent_edits(self.transcript([big, small]))
        self.assertEqual([(e.path, e.at_ms) for e in scan.edits], [("/r/big.bin", now)])
        self.assertLess(max(decoded), formats.PARSE_LINE_LIMIT)  # read at its head and end only

    def test_edits_beyond_the_bound_are_reported_as_not_read(self):
        now = claudehome.now_ms()
        records = [claudehome.edit_record("s", "/r", "/r/old.py", now)]
        records += [claudehome.tool_result("s", "/r", "w" * 10000, now + i) for i in range(1, 30)]
        scan = transcripts.recent_edits(self.transcript(records), scan_bytes=50000)
        self.assertEqual(scan.edits, [])
        self.assertTrue(scan.truncated)

    def test_garbage_empty_and_missing_transcripts_give_nothing(self):
        garbage = self.transcript([], raw_lines=["\x00\x01garbage\n", "{\"type\": \"tool_use\"\n", "[]\n"])
        empty = self.transcript([])
        for path in (garbage, empty, os.path.join(self.tmp, "missing.jsonl")):
            self.assertEqual(transcripts.recent_edits(path).edits, [])
            self.assertIsNone(transcripts.read_head(path).opening)
            self.assertIsNone(transcripts.read_tail(path).latest)

    def test_head_gives_the_opening_prompt_and_tail_the_latest(self):
        now = claudehome.now_ms()
        records = [
            claudehome.user_prompt("s", "/r", "<command-name>/init</command-name>", now),
            claudehome.user_prompt("s", "/r", "migrate the billing jobs to the new queue", now + 1),
            claudehome.tool_result("s", "/r", "done", now + 2),
            claudehome.user_prompt("s", "/r", "ok", now + 3),
            claudehome.last_prompt("s", "now write the migration guide for the queue"),
        ]
        path = self.transcript(records)
        head = transcripts.read_head(path)
        self.assertEqual(head.opening, "migrate the billing jobs to the new queue")
        self.assertEqual(head.cwd, "/r")
        self.assertEqual(transcripts.read_tail(path).latest, "now write the migration guide for the queue")
        self.assertEqual(transcripts.read_tail(path).ended_at_ms, now + 3)


class IncrementalEditScans(support.HomeTestCase):
    def transcript(self, paths, start_ms):
        path = os.path.join(self.tmp, "t.jsonl")
        with open(path, "a", encoding="utf-8") as handle:
            for i, edited in enumerate(paths):
                handle.write(json.dumps(claudehome.edit_record("s", "/r", edited, start_ms + i)) + "\n")
        return path

    def test_a_resumed_scan_reads_only_the_appended_lines(self):
        now = claudehome.now_ms()
        path = self.transcript(["/r/a.py"], now)
        first = transcripts.recent_edits(path)
        remembered = first._replace(edits=[editscan.Edit("/r/only-in-memory.py", 1)])
        self.transcript(["/r/b.py"], now + 10)
        resumed = transcripts.recent_edits(path, known=remembered)
        self.assertEqual([e.path for e in resumed.edits], ["/r/b.py", "/r/only-in-memory.py"])
        self.assertIs(transcripts.recent_edits(path, known=resumed), resumed)

    def test_a_replaced_transcript_is_scanned_afresh(self):
        now = claudehome.now_ms()
        path = self.transcript(["/r/a.py"], now)
        first = transcripts.recent_edits(path)
        os.unlink(path)
        self.transcript(["/r/c.py", "/r/d.py"], now)
        again = transcripts.recent_edits(path, known=first._replace(inode=first.inode + 1))
        self.assertEqual([e.path for e in again.edits], ["/r/d.py", "/r/c.py"])

    def test_the_index_remembers_scans_and_writes_only_when_they_change(self):
        from peerhooks.claude import editindex

        now = claudehome.now_ms()
        path = self.transcript(["/r/a.py"], now)
        home_dir = self.claude.home
        self.assertEqual([e.path for e in editindex.recent_edits_of(home_dir, [path], now)[path].edits],
                         ["/r/a.py"])
        index_file = os.path.join(home_dir, "peerhooks", editindex.INDEX_NAME)
        written = os.stat(index_file).st_mtime_ns
        editindex.recent_edits_of(home_dir, [path], now + 1000)
        self.assertEqual(os.stat(index_file).st_mtime_ns, written)
        self.transcript(["/r/b.py"], now + 5)
        scan = editindex.recent_edits_of(home_dir, [path], now + 2000)[path]
        self.assertEqual([e.path for e in scan.edits], ["/r/b.py", "/r/a.py"])
        self.assertEqual([e.path for e in editindex.load(home_dir)[path][0].edits], ["/r/b.py", "/r/a.py"])


    def test_the_index_is_parsed_once_per_version_of_its_file(self):
        from peerhooks.claude import editindex

        now = claudehome.now_ms()
        path = self.transcript(["/r/a.py"], now)
        home_dir = self.claude.home
        editindex.recent_edits_of(home_dir, [path], now)  # writes the index
        parsed = []
        real = editindex.read_json_object
        with mock.patch.object(editindex, "read_json_object", side_effect=lambda p: parsed.append(p) or real(p)):
            editindex.recent_edits_of(home_dir, [path], now + 1000)
            editindex.recent_edits_of(home_dir, [path], now + 1000)
            self.assertEqual(len(parsed), 1)
            index_file = os.path.join(home_dir, "peerhooks", editindex.INDEX_NAME)
            with open(index_file, "w", encoding="utf-8") as handle:  # someone else's version of it
                handle.write('{"version": %d, "transcripts": {}}' % editindex.INDEX_VERSION)
            self.assertEqual(editindex.load(home_dir), {})
            self.assertEqual(len(parsed), 2)


class TranscriptsWithCopiedChunks(Transcripts):
    """The same behaviour where mmap.rfind is slow (Python < 3.10) and chunks are copied instead."""

    def setUp(self):
        super().setUp()
        saved = jsonl.MMAP_RFIND_IS_FAST
        jsonl.MMAP_RFIND_IS_FAST = False
        self.addCleanup(setattr, jsonl, "MMAP_RFIND_IS_FAST", saved)

    def test_many_records_across_chunk_boundaries_are_each_read_whole(self):
        now = claudehome.now_ms()
        records = [claudehome.edit_record("s", "/r", "/r/f%03d.py" % i, now + i, content="c" * 7000)
                   for i in range(100)]  # ~700 KB: several 256 KB chunks, records straddling each
        scan = transcripts.recent_edits(self.transcript(records), max_files=100)
        self.assertEqual([e.path for e in scan.edits], ["/r/f%03d.py" % i for i in range(99, -1, -1)])


class HistoryWithCopiedChunks(History):
    """history.jsonl is read backwards by the same reader as transcripts, chunks copied included."""

    def setUp(self):
        super().setUp()
        saved = jsonl.MMAP_RFIND_IS_FAST
        jsonl.MMAP_RFIND_IS_FAST = False
        self.addCleanup(setattr, jsonl, "MMAP_RFIND_IS_FAST", saved)

    def test_a_rebuild_reads_every_line_in_the_window_across_chunk_boundaries(self):
        now = claudehome.now_ms()
        for n in range(200):  # ~400 KB: several 256 KB chunks, lines straddling each
            self.claude.append_history("s%d" % (n % 7), "/r", "prompt %d %s" % (n, "w " * 1000), now - 1000 + n)
        summaries = history.load(self.claude.home, now)
        self.assertEqual(sum(summaries[sid].count for sid in summaries), 200)


class ClaudeFormats(support.HomeTestCase):
    def write(self, *parts):
        path = os.path.join(self.tmp, *parts)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("a rule\n")
        return path

    def test_every_edit_tool_is_read_from_a_record_too_big_to_parse(self):
        now = claudehome.now_ms()
        big = "q" * (2 * formats.PARSE_LINE_LIMIT)
        records = [claudehome.edit_record("s", "/r", "/r/%d.%s" % (i, tool), now + i, tool=tool, content=big)
                   for i, tool in enumerate(formats.EDIT_TOOLS)]
        path = os.path.join(self.tmp, "t.jsonl")
        with open(path, "w", encoding="utf-8") as handle:
            handle.writelines(json.dumps(r) + "\n" for r in records)
        scan = transcripts.recent_edits(path)
        self.assertEqual(sorted(e.path for e in scan.edits),
                         sorted("/r/%d.%s" % (i, t) for i, t in enumerate(formats.EDIT_TOOLS)))

    def test_a_rule_tree_lists_markdown_by_relative_path_and_its_folders(self):
        rules = os.path.join(self.tmp, "rules")
        paths = [self.write("rules", "b.md"), self.write("rules", "a", "z.md"), self.write("rules", "a.md")]
        self.write("rules", "notes.txt")
        folders, files = formats.rule_tree(rules)
        self.assertEqual(files, [paths[2], paths[1], paths[0]])
        self.assertEqual(folders, [rules, os.path.join(rules, "a")])

    def test_a_rule_tree_does_not_enter_a_symlinked_folder_or_go_deeper_than_the_bound(self):
        rules = os.path.join(self.tmp, "rules")
        self.write("elsewhere", "outside.md")
        deep = self.write("rules", *(["d"] * formats.MAX_RULE_DEPTH + ["deep.md"]))
        kept = self.write("rules", *(["d"] * (formats.MAX_RULE_DEPTH - 1) + ["kept.md"]))
        os.symlink(os.path.join(self.tmp, "elsewhere"), os.path.join(rules, "linked"))
        files = formats.rule_tree(rules)[1]
        self.assertEqual(files, [kept])
        self.assertNotIn(deep, files)

    def test_rule_places_leave_out_a_base_that_is_not_known(self):
        places = formats.rule_places(None, "/home/me/.claude")
        self.assertEqual(places, [("/home/me/.claude/CLAUDE.md", None), (None, "/home/me/.claude/rules")])

    def test_registry_names_are_digits_then_json(self):
        self.assertTrue(formats.is_registry_name("4991.json"))
        self.assertFalse(formats.is_registry_name("pid-4991.json"))
        self.assertFalse(formats.is_registry_name(".json"))

    def test_a_session_without_a_name_goes_by_its_ids_first_group(self):
        self.assertEqual(formats.short_id("7370a1b2-0000-4000-8000-000000000000"), "7370a1b2")


class Scratch(unittest.TestCase):
    def test_temp_and_scratchpad_files_outside_the_checkout_are_scratch(self):
        self.assertTrue(activity.is_scratch("/tmp/x.py", "/home/me/repo", temp_root="/tmp"))
        self.assertTrue(activity.is_scratch("/home/me/.claude/scratchpad/n.md", "/home/me/repo", "/tmp"))
        self.assertFalse(activity.is_scratch("/home/me/other/y.py", "/home/me/repo", "/tmp"))

    def test_a_file_inside_the_checkout_is_never_scratch_even_under_tmp(self):
        self.assertFalse(activity.is_scratch("/tmp/repo/scratchpad/a.py", "/tmp/repo", temp_root="/tmp"))


if __name__ == "__main__":
    unittest.main()
