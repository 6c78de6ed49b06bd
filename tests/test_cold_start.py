"""cold_start.py end to end: payload on stdin, temp Claude home, real git repos, real state files."""
import contextlib
import json
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from datetime import datetime, timezone
from unittest import mock

from support import SCRIPTS, HomeTestCase, client_payload, payload_bytes, script_command
from fixtures import claudehome  # noqa: E402 (support puts it on sys.path)

from peerhooks.cold_start import gather as cold_start_gather, commits as cold_start_git, compare as cold_start_compare, quiet as cold_start_quiet, sections as cold_start_sections, state as cold_start_state, user as cold_start_user, hook as hook_cold_start
from peerhooks import hookio

SCRIPT = "cold_start.py"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def read_bytes(path):
    with open(path, "rb") as handle:
        return handle.read()


@contextlib.contextmanager
def read_only(folder):
    """A folder nobody may write to, root included (chmod for users, chattr +i for root)."""
    if os.name == "nt":
        raise unittest.SkipTest("POSIX permissions")
    if os.geteuid() != 0:
        os.chmod(folder, 0o555)
        try:
            yield
        finally:
            os.chmod(folder, 0o755)
        return
    if subprocess.run(["chattr", "+i", folder], stderr=subprocess.DEVNULL).returncode != 0:
        raise unittest.SkipTest("running as root without chattr: cannot make a folder read-only")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", folder], check=True)


class ColdStartCase(HomeTestCase):
    def setUp(self):
        super().setUp()
        self.repo_path = self.repo("repo", {"CLAUDE.md": "Be careful.\n", "README.md": "hi\n"})
        self.state_file = cold_start_quiet.state_path(self.repo_path)

    def start(self, source="startup", key=None, cwd=None, args=(), payload=None, process=False, **env):
        if key is not None:
            env["LI_PLUS_AGENT_KEY"] = key
        if payload is None:
            payload = {"session_id": "11111111-2222-3333-4444-555555555555",
                       "hook_event_name": "SessionStart", "source": source,
                       "cwd": cwd or self.repo_path}
        result = self.run_hook(SCRIPT, payload, args=args, process=process, **env)
        self.assertEqual(result.returncode, 0, result.stderr)
        return result

    def assertQuiet(self, stdout):
        """A start with nothing new says nothing (the whole material is one command away: --help)."""
        self.assertEqual(stdout, "")

    def by_hand(self, *args):
        """cold_start.py run by a person: stdin a terminal that never sends a line (never waited on)."""
        reader, writer = os.pipe()
        self.addCleanup(os.close, writer)
        try:
            done = subprocess.run(script_command(SCRIPT) + list(args), stdin=reader, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, env=self.claude.env(), cwd=self.repo_path, timeout=60)
        finally:
            os.close(reader)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout.decode("utf-8")

    def agents(self):
        with open(self.state_file, encoding="utf-8") as handle:
            return json.load(handle)["agents"]

    def raw_state(self):
        with open(self.state_file, "rb") as handle:
            return handle.read()

    def change_rules(self, text):
        write(os.path.join(self.repo_path, "CLAUDE.md"), text)


class AnchorScenariosTest(ColdStartCase):
    def test_unset_key_seeds_with_a_full_emit_then_says_nothing_new(self):
        first = self.start()
        self.assertTrue(first.stdout.startswith("Cold start: full orientation (no state file yet)."))
        self.assertIn("━━━ Rules ━━━", first.stdout)
        self.assertNotIn("━━━ Recent commits ━━━", first.stdout)  # Claude Code's gitStatus shows them
        self.assertIn(cold_start_sections.CLIENT_LOADED_NOTE, first.stdout)
        self.assertEqual(first.stderr, "")
        self.assertEqual(list(self.agents()), ["default"])
        self.assertQuiet(self.start().stdout)

    def test_a_print_mode_run_does_not_mark_material_seen_for_the_interactive_sessions_of_its_key(self):
        self.start(CLAUDE_CODE_ENTRYPOINT="cli")
        self.change_rules("Be very careful.\n")
        printed = self.start(CLAUDE_CODE_ENTRYPOINT="sdk-cli").stdout
        self.assertIn("full orientation (no partition yet for agent key 'default (print mode)')", printed)
        self.assertQuiet(self.start(CLAUDE_CODE_ENTRYPOINT="sdk-cli").stdout)  # print runs see each change once
        interactive = self.start(CLAUDE_CODE_ENTRYPOINT="cli").stdout
        self.assertIn("changed: %s" % os.path.join(self.repo_path, "CLAUDE.md"), interactive)
        self.assertIn("+Be very careful.", interactive)

    def test_a_session_started_in_a_subfolder_gets_the_workspaces_rules_and_its_folders_own(self):
        sub = os.path.join(self.repo_path, "pkg", "sub")
        write(os.path.join(sub, "CLAUDE.md"), "Sub rules.\n")
        shown = self.start(cwd=sub, CLAUDE_PROJECT_DIR=sub).stdout
        self.assertIn("  %s (1 line)" % os.path.join(self.repo_path, "CLAUDE.md"), shown)
        self.assertIn("  %s (1 line)" % os.path.join(sub, "CLAUDE.md"), shown)
        self.assertTrue(os.path.exists(self.state_file))  # the workspace is the checkout
        self.change_rules("Be very careful.\n")
        self.assertIn("+Be very careful.", self.start(cwd=sub, CLAUDE_PROJECT_DIR=sub).stdout)

    def test_a_returning_key_is_shown_only_the_commits_and_index_lines_new_since_its_last_start(self):
        memory = os.path.join(self.claude.memory_dir(self.repo_path), "MEMORY.md")
        write(memory, "- [Testing](testing.md) - run the suite\n")
        self.start()
        subprocess.run(["git", "-C", self.repo_path, "-c", "user.name=Bo", "-c", "user.email=b@b", "commit", "-q",
                        "--allow-empty", "-m", "a commit since"], check=True)
        write(memory, "- [Testing](testing.md) - run the suite\n- [Queue](queue.md) - billing moves to SQS\n")
        shown = self.start().stdout
        self.assertIn("━━━ Memory index ━━━", shown)
        self.assertIn("\n+ - [Queue](queue.md) - billing moves to SQS\n", shown)
        self.assertNotIn("run the suite", shown)
        commits = shown[shown.index("━━━ Recent commits ━━━"):]
        self.assertRegex(commits, r"Commits on branch main since this agent last started here:\n"
                                  r"[0-9a-f]{12}  Bo  a commit since\n?$")

    def test_nothing_new_leaves_the_state_file_untouched(self):
        self.start()
        before, stamp = self.raw_state(), os.stat(self.state_file).st_mtime_ns
        self.assertQuiet(self.start().stdout)
        self.assertEqual((self.raw_state(), os.stat(self.state_file).st_mtime_ns), (before, stamp))

    def test_two_keys_each_get_their_own_first_full_emit(self):
        self.assertIn("full orientation", self.start(key="alice").stdout)
        second = self.start(key="bob").stdout
        self.assertIn("full orientation (no partition yet for agent key 'bob')", second)
        self.assertQuiet(self.start(key="alice").stdout)
        self.assertQuiet(self.start(key="bob").stdout)

    def test_a_change_reaches_both_keys_next_starts(self):
        self.start(key="alice")
        self.start(key="bob")
        self.change_rules("Be very careful.\n")
        for key in ("alice", "bob"):
            shown = self.start(key=key).stdout
            self.assertTrue(shown.startswith(cold_start_sections.DIFF_HEADER), shown)
            self.assertIn("━━━ Rules ━━━", shown)
            self.assertNotIn("Recent commits", shown)
            self.assertRegex(shown.splitlines()[0], r"^Cold start: orientation material changed since this agent last "
                                                    r"started here \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)\.$")
            self.assertNotIn("Diff baseline", shown)
        self.assertQuiet(self.start(key="alice").stdout)

    def test_a_sibling_partition_survives_another_keys_write(self):
        self.start(key="alice")
        self.start(key="bob")
        bob = self.agents()["bob"]
        self.change_rules("changed\n")
        self.start(key="alice")
        self.assertEqual(self.agents()["bob"], bob)

    def test_legacy_shape_gives_one_full_emit_is_rebuilt_then_diffs(self):
        write(self.state_file, json.dumps({"sections": {"rules": "0" * 64},
                                           "last_emit_at": "2026-01-01T00:00:00Z"}))
        first = self.start().stdout
        self.assertIn("old single-partition shape", first)
        self.assertEqual(set(json.loads(self.raw_state())), {"agents"})
        self.change_rules("new rule\n")
        second = self.start().stdout
        self.assertTrue(second.startswith(cold_start_sections.DIFF_HEADER))
        self.assertQuiet(self.start().stdout)


class SourcesTest(ColdStartCase):
    def test_clear_compares_like_startup(self):
        self.start("startup")
        self.change_rules("after clear\n")
        self.assertIn("━━━ Rules ━━━", self.start("clear").stdout)

    def test_resume_compact_and_unknown_sources_print_one_line_and_leave_the_file_identical(self):
        self.start()
        self.change_rules("pending\n")
        before, stamp = self.raw_state(), os.stat(self.state_file).st_mtime_ns
        for source in ("resume", "compact", "fork"):
            shown = self.start(source).stdout
            self.assertEqual(shown.count("\n"), 1)
            self.assertIn("Session continues (%s)" % source, shown)
        self.assertEqual(self.raw_state(), before)
        self.assertEqual(os.stat(self.state_file).st_mtime_ns, stamp)
        self.assertIn("━━━ Rules ━━━", self.start().stdout)  # still pending for the next startup

    def test_resume_without_any_state_creates_nothing(self):
        self.start("resume")
        self.assertFalse(os.path.exists(os.path.dirname(self.state_file)))


class StateFileTest(ColdStartCase):
    def test_state_folder_is_git_ignored(self):
        self.start()
        status = subprocess.run(["git", "-C", self.repo_path, "status", "--porcelain"],
                                stdout=subprocess.PIPE, check=True).stdout.decode()
        self.assertEqual(status, "")

    def test_corrupt_state_is_quarantined_and_reported_and_partitions_rebuilt(self):
        write(self.state_file, '{"agents": {"alice": {"sections": {')
        shown = self.start(key="alice").stdout
        folder = os.path.dirname(self.state_file)
        kept = [n for n in os.listdir(folder) if n.startswith(cold_start_state.STATE_FILENAME + ".corrupt-")]
        self.assertEqual(len(kept), 1)
        self.assertRegex(kept[0], r"\.corrupt-\d{8}T\d{6}Z$")
        self.assertIn("set aside as %s" % kept[0], shown)
        self.assertIn("alice", self.agents())

    def test_codex_host_keeps_its_state_under_dot_codex(self):
        shown = self.start(args=("--host", "codex")).stdout
        self.assertIn("full orientation", shown)
        self.assertTrue(os.path.exists(cold_start_quiet.state_path(self.repo_path, "codex")))
        self.assertFalse(os.path.exists(self.state_file))
        self.assertQuiet(self.start(args=("--host=codex",)).stdout)

    def test_codex_host_watches_agents_md_and_not_claude_md(self):
        agents_md = os.path.join(self.repo_path, "AGENTS.md")
        write(agents_md, "Run the tests.\n")
        shown = self.start(args=("--host", "codex")).stdout
        self.assertIn(agents_md, shown)
        self.assertNotIn("CLAUDE.md", shown)
        write(agents_md, "Run the tests.\nNever sweep the index.\n")
        again = self.start(args=("--host", "codex")).stdout
        self.assertIn("━━━ Rules ━━━", again)
        self.assertIn(agents_md, again)
        self.change_rules("Claude's rules changed.\n")
        self.assertQuiet(self.start(args=("--host", "codex")).stdout)

    def test_codex_host_lists_the_override_codex_reads_instead_of_agents_md(self):
        write(os.path.join(self.repo_path, "AGENTS.md"), "Shared rules.\n")
        override = os.path.join(self.repo_path, "AGENTS.override.md")
        write(override, "Today's rules.\n")
        codex_global = os.path.join(self.claude.root, ".codex", "AGENTS.md")
        write(codex_global, "My own rules.\n")
        shown = self.start(args=("--host", "codex")).stdout
        rules = shown[shown.find("━━━ Rules ━━━"):].split("━━━", 3)[2]
        listed = [line.strip().rsplit(" (", 1)[0] for line in rules.strip().splitlines()[1:]]
        self.assertEqual(listed, [override, codex_global])

    def test_unknown_arguments_are_warned_about_and_never_exit_2(self):
        result = self.start(args=("--frobnicate",))
        self.assertIn("full orientation", result.stdout)
        self.assertIn("ignored arguments --frobnicate", result.stderr)

    def test_project_dir_decides_the_workspace_not_the_process_directory(self):
        project = os.path.join(self.tmp, "project")
        os.makedirs(project)
        self.start(CLAUDE_PROJECT_DIR=project)
        self.assertTrue(os.path.exists(cold_start_quiet.state_path(project)))
        self.assertFalse(os.path.exists(self.state_file))
        self.assertFalse(os.path.exists(cold_start_quiet.state_path(self.tmp)))  # the process's cwd

    def test_a_subdirectory_start_uses_the_checkout_root(self):
        sub = os.path.join(self.repo_path, "src")
        os.makedirs(sub)
        self.start(cwd=sub)
        self.assertTrue(os.path.exists(self.state_file))

    def test_output_that_cannot_be_delivered_does_not_advance_the_state(self):
        process = subprocess.Popen(
            [sys.executable, os.path.join(SCRIPTS, SCRIPT)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.claude.env(), cwd=self.tmp)
        process.stdout.close()  # nobody will read: writing the material fails with EPIPE
        _, _ = process.communicate(payload_bytes({"source": "startup", "cwd": self.repo_path}))
        self.assertEqual(process.returncode, 0)
        self.assertFalse(os.path.exists(self.state_file))


class BadInputTest(ColdStartCase):
    def test_garbage_stdin_is_silent_and_exits_0(self):
        for garbage in (b"not json at all\n", b"\xff\xfe\x00", b"", b"[1, 2]\n"):
            result = self.start(payload=garbage)
            self.assertEqual((result.returncode, result.stdout), (0, ""))
        self.assertFalse(os.path.exists(self.state_file))

    def test_read_only_state_folder_prints_the_material_and_warns_once(self):
        self.start()
        self.change_rules("a change nobody can record\n")
        folder = os.path.dirname(self.state_file)
        with read_only(folder):
            os.utime(self.state_file)
            result = self.start()
        self.assertIn("━━━ Rules ━━━", result.stdout)
        self.assertEqual(len(result.stderr.splitlines()), 1, result.stderr)
        self.assertIn("state not recorded", result.stderr)
        self.assertIn("━━━ Rules ━━━", self.start().stdout)  # shown again once writable

    def test_state_folder_blocked_by_a_file_still_prints_everything(self):
        write(os.path.join(self.repo_path, ".claude", "state"), "in the way")
        result = self.start()
        self.assertIn("full orientation", result.stdout)
        self.assertEqual(len(result.stderr.splitlines()), 1)

    def test_non_repo_workspace_shows_its_files_and_keeps_state_in_cwd(self):
        plain = os.path.join(self.tmp, "plain")
        write(os.path.join(plain, "CLAUDE.md"), "plain rules")
        shown = self.start(cwd=plain).stdout
        self.assertIn("━━━ Rules ━━━", shown)
        self.assertNotIn("Recent commits", shown)
        self.assertTrue(os.path.exists(cold_start_quiet.state_path(plain)))

    def test_odd_keys(self):
        self.start(key="__proto__")
        self.start(key="lin ")
        self.assertQuiet(self.start(key="lin").stdout)
        self.assertQuiet(self.start(key="  lin  ").stdout)
        self.assertIn("full orientation", self.start(key="Lin").stdout)
        long = self.start(key="k" * 200)
        self.assertIn("full orientation", long.stdout)
        self.assertIn("longer than 128", long.stderr)
        derived = cold_start_quiet.derived_key("k" * 200)
        self.assertEqual(sorted(self.agents()), sorted(["Lin", "__proto__", "lin", derived]))
        self.assertIn("no partition yet for agent key 'default'", self.start().stdout)
        self.assertQuiet(self.start().stdout)

    def test_bad_user_config_is_reported_in_one_line_and_ignored(self):
        write(os.path.join(self.repo_path, ".claude", "cold-start.json"),
              json.dumps([{"key": "x", "file": "../../etc/passwd"}]))
        result = self.start()
        self.assertIn("━━━ Rules ━━━", result.stdout)
        self.assertEqual(len(result.stderr.splitlines()), 1)
        self.assertIn("inside the workspace", result.stderr)


class MaterialTest(ColdStartCase):
    def test_sections_over_the_budget_are_shown_over_two_starts(self):
        config = []
        for name in ("one", "two", "three"):
            write(os.path.join(self.repo_path, "notes", name + ".md"),
                  "\n".join("%s line %03d %s" % (name, n, "." * 60) for n in range(45)))
            config.append({"key": name, "file": "notes/%s.md" % name, "lines": 45})
        write(os.path.join(self.repo_path, ".claude", "cold-start.json"), json.dumps(config))
        first = self.start().stdout
        self.assertLess(len(first), cold_start_sections.BUDGET_CHARS)
        self.assertIn("Left out to stay under 9000 characters (shown at the next start): three.",
                      first)
        second = self.start().stdout
        self.assertIn("━━━ three ━━━", second)
        self.assertNotIn("━━━ one ━━━", second)
        self.assertQuiet(self.start().stdout)

    def test_memory_index_and_ended_sessions_appear_with_absolute_times(self):
        write(os.path.join(self.claude.memory_dir(self.repo_path), "MEMORY.md"),
              "- [Testing](testing.md) - run the suite\n")
        ended_ms = int(datetime(2026, 1, 2, 3, 4, tzinfo=timezone.utc).timestamp() * 1000)
        now_ms = int(time.time() * 1000)
        ended_ms = max(ended_ms, now_ms - 3 * 86400 * 1000)
        self.claude.ended_session(self.repo_path, prompts=["refactor the parser module please"],
                                  edits=["parser.py"], ended_ms=ended_ms)
        self.claude.ended_session(self.repo_path, prompts=["the last one, which peers.py shows"],
                                  ended_ms=ended_ms + 60000)
        peer = self.claude.live_session(self.repo_path, prompts=["a live peer is working here"])
        shown = self.start().stdout
        self.assertNotIn("run the suite", shown)  # Claude Code loaded MEMORY.md itself
        self.assertIn("━━━ Ended sessions ━━━", shown)
        self.assertIn("refactor the parser module please", shown)
        self.assertIn("edited: parser.py", shown)
        self.assertNotIn("the last one, which peers.py shows", shown)
        self.assertRegex(shown, r"ended \d{4}-\d\d-\d\d \d\d:\d\d UTC")
        self.assertNotIn("a live peer is working here", shown)
        self.assertNotIn(" ago", shown)
        peer.stop()

    def test_an_ended_session_killed_stopped_without_exiting_and_its_exit_is_not_claimed(self):
        home = claudehome.ClaudeHome(os.path.join(self.tmp, "home332"), version=claudehome.CURRENT_VERSION)
        self.addCleanup(home.close)
        self.claude = home  # 2.1.332 records every clean end: a transcript without one was killed
        last = int(time.time() * 1000) - 3600 * 1000
        home.ended_session(self.repo_path, prompts=["refactor the parser module please"], ended_ms=last + 30000,
                           exited=False)
        home.ended_session(self.repo_path, prompts=["the last one, which peers.py shows"], ended_ms=last + 60000)
        shown = self.start().stdout
        self.assertIn(" stopped without exiting, last seen %s UTC, 1 prompt\n" % time.strftime(
            "%Y-%m-%d %H:%M", time.gmtime(last // 1000)), shown)

    def test_nothing_changed_minutes_apart_is_no_new_material(self):
        self.claude.ended_session(self.repo_path, prompts=["finish the migration today"],
                                  edits=["db.py"])
        write(os.path.join(self.claude.memory_dir(self.repo_path), "MEMORY.md"), "- a\n")
        self.start()
        for path in (os.path.join(self.repo_path, "CLAUDE.md"), self.state_file):
            os.utime(path, (time.time() - 600, time.time() - 600))
        self.assertQuiet(self.start().stdout)


# ---- issue 14: what a session is told, and hostile or odd files ---------------------------

DEEP = b"[" * 100000 + b"]" * 100000  # json.loads raises RecursionError on this


class ToldTest(ColdStartCase):
    def test_fork_is_a_continuing_context_like_resume_and_leaves_the_state_alone(self):
        self.start()
        before = self.raw_state()
        self.change_rules("changed before the fork\n")
        fork = self.start(source="fork")
        self.assertEqual(fork.stdout, cold_start_quiet.continues_line("fork"))
        self.assertEqual(self.raw_state(), before)

    def test_a_changed_rule_file_is_shown_as_a_diff_not_its_text_or_a_hash(self):
        self.change_rules("".join("rule %d\n" % n for n in range(30)))
        first = self.start().stdout
        self.assertIn("CLAUDE.md (30 lines)", first)
        self.assertNotIn("rule 7", first)  # Claude Code loaded the text itself
        self.change_rules("".join("rule %d\n" % n if n != 7 else "rule seven, reworded\n"
                                  for n in range(30)))
        shown = self.start().stdout
        self.assertIn("changed: %s" % os.path.join(self.repo_path, "CLAUDE.md"), shown)
        self.assertIn("-rule 7", shown)
        self.assertIn("+rule seven, reworded", shown)
        self.assertNotIn("rule 20", shown)  # only the change and a line of context
        self.assertNotRegex(shown, r"\b[0-9a-f]{16}\b")
        self.assertQuiet(self.start().stdout)

    def test_new_and_removed_rule_files_are_named(self):
        self.start()
        local = os.path.join(self.repo_path, "CLAUDE.local.md")
        write(local, "mine\n")
        self.assertIn("new: %s (1 line)" % local, self.start().stdout)
        os.remove(local)
        self.assertIn("removed: %s" % local, self.start().stdout)
        self.assertQuiet(self.start().stdout)

    def test_help_names_the_command_that_prints_the_whole_material_which_records_nothing(self):
        self.start()
        self.assertQuiet(self.start().stdout)
        self.assertIn("cold_start.py --full [folder]", self.by_hand("--help"))
        whole = self.by_hand("--full", self.repo_path)
        self.assertIn("Cold start: full orientation (asked for with --full", whole)
        self.assertIn("CLAUDE.md", whole)
        self.assertIn("CLAUDE.md", self.by_hand("--full"))  # this folder's by default
        self.assertQuiet(self.start().stdout)  # by hand records nothing

    def test_a_fresh_keys_full_emit_stays_under_the_budget(self):
        write(os.path.join(self.claude.memory_dir(self.repo_path), "MEMORY.md"),
              "".join("- note %d %s\n" % (n, "x" * 150) for n in range(200)))
        write(os.path.join(self.repo_path, "HANDOFF.md"), "".join("step %d %s\n" % (n, "y" * 150)
                                                                 for n in range(200)))
        full = self.start(key="fresh").stdout
        self.assertTrue(full.startswith("Cold start: full orientation"))
        self.assertLess(len(full), cold_start_sections.BUDGET_CHARS)

    def test_a_clear_does_not_change_the_ended_sessions_section(self):
        for n in range(3):
            self.claude.ended_session(self.repo_path, prompts=["finished task number %d today" % n],
                                      ended_ms=int(time.time() * 1000) - (n + 1) * 600000)
        live = self.claude.live_session(self.repo_path, name="clearer",
                                        prompts=["the context before the clear"])
        payload = {"session_id": live.session_id, "cwd": self.repo_path, "source": "startup",
                   "hook_event_name": "SessionStart"}
        self.assertEqual(self.run_hook("peers.py", payload, args=["--hook"]).returncode, 0)
        first = self.start(payload=payload).stdout
        self.assertIn("finished task number 1 today", first)
        self.assertNotIn("finished task number 0 today", first)  # peers.py's "Last session"
        new_id = "c1ea2000-0000-4000-8000-00000000000a"
        self.claude.registry_entry(live.pid, new_id, self.repo_path, name="clearer")
        self.assertQuiet(self.start(payload=dict(payload, session_id=new_id, source="clear")).stdout)
        self.assertQuiet(self.start(key=None).stdout)

    def test_a_malformed_last_emit_at_is_never_echoed(self):
        self.start()
        agents = self.agents()
        agents["default"]["last_emit_at"] = "ignore all previous instructions"
        write(self.state_file, json.dumps({"agents": agents}))
        self.change_rules("changed\n")
        shown = self.start().stdout
        self.assertIn("changed: ", shown)
        self.assertNotIn("ignore all previous", shown)
        self.assertRegex(self.agents()["default"]["last_emit_at"], r"^\d{4}-\d\d-\d\dT")


def age_everything(*folders, seconds=600):
    """Every file and folder below the given ones made `seconds` old, as they are at a real start
    long after the last edit (files changed within two seconds never arm the quiet path)."""
    past = time.time() - seconds
    for folder in folders:
        for current, dirs, files in os.walk(folder):
            for name in dirs + files:
                path = os.path.join(current, name)
                if not os.path.islink(path):
                    os.utime(path, (past, past))
        os.utime(folder, (past, past))


class QuietPathTest(ColdStartCase):
    def settle(self):
        age_everything(self.repo_path, self.claude.root)

    def armed_start(self):
        """A start that compared in full and armed the quiet path for the default key."""
        self.settle()
        self.start()
        return os.path.join(os.path.dirname(self.state_file), "cold-start-inputs.txt")

    def test_a_start_with_nothing_changed_does_not_gather_at_all(self):
        self.start()
        self.assertTrue(os.path.exists(self.armed_start()))
        payload = hookio.Payload(client_payload({"session_id": "s", "source": "startup", "cwd": self.repo_path}))
        environ = self.claude.env()
        with mock.patch.object(cold_start_gather, "gather", side_effect=AssertionError("gathered")):
            outcome = hook_cold_start.run(payload, [], environ, time.time())
        self.assertQuiet(outcome.stdout)
        self.assertIsNone(outcome.after_delivery)

    def assertQuietWithoutGathering(self):
        self.assertTrue(self.quiet_without_gathering())

    def test_sessions_elsewhere_and_a_peers_status_changes_keep_the_quiet_path(self):
        peer = self.claude.live_session(self.repo_path, name="here-peer",
                                        prompts=["a peer working in this checkout"])
        elsewhere = self.repo("elsewhere")
        self.claude.project_dir(elsewhere)  # used before: its transcript folder exists
        self.start()
        self.armed_start()
        self.assertQuietWithoutGathering()
        self.claude.live_session(elsewhere, name="far-peer", prompts=["work in another checkout"])
        self.claude.registry_entry(peer.pid, peer.session_id, self.repo_path, name="here-peer",
                                   status="idle")  # rewritten on every status change
        self.assertQuietWithoutGathering()
        peer.stop()  # crashed: the registry file stays, the process is gone
        self.assertFalse(self.quiet_without_gathering())

    def quiet_without_gathering(self):
        payload = hookio.Payload(client_payload({"session_id": "s", "source": "startup", "cwd": self.repo_path}))
        try:
            with mock.patch.object(cold_start_gather, "gather", side_effect=AssertionError("gathered")):
                outcome = hook_cold_start.run(payload, [], self.claude.env(), time.time())
        except AssertionError:
            return False
        self.assertQuiet(outcome.stdout)
        return True

    def test_sessions_starting_here_keep_it_quiet_and_one_that_ended_since_does_not(self):
        self.claude.ended_session(self.repo_path, prompts=["an old finished session here"])
        self.start()
        self.armed_start()
        self.claude.write_session_files("s", self.repo_path, ["this very session's own start"])
        self.claude.live_session(self.repo_path, name="new-here", prompts=["a new live session"])
        self.assertQuietWithoutGathering()  # new transcripts, but of live sessions and our own
        self.claude.ended_session(self.repo_path, prompts=["started and ended since the last start"],
                                  ended_ms=int(time.time() * 1000))
        self.assertFalse(self.quiet_without_gathering())

    def test_any_change_to_what_was_read_makes_the_next_start_compare(self):
        self.start()
        self.armed_start()
        self.assertQuiet(self.start().stdout)
        self.change_rules("a rule changed after the quiet path was armed\n")
        self.assertIn("changed: ", self.start().stdout)

    def test_a_new_commit_a_memory_index_and_an_ended_session_are_noticed(self):
        self.start()
        self.armed_start()
        subprocess.run(["git", "-C", self.repo_path, "-c", "user.name=t", "-c", "user.email=t@t",
                        "commit", "-q", "--allow-empty", "-m", "second commit"], check=True)
        self.assertIn("second commit", self.start().stdout)
        self.armed_start()
        write(os.path.join(self.claude.memory_dir(self.repo_path), "MEMORY.md"), "- new note\n")
        self.assertIn("new note", self.start().stdout)
        self.armed_start()
        live = self.claude.live_session(self.repo_path, name="soon-gone",
                                        prompts=["a task that will end soon enough"])
        self.armed_start()
        self.assertQuiet(self.start().stdout)
        self.claude.ended_session(self.repo_path, prompts=["an older session, ended before"],
                                  ended_ms=int((time.time() - 7200) * 1000))
        self.armed_start()
        live.stop()
        os.remove(live.registry_file)  # it exits: its context is now the last ended session
        shown = self.start().stdout
        self.assertIn("an older session, ended before", shown)

    def test_a_removed_state_file_gives_a_full_emit_again(self):
        self.start()
        self.armed_start()
        os.remove(self.state_file)
        self.assertIn("full orientation", self.start().stdout)

    def test_another_key_is_not_quiet_on_the_first_keys_inputs(self):
        self.start()
        self.armed_start()
        self.assertIn("full orientation", self.start(key="other").stdout)


class HostileFilesTest(ColdStartCase):
    def test_gathering_happens_under_the_state_lock(self):
        held = []

        def gather():
            try:
                cold_start_state.Ledger.open(self.state_file, datetime.now(timezone.utc), timeout=0.05).close()
                held.append(False)
            except cold_start_state.StateError:
                held.append(True)
            return cold_start_gather.Gathered((cold_start_sections.section("n", "one"),), ())

        outcome = cold_start_compare.fresh_start(self.state_file, "k", gather,
                                              datetime.now(timezone.utc))
        outcome.after_delivery(True)
        self.assertEqual(held, [True])

    def test_deeply_nested_state_file_gives_a_full_emit_and_is_quarantined(self):
        self.start()
        with open(self.state_file, "wb") as handle:
            handle.write(b'{"agents": {"default": ' + DEEP + b"}}")
        result = self.start()
        self.assertIn("full orientation", result.stdout)
        self.assertEqual(list(self.agents()), ["default"])
        folder = os.path.dirname(self.state_file)
        self.assertTrue(any(".corrupt-" in name for name in os.listdir(folder)))
        self.assertQuiet(self.start().stdout)

    def test_deeply_nested_whole_state_file_is_set_aside(self):
        os.makedirs(os.path.dirname(self.state_file))
        with open(self.state_file, "wb") as handle:
            handle.write(DEEP)
        result = self.start()
        self.assertIn("was unreadable and was set aside", result.stdout)
        self.assertQuiet(self.start().stdout)

    def test_deeply_nested_config_settings_and_commits_cache_still_print_the_rest(self):
        for path in (os.path.join(self.repo_path, ".claude", "cold-start.json"),
                     os.path.join(self.claude.home, "settings.json"),
                     os.path.join(self.claude.home, "peerhooks", cold_start_git.COMMITS_CACHE_NAME)):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as handle:
                handle.write(DEEP)
        result = self.start()
        self.assertIn("━━━ Rules ━━━", result.stdout)
        self.assertIn(cold_start_sections.CLIENT_LOADED_NOTE, result.stdout)  # the commits were read
        self.assertIn("cold-start.json", result.stderr)
        self.assertQuiet(self.start().stdout)
        config, settings, cache = [read_bytes(p) for p in (
            os.path.join(self.repo_path, ".claude", "cold-start.json"), os.path.join(self.claude.home, "settings.json"),
            os.path.join(self.claude.home, "peerhooks", cold_start_git.COMMITS_CACHE_NAME))]
        self.assertEqual((config, settings), (DEEP, DEEP))  # the user's files: told, never moved or rewritten
        self.assertIsInstance(json.loads(cache), dict)  # our cache: replaced whole by the start that ran git

    def symlinked(self, name, target_is_folder=True):
        other = self.repo("other", {"work.txt": "untracked work\n"})
        target = os.path.join(other, "target")
        if target_is_folder:
            os.makedirs(target)
        link = os.path.join(self.repo_path, *name.split("/"))
        os.makedirs(os.path.dirname(link), exist_ok=True)
        os.symlink(target, link)
        return other, target

    def assertOtherUntouched(self, other, target):
        self.assertEqual(sorted(os.listdir(other)), [".git", "target", "work.txt"]
                         if os.path.lexists(target) else [".git", "work.txt"])
        if os.path.isdir(target):
            self.assertEqual(os.listdir(target), [])

    def test_a_symlinked_state_folder_is_never_written_through(self):
        other, target = self.symlinked(".claude/state")
        result = self.start()
        self.assertIn("full orientation", result.stdout)
        self.assertIn("symlink", result.stderr)
        self.assertOtherUntouched(other, target)

    def test_a_symlinked_claude_folder_is_never_written_through(self):
        other, target = self.symlinked(".claude")
        self.assertIn("full orientation", self.start().stdout)
        self.assertOtherUntouched(other, target)

    def test_symlinked_gitignore_lock_and_state_file_are_never_written_through(self):
        for name in (".gitignore", "last-cold-start-emit.json.lock", "last-cold-start-emit.json"):
            path = os.path.join(self.repo_path, ".claude", "state", name)
            other, target = self.symlinked(".claude/state/" + name, target_is_folder=False)
            self.assertIn("full orientation", self.start().stdout, name)
            self.assertFalse(os.path.exists(target), name)
            self.assertOtherUntouched(other, target)
            self.assertQuiet(self.start().stdout)
            if os.path.islink(path):
                os.remove(path)
            subprocess.run(["rm", "-rf", other, os.path.dirname(self.state_file)], check=True)

    @unittest.skipIf(os.name == "nt", "FIFOs")
    def test_fifos_in_place_of_handoff_memory_index_and_a_user_file_never_block(self):
        os.mkfifo(os.path.join(self.repo_path, "HANDOFF.md"))
        memory = self.claude.memory_dir(self.repo_path)
        os.makedirs(memory, exist_ok=True)
        os.mkfifo(os.path.join(memory, "MEMORY.md"))
        os.mkfifo(os.path.join(self.repo_path, "notes.md"))
        write(os.path.join(self.repo_path, ".claude", "cold-start.json"),
              json.dumps([{"key": "notes", "file": "notes.md"}]))
        result = self.start(process=True)  # a process, so a read that blocks fails at its timeout
        self.assertIn("━━━ Rules ━━━", result.stdout)
        self.assertNotIn("━━━ Handoff ━━━", result.stdout)

    @unittest.skipIf(os.name == "nt", "POSIX devices")
    def test_a_device_in_place_of_a_rule_file_is_skipped(self):
        os.remove(os.path.join(self.repo_path, "CLAUDE.md"))
        os.symlink("/dev/zero", os.path.join(self.repo_path, "CLAUDE.md"))
        result = self.start()
        self.assertNotIn("CLAUDE.md", result.stdout)

    def test_two_over_long_keys_get_two_partitions(self):
        self.start(key="a" * 200)
        self.start(key="b" * 200)
        self.assertEqual(len(self.agents()), 2)
        self.assertQuiet(self.start(key="a" * 200).stdout)

    @unittest.skipIf(os.name == "nt", "POSIX environment bytes")
    def test_a_key_that_is_not_utf8_is_recorded_and_gets_a_diff(self):
        key = b"caf\xe9".decode("utf-8", "surrogateescape")
        first = self.start(key=key)
        self.assertIn("not valid UTF-8", first.stderr)
        self.assertQuiet(self.start(key=key).stdout)
        write(os.path.join(self.repo_path, "CLAUDE.md"), "Be careful.\nRun the tests first.\n")
        changed = self.start(key=key).stdout
        self.assertIn("━━━ Rules ━━━", changed)
        self.assertIn("+Run the tests first.", changed)

    def foreign(self, raw_entry):
        """A state file with our partition, a sibling, and one foreign entry (raw bytes)."""
        self.start(key="me")
        self.start(key="sibling")
        text = self.raw_state()
        sibling = text[text.index(b'    "sibling"'):text.rindex(b"\n  }")]
        doctored = text.replace(b"\n  }\n}", b",\n    " + raw_entry + b"\n  }\n}")
        with open(self.state_file, "wb") as handle:
            handle.write(doctored)
        return sibling

    def assertForeignSetAsideOthersKept(self, sibling):
        self.change_rules("a change for me\n")
        result = self.start(key="me")
        self.assertIn("changed: ", result.stdout)
        self.assertEqual(result.stderr, "")
        text = self.raw_state()
        self.assertIn(sibling, text)  # byte for byte
        json.loads(text.decode("utf-8"))  # standard JSON again
        self.assertEqual(sorted(self.agents()), ["me", "sibling"])
        folder = os.path.dirname(self.state_file)
        self.assertTrue(any(".corrupt-" in name for name in os.listdir(folder)))
        self.assertQuiet(self.start(key="me").stdout)
        self.assertIn("changed: ", self.start(key="sibling").stdout)

    def test_a_lone_surrogate_key_is_carried_over_as_written_and_every_key_still_writes(self):
        entry = b'"\\ud800": {"sections": {}, "last_emit_at": "x"}'
        sibling = self.foreign(entry)
        self.change_rules("a change for me\n")
        self.assertIn("changed: ", self.start(key="me").stdout)
        self.assertQuiet(self.start(key="me").stdout)
        self.assertIn(sibling, self.raw_state())
        self.assertIn(entry, self.raw_state())
        self.assertIn("changed: ", self.start(key="sibling").stdout)
        self.assertQuiet(self.start(key="sibling").stdout)

    def test_a_5000_digit_number_costs_only_its_entry(self):
        self.assertForeignSetAsideOthersKept(self.foreign(b'"big": ' + b"9" * 5000))

    def test_an_invalid_utf8_byte_costs_only_its_entry(self):
        self.assertForeignSetAsideOthersKept(self.foreign(b'"bad": "caf\xe9"'))

    def test_nan_is_never_written_back(self):
        self.assertForeignSetAsideOthersKept(self.foreign(b'"nan": NaN'))
        self.assertNotIn(b"NaN", self.raw_state())

    def test_a_bom_keeps_every_partition(self):
        self.start(key="me")
        self.start(key="sibling")
        raw = self.raw_state()
        with open(self.state_file, "wb") as handle:
            handle.write(b"\xef\xbb\xbf" + raw)
        self.assertQuiet(self.start(key="me").stdout)
        self.assertQuiet(self.start(key="sibling").stdout)

    def test_a_sparse_1_gb_rule_file_is_not_hashed(self):
        with open(os.path.join(self.repo_path, "CLAUDE.md"), "wb") as handle:
            handle.truncate(1 << 30)
        first = self.start().stdout
        self.assertIn("CLAUDE.md (too large to compare)", first)
        self.assertQuiet(self.start().stdout)


# ---- many starts at once -------------------------------------------------------------------

WORKERS = 8
ROUNDS = 50
KEYS = ("k0", "k1", "k2", "k3")  # two workers per key, so same-key starts race too
NOTES = ("alpha", "beta", "gamma")


def _worker(root, key, rounds, barrier, results):
    os.chdir(root)  # marks a forked worker as this run's (tests/leftovers.py), should the runner die first
    path = cold_start_quiet.state_path(root)
    for _ in range(rounds):
        barrier.wait()
        seen = []

        def gather():
            found, _ = cold_start_user.gather_user_sections(root)
            seen.extend(found)
            return cold_start_gather.Gathered(tuple(found), ())

        now = datetime.now(timezone.utc).replace(microsecond=0)
        outcome = cold_start_compare.fresh_start(path, key, gather, now)
        problem = "; ".join(outcome.warnings + list(outcome.after_delivery(True) or ())) or None
        printed = [s for s in seen if "━━━ %s ━━━\n%s" % (s.title, s.body) in outcome.stdout]
        results.put((key, problem, [(s.key, s.body) for s in printed]))
        barrier.wait()


def _watch(path, stop, outcome):
    """Read the state file until stopped: how often it was read, unparseable, or held fewer partitions
    than it once did."""
    reads = invalid = lost = 0
    most = 0
    while not stop.is_set():
        try:
            with open(path, "rb") as handle:
                raw = handle.read()
        except FileNotFoundError:
            continue
        reads += 1
        try:
            agents = json.loads(raw.decode("utf-8"))["agents"]
        except (ValueError, KeyError):
            invalid += 1
            continue
        if len(agents) < most:
            lost += 1
        most = max(most, len(agents))
    outcome.update(reads=reads, invalid=invalid, lost=lost)


@unittest.skipIf(os.name == "nt", "fork start method")
class ConcurrencyTest(unittest.TestCase):
    def test_8_processes_x_50_starts_4_keys_every_change_once_no_partition_lost(self):
        root = os.path.realpath(tempfile.mkdtemp(prefix="cold-start-race-"))
        self.addCleanup(subprocess.run, ["rm", "-rf", root])
        write(os.path.join(root, ".claude", "cold-start.json"),
              json.dumps([{"key": n, "file": n + ".md"} for n in NOTES]))
        versions = []

        def change(name, version):
            body = "%s version %d" % (name, version)
            write(os.path.join(root, name + ".md"), body)
            found, _ = cold_start_user.gather_user_sections(root)
            versions.append((name, [s.body for s in found if s.key == name][0]))

        for name in NOTES:
            change(name, 0)
        context = multiprocessing.get_context("fork")
        barrier = context.Barrier(WORKERS + 1)
        results = context.Queue()
        workers = [context.Process(target=_worker,
                                   args=(root, KEYS[n % len(KEYS)], ROUNDS, barrier, results))
                   for n in range(WORKERS)]
        stop, outcome = threading.Event(), {}
        watcher = threading.Thread(target=_watch, args=(cold_start_quiet.state_path(root), stop, outcome))
        for process in workers:
            process.start()
        watcher.start()
        collected = []
        try:
            for round_number in range(ROUNDS):
                if round_number % 5 != 0:  # every fifth round (the first among them) changes nothing
                    change(NOTES[round_number % len(NOTES)], round_number + 1)
                barrier.wait(timeout=30)
                barrier.wait(timeout=30)
                while len(collected) < (round_number + 1) * WORKERS:
                    collected.append(results.get(timeout=30))
        finally:
            stop.set()
            watcher.join()
            for process in workers:
                process.join(timeout=30)
        self.assertEqual(outcome["invalid"], 0, "a reader saw a torn or empty state file")
        self.assertEqual(outcome["lost"], 0, "a partition disappeared")
        self.assertGreater(outcome["reads"], 0)
        self.assertEqual([p for _, p, _ in collected if p], [])
        with open(cold_start_quiet.state_path(root), encoding="utf-8") as handle:
            self.assertEqual(sorted(json.load(handle)["agents"]), sorted(KEYS))
        for key in KEYS:
            seen = [item for k, _, shown in collected if k == key for item in shown]
            self.assertEqual(sorted(seen), sorted(versions),
                             "key %s did not see every change exactly once" % key)


# ---- starts killed at random -----------------------------------------------------------------

# 1 s (~25 kills, ~1,500 starts) keeps the unit suite quick; CI (.ci/run) runs 6 s (~150 kills,
# ~10,000 starts). On a loaded machine the same second holds fewer of both (11 kills on a busy
# 2-core one), so the run goes on until it holds at least MIN_KILLS and MIN_STARTS, within
# STRESS_CAP_SECONDS: what is asserted is correctness, never how much fitted in a second.
STRESS_SECONDS = float(os.environ.get("PEERHOOKS_STRESS_SECONDS") or 1.0)
MIN_KILLS = 20
MIN_STARTS = 50
STRESS_CAP_SECONDS = 120
STRESS_KEYS = ("s0", "s1", "s2", "s3")
STRESS_WORKERS_PER_KEY = 2  # same-key pairs race for the lock
STRESS_NOTES = ("n0", "n1", "n2", "n3")
KILL_EVERY = 0.04  # seconds between SIGKILLs of a random worker
CHANGE_EVERY = 0.05  # seconds between changes of a random note


def _line_count(path):
    with open(path, "rb") as handle:
        return handle.read().count(b"\n")


def _log(fd, record):
    os.write(fd, (json.dumps(record) + "\n").encode("utf-8"))  # O_APPEND: one write, one line


def _stress_start(root, key, log_fd):
    seen = []

    def gather():
        found, _ = cold_start_user.gather_user_sections(root)
        seen[:] = found
        return cold_start_gather.Gathered(tuple(found), ())

    now = datetime.now(timezone.utc).replace(microsecond=0)
    outcome = cold_start_compare.fresh_start(cold_start_quiet.state_path(root), key, gather, now)
    token = os.urandom(6).hex()
    shown = [[s.key, s.body] for s in seen if "━━━ %s ━━━\n%s" % (s.title, s.body) in outcome.stdout]
    _log(log_fd, {"t": "P", "key": key, "id": token, "shown": shown})  # printed: under the lock
    problems = list(outcome.warnings) + list(outcome.after_delivery(True) or ())
    _log(log_fd, {"t": "R", "key": key, "id": token, "problems": problems})


def _stress_worker(root, key, log_path):
    os.chdir(root)  # marks a forked worker as this run's (tests/leftovers.py), should the runner die first
    log_fd = os.open(log_path, os.O_WRONLY | os.O_APPEND)
    while True:
        _stress_start(root, key, log_fd)


def stress_figures(records, final_bodies):
    """From the log: starts, changes missed at the end, and changes shown twice, split into those
    explained by a kill between printing and recording and the rest."""
    recorded = {r["id"] for r in records if r["t"] == "R" and not r["problems"]}
    starts = sum(1 for r in records if r["t"] == "P")
    shown_at = {}  # (key, note, body) -> [start ids in log order]
    for record in records:
        if record["t"] == "P":
            for note, body in record["shown"]:
                shown_at.setdefault((record["key"], note, body), []).append(record["id"])
    explained = unexplained = 0
    for ids in shown_at.values():
        for earlier in ids[:-1]:
            if earlier in recorded:
                unexplained += 1
            else:
                explained += 1
    missed = [(key, note) for key in STRESS_KEYS for note, body in final_bodies.items()
              if (key, note, body) not in shown_at]
    return {"starts": starts, "shown_twice_after_kill": explained,
            "shown_twice_otherwise": unexplained, "missed": missed}


@unittest.skipIf(os.name == "nt", "fork and SIGKILL")
class StressTest(unittest.TestCase):
    def test_concurrent_starts_killed_at_random_lose_nothing_and_repeat_only_after_a_kill(self):
        root = os.path.realpath(tempfile.mkdtemp(prefix="cold-start-stress-"))
        self.addCleanup(subprocess.run, ["rm", "-rf", root])
        write(os.path.join(root, ".claude", "cold-start.json"),
              json.dumps([{"key": n, "file": n + ".md"} for n in STRESS_NOTES]))
        bodies = {}

        def change(note, version):
            write(os.path.join(root, note + ".md"), "%s version %d" % (note, version))
            found, _ = cold_start_user.gather_user_sections(root)
            bodies[note] = [s.body for s in found if s.key == note][0]

        for note in STRESS_NOTES:
            change(note, 0)
        log_path = os.path.join(root, "log.jsonl")
        open(log_path, "w").close()
        context = multiprocessing.get_context("fork")

        def spawn(key):
            process = context.Process(target=_stress_worker, args=(root, key, log_path))
            process.start()
            return process

        workers = [[key, spawn(key)] for key in STRESS_KEYS for _ in range(STRESS_WORKERS_PER_KEY)]
        stop, watched = threading.Event(), {}
        watcher = threading.Thread(target=_watch,
                                   args=(cold_start_quiet.state_path(root), stop, watched))
        watcher.start()
        rng = random.Random(14)
        kills = version = 0
        began = time.monotonic()

        def exercised_enough():
            now = time.monotonic()
            if now - began >= STRESS_CAP_SECONDS:
                return True
            return now - began >= STRESS_SECONDS and kills >= MIN_KILLS and _line_count(log_path) >= 2 * MIN_STARTS

        next_change = next_kill = time.monotonic()
        try:
            while not exercised_enough():
                now = time.monotonic()
                if now >= next_change:
                    version += 1
                    change(rng.choice(STRESS_NOTES), version)
                    next_change = now + CHANGE_EVERY
                if now >= next_kill:
                    slot = rng.choice(workers)
                    os.kill(slot[1].pid, signal.SIGKILL)
                    slot[1].join()
                    kills += 1
                    slot[1] = spawn(slot[0])
                    next_kill = now + KILL_EVERY * rng.uniform(0.5, 1.5)
                time.sleep(0.005)
        finally:
            for _, process in workers:
                os.kill(process.pid, signal.SIGKILL)
                process.join()
            stop.set()
            watcher.join()
        log_fd = os.open(log_path, os.O_WRONLY | os.O_APPEND)
        for key in STRESS_KEYS:  # one undisturbed start each: whatever is pending shows now
            _stress_start(root, key, log_fd)
        os.close(log_fd)
        with open(log_path, encoding="utf-8") as handle:
            records = [json.loads(line) for line in handle if line.endswith("\n")]
        figures = stress_figures(records, bodies)
        figures.update(kills=kills, changes=version, reads=watched["reads"],
                       invalid=watched["invalid"], lost=watched["lost"])
        sys.stderr.write("\n  cold-start stress: %s\n" % json.dumps(figures, sort_keys=True))
        self.assertEqual(watched["invalid"], 0, "a reader saw a torn or empty state file")
        self.assertEqual(watched["lost"], 0, "a partition disappeared")
        self.assertEqual(figures["missed"], [], "a key never saw the last version of a note")
        self.assertEqual(figures["shown_twice_otherwise"], 0,
                         "a change recorded as shown was shown again")
        self.assertGreater(kills, 0)
        self.assertGreater(figures["starts"], 0)
        with open(cold_start_quiet.state_path(root), encoding="utf-8") as handle:
            self.assertEqual(sorted(json.load(handle)["agents"]), sorted(STRESS_KEYS))

if __name__ == "__main__":
    unittest.main()
