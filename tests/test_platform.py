"""Issue 22: the same answers on macOS and Windows as on Linux, from the formats Claude Code's own
darwin and win32 builds write (fixtures/samples/platforms/README.md).

No Mac or Windows machine runs these: the path flavours are pure and are tested on Windows' own
spellings directly; everything else runs here under a simulated platform (fixtures/platforms.py),
each test once per platform (`support.playing`), against real processes and real files. CI also
runs the whole suite once per simulated platform (.ci/run).
"""
import json
import ntpath
import os
import subprocess
import sys
import time
import unittest
from datetime import datetime, timezone
from unittest import mock

import support
from fixtures import claudehome, platforms

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "guard_corpus"))
import guardrun  # noqa: E402
import oracle  # noqa: E402
import scenario  # noqa: E402
import worlds  # noqa: E402
from peerhooks.cold_start import quiet, rules, state as cold_start_state
from peerhooks.claude import home, registry
from peerhooks import hookio, platform
from peerhooks.state import statefiles
from peerhooks.platform import darwin, linux, posix, windows

import install  # noqa: E402  (support put the repository on sys.path)
from installer import checks, wiring  # noqa: E402
from installer import windows as installer_windows  # noqa: E402

PLATFORMS = ("linux", "darwin", "win32")
SAMPLES = os.path.join(support.REPO, "fixtures", "samples", "platforms")


def sample(*parts):
    with open(os.path.join(SAMPLES, *parts), encoding="utf-8") as handle:
        return json.load(handle)


class WindowsSpellings(unittest.TestCase):
    """The real Windows flavour (local paths `C:/…`), on the strings the client and Git Bash write."""

    paths = windows.Windows()

    def test_every_spelling_of_a_folder_is_one_local_path(self):
        for written in ("C:\\Users\\me\\repo", "C:/Users/me/repo", "/c/Users/me/repo", "c:\\Users\\me\\repo\\",
                        "C:\\Users\\me\\.\\work\\..\\repo", "\\\\?\\C:\\Users\\me\\repo"):
            self.assertEqual(self.paths.local(written), "C:/Users/me/repo", written)
        self.assertEqual(self.paths.local("\\\\server\\share\\repo"), "//server/share/repo")
        self.assertEqual(self.paths.local("//server/share/repo/"), "//server/share/repo")
        self.assertEqual(self.paths.local("\\\\?\\UNC\\server\\share\\x"), "//server/share/x")
        self.assertEqual(self.paths.local("C:\\"), "C:/")
        self.assertEqual(self.paths.local("/c"), "C:/")

    def test_what_names_no_folder_here_is_none(self):
        for written in ("repo", "src\\a.py", "C:repo", "/tmp/x", "/usr/bin", "\\\\.\\pipe\\LOCAL\\cc-msg-1",
                        "\\\\server", "//server/", "", None, 7):
            self.assertIsNone(self.paths.local(written), written)

    def test_the_native_spelling_is_the_clients(self):
        self.assertEqual(self.paths.native("C:/Users/me/repo"), "C:\\Users\\me\\repo")
        self.assertEqual(self.paths.native("//server/share/x"), "\\\\server\\share\\x")
        self.assertEqual(self.paths.shell_spelling("C:/Users/me/repo"), "/c/Users/me/repo")
        self.assertEqual(self.paths.shell_spelling("C:/"), "/c")

    def test_shell_words_resolve_from_the_working_folder(self):
        cwd = "C:/Users/me/repo"
        for word, expected in (("src", "C:/Users/me/repo/src"), ("src\\lib", "C:/Users/me/repo/src/lib"),
                               ("..\\other", "C:/Users/me/other"), ("../../..", "C:/"),
                               ("D:\\data", "D:/data"), ("/d/data", "D:/data")):
            self.assertEqual(self.paths.resolve(word, cwd), expected, word)
        self.assertIsNone(self.paths.resolve("C:docs", cwd))  # drive C's own current folder
        self.assertIsNone(self.paths.resolve("/tmp/x", cwd))  # under Git Bash's own root
        self.assertIsNone(self.paths.resolve("src", None))

    def test_roots_are_never_left_by_dot_dot(self):
        self.assertEqual(self.paths.normpath("C:/a/../.."), "C:/")
        self.assertEqual(self.paths.normpath("//server/share/a/../.."), "//server/share/")
        self.assertEqual(self.paths.dirname("C:/a"), "C:/")
        self.assertEqual(self.paths.dirname("C:/"), "C:/")
        self.assertEqual(self.paths.join("C:/a", "b\\c"), "C:/a/b/c")
        self.assertEqual(self.paths.join("C:/a", "D:/b"), "D:/b")

    def test_programs_are_known_by_name_and_relative_paths_by_slashes(self):
        for word in ("git", "git.exe", "GIT.EXE", "C:\\Program Files\\Git\\cmd\\git.exe", "/mingw64/bin/git"):
            self.assertEqual(self.paths.program(word), "git", word)
        self.assertEqual(self.paths.relative_spelling("src\\a.py"), "src/a.py")


class PosixSpellings(unittest.TestCase):
    def test_macos_resolves_to_nfc_and_linux_keeps_the_bytes(self):
        decomposed, composed = "/no/such/cafe\u0301", "/no/such/caf\u00e9"
        self.assertEqual(darwin.Darwin().realpath(decomposed), composed)
        self.assertEqual(posix.Posix().realpath(decomposed), decomposed)
        self.assertEqual(darwin.Darwin().realpath("/no/such/Repo"), "/no/such/Repo")  # not folded, as the client
        self.assertIsNone(posix.Posix().local("relative/dir"))
        self.assertEqual(posix.Posix().resolve("../b", "/r/a"), "/r/b")
        self.assertEqual(posix.Posix().program("/usr/bin/git"), "git")


class Slugs(unittest.TestCase):
    def test_each_build_slugs_its_own_spelling_of_the_start_folder(self):
        flavours = {"win32": windows.Windows(), "darwin": darwin.Darwin()}  # Windows' own local paths, C:/…
        for name, table in sample("slugs.json").items():
            previous = platform.install(platform.Platform(name, flavours[name], None, ()))
            try:
                for written, slug in table.items():
                    self.assertEqual(home.slug(flavours[name].local(written)), slug, written)
            finally:
                platform.install(previous)

    def test_windows_slugs_are_matched_in_any_case_and_others_exactly(self):
        root = support.tempfile.mkdtemp(prefix="peerhooks-slugs-")
        self.addCleanup(support.shutil.rmtree, root, True)
        os.makedirs(os.path.join(root, "projects", "c--tmp-repo"))
        with support.playing("win32"):
            self.assertEqual(home.project_dirs(root, "/tmp/repo"), [os.path.join(root, "projects", "c--tmp-repo")])
        for name in ("linux", "darwin"):
            with support.playing(name):
                self.assertEqual(home.project_dirs(root, "/tmp/repo"), [])


class ClaudeHomeWhereTheClientLooks(unittest.TestCase):
    def test_windows_reads_userprofile_and_config_dir_in_its_own_spelling(self):
        with support.playing("win32"):
            self.assertEqual(home.claude_home({"USERPROFILE": "C:\\home\\me", "HOME": "C:\\elsewhere"}),
                             "/home/me/.claude")
            self.assertEqual(home.claude_home({"CLAUDE_CONFIG_DIR": " C:\\cfg\\claude "}), "/cfg/claude")
            self.assertEqual(platform.shell_home({"USERPROFILE": "C:\\home\\me"}), "/home/me")
            self.assertEqual(platform.shell_home({"USERPROFILE": "C:\\home\\me", "HOME": "C:\\h"}), "/h")
        with support.playing("darwin"):
            self.assertEqual(home.claude_home({"HOME": "/Users/me", "USERPROFILE": "C:\\x"}), "/Users/me/.claude")


class ClientSamples(unittest.TestCase):
    """The darwin and win32 builds' registry entries and payloads, read as each platform reads them."""

    def test_registry_entries_of_each_build(self):
        with support.playing("darwin"):
            entry = registry.parse_entry(sample("darwin", "registry-interactive.json"))
            self.assertEqual((entry.cwd, entry.pid_domain), ("/Users/me/work/my.repo dir/sub", "darwin"))
            self.assertTrue(entry.can_message)
            self.assertEqual(entry.proc_start, "Tue Dec  1 01:57:41 2026")
        with support.playing("win32"):
            entry = registry.parse_entry(sample("win32", "registry-interactive.json"))
            self.assertEqual(entry.cwd, "/Users/me/work/my.repo dir/sub")  # C: is / in the simulation
            self.assertRegex(entry.pid_domain, r"^win32:[a-z0-9-]+$")
            self.assertRegex(entry.proc_start, r"^1\d{17}$")
            self.assertRegex(entry.messaging_socket, r"^\\\\\.\\pipe\\LOCAL\\cc-msg-[0-9a-f]{32}$")

    def test_payload_paths_are_read_in_every_spelling_the_windows_client_uses(self):
        with support.playing("win32"):
            for name in ("hook-SessionStart-startup-gitbash.json", "hook-PreToolUse-Bash-gitbash.json",
                         "hook-UserPromptSubmit-exec-form.json"):
                hook = sample("win32", name)
                payload = hookio.decode_payload(hook["stdin"].encode("utf-8"))
                self.assertEqual(payload.cwd, "/Users/me/work/my.repo dir/sub", name)
                self.assertTrue(payload.transcript_path.endswith("/C--Users-me-work-my-repo-dir-sub/%s.jsonl"
                                                                 % payload.session_id), name)
                self.assertEqual(hookio.project_dir(hook["env"]), "/Users/me/work/my.repo dir/sub", name)

    def test_a_linux_entry_means_nothing_to_another_platforms_pids(self):
        linux_entry = sample(os.pardir, "2.1.332", "registry-interactive.json")
        for name in ("darwin", "win32"):
            with support.playing(name):
                entry = registry.parse_entry(dict(linux_entry, cwd=claudehome.client_path("/r"), pid=os.getpid()))
                self.assertTrue(registry.is_foreign(entry, registry.own_pid_domain()), name)


class StartTimeRules(unittest.TestCase):
    """Each platform's comparison, as the client's own."""

    def test_linux_ticks_compare_as_written(self):
        self.assertTrue(linux.Processes.same_start("288697", "288697"))
        self.assertFalse(linux.Processes.same_start("288697", "288698"))

    def test_macos_lstart_compares_as_written_but_for_padding(self):
        self.assertTrue(darwin.Processes.same_start("Tue Dec  1 01:57:41 2026", "Tue Dec 1 01:57:41 2026"))
        self.assertFalse(darwin.Processes.same_start("Tue Dec  1 01:57:41 2026", "Tue Dec  1 01:57:42 2026"))

    def test_windows_takes_a_filetime_and_powershell_ticks_for_the_same_process(self):
        filetime = sample("win32", "registry-interactive.json")["procStart"]
        ticks = sample("win32", "registry-interactive-powershell-ticks.json")["procStart"]
        self.assertTrue(windows.Processes.same_start(filetime, filetime))
        self.assertTrue(windows.Processes.same_start(ticks, filetime))
        self.assertFalse(windows.Processes.same_start(filetime, str(int(filetime) + 1)))
        self.assertFalse(windows.Processes.same_start(ticks, str(int(ticks) + 10)))
        self.assertFalse(windows.Processes.same_start("", filetime))
        self.assertFalse(windows.Processes.same_start("not a time", filetime))

    def test_ps_output_is_read_as_the_client_stores_it(self):
        out = ("  123 Ss   Tue Dec  1 01:57:41 2026\n"
               "  456 Z    Tue Dec  1 01:57:42 2026\n"
               "  789 R+   Mon Nov 30 23:00:00 2026\n")
        processes = darwin.Processes(ps=lambda arguments: out, exists=lambda pid: self.fail("ps answered"))
        self.assertEqual(processes.running([123, 456, 789, 999]),
                         {123: "Tue Dec  1 01:57:41 2026", 789: "Mon Nov 30 23:00:00 2026"})
        table = darwin.Processes(ps=lambda arguments: "  10     1\n  20    10\n   x     y\n")
        self.assertEqual(table.parent_lookup()(20), 10)
        self.assertIsNone(table.parent_lookup()(30))

    def test_without_ps_a_pid_is_live_by_signal_alone(self):
        processes = darwin.Processes(ps=lambda arguments: None, exists=lambda pid: pid == 5)
        self.assertEqual(processes.running([5, 6]), {5: None})
        self.assertIsNone(darwin.Processes(ps=lambda arguments: None).parent_lookup()(os.getppid()))

    def test_windows_readers_give_a_live_process_its_creation_time(self):
        times = {1: (True, 134405638614710000), 2: (False, 134405638614710001), 3: (True, None)}
        processes = windows.Processes(times=times.get, parents=lambda: {9: 8}, host=lambda: "DESKTOP-ME")
        self.assertEqual(processes.running([1, 2, 3, 4]), {1: "134405638614710000", 3: None})
        self.assertEqual(processes.pid_domain(), "win32:desktop-me")
        self.assertEqual(processes.parent_lookup()(9), 8)

    def test_macos_ps_prints_the_start_the_client_wrote_for_a_real_process(self):
        process = subprocess.Popen(["sleep", "60"])
        self.addCleanup(process.wait)
        self.addCleanup(process.kill)
        written = platforms.client_proc_start("darwin", process.pid)
        self.assertRegex(written, r"^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 123]\d \d\d:\d\d:\d\d \d{4}$")
        with support.playing("darwin"):
            self.assertEqual(platform.current().processes.running([process.pid]), {process.pid: written})


class ReusedPids(support.HomeTestCase):
    """A registry entry left by a crashed session whose pid the kernel gave to another process is
    not live: the start time differs, in the client's own format for the platform."""

    def entry(self, pid, proc_start):
        self.claude.registry_entry(pid, "s-%d" % pid, self.tmp, proc_start_value=proc_start)
        (session,) = [s for s in registry.read_sessions(self.claude.home) if s.pid == pid]
        return session

    def test_a_reused_pid_is_not_live_on_any_platform(self):
        process = self.claude.spawn()
        started = platforms.start_seconds(process.pid)
        for name, other_start in (("linux", None), ("darwin", platforms.lstart(started - 1)),
                                  ("win32", str(platforms.filetime(started - 0.5)))):
            with self.subTest(name), support.playing(name):
                if other_start is None:  # Linux: the clock ticks since boot of another process
                    other_start = str(int(claudehome.proc_start(process.pid)) - 1)
                self.assertTrue(registry.is_alive(self.entry(process.pid, claudehome.proc_start(process.pid))))
                self.assertFalse(registry.is_alive(self.entry(process.pid, other_start)))

    def test_windows_takes_the_powershell_fallback_for_the_live_process_as_the_client_does(self):
        process = self.claude.spawn()
        ticks = str(platforms.powershell_ticks(platforms.start_seconds(process.pid), utc_offset_seconds=3600))
        with support.playing("win32"):
            self.assertTrue(registry.is_alive(self.entry(process.pid, ticks)))

    def test_an_exited_process_is_not_live_while_its_entry_stays(self):
        process = self.claude.spawn()
        starts = {name: platforms.client_proc_start(name, process.pid) for name in PLATFORMS}
        process.kill()
        process.wait()
        for name in PLATFORMS:
            with self.subTest(name), support.playing(name):
                self.assertFalse(registry.is_alive(self.entry(process.pid, starts[name])))

    def test_this_hooks_ancestors_are_found_on_every_platform(self):
        for name in PLATFORMS:
            with self.subTest(name), support.playing(name):
                chain = platform.ancestors()
                self.assertEqual(chain[0], os.getppid())
                self.assertEqual(len(chain), len(set(chain)))


class ClearWithALateRegistryEntry(support.HomeTestCase):
    """2.1.332 at times writes a session's registry entry only after SessionStart:startup ran; after
    /clear that session must still not see its own earlier context as the last finished session."""

    def hook(self, session_id):
        payload = {"session_id": session_id, "cwd": self.repo_path, "hook_event_name": "SessionStart",
                   "source": "startup"}
        result = self.run_hook("peers.py", payload, args=["--hook"], process=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        return result.stdout

    def test_after_clear_the_earlier_context_is_not_the_last_session_on_any_platform(self):
        for index, name in enumerate(PLATFORMS):
            with self.subTest(name), support.playing(name):
                self.claude = claudehome.ClaudeHome(os.path.join(self.tmp, name, "home"))
                self.addCleanup(self.claude.close)
                self.repo_path = self.repo(os.path.join(name, "repo"))
                old_id = "01d00000-0000-4000-8000-00000000000%d" % index
                new_id = "c1ea2000-0000-4000-8000-00000000000%d" % index
                self.claude.write_session_files(old_id, self.repo_path, ["the work before the clear command ran"])
                self.hook(old_id)  # startup, no registry entry yet: this test process is the session
                self.claude.registry_entry(os.getpid(), new_id, self.repo_path, name="myself")
                out = self.hook(new_id)  # after /clear the registry has this process under the new id
                self.assertNotIn("Last session", out)
                self.assertNotIn("the work before the clear command ran", out)


class StateBytes(support.HomeTestCase):
    """peerhooks' state is written byte for byte, so a start on any platform leaves the same files;
    a file an older version wrote in text mode on Windows (CRLF) reads as the same state."""

    NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc).timestamp()

    def setUp(self):
        super().setUp()
        self.repo_path = self.repo("repo", {"CLAUDE.md": "Keep functions small.\nRun the suite.\n",
                                            "README.md": "hi\n"})

    def start(self):
        from peerhooks.cold_start import hook as hook_cold_start

        payload = hookio.Payload(support.client_payload({"session_id": "s", "source": "startup",
                                                         "cwd": self.repo_path}))
        outcome = hook_cold_start.run(payload, [], self.claude.env(), self.NOW)
        if outcome.after_delivery is not None:
            outcome.after_delivery(True)
        return outcome.stdout

    def state(self):
        found = {}
        for base in (os.path.join(self.repo_path, ".claude", "state"), os.path.join(self.claude.home, "peerhooks")):
            for folder, _dirs, files in os.walk(base):
                for name in files:
                    if not name.endswith(".lock"):
                        path = os.path.join(folder, name)
                        with open(path, "rb") as handle:
                            found[os.path.relpath(path, self.tmp)] = handle.read()
        return found

    def clear_state(self):
        support.shutil.rmtree(os.path.join(self.repo_path, ".claude"), True)
        support.shutil.rmtree(os.path.join(self.claude.home, "peerhooks"), True)

    def test_a_start_writes_the_same_bytes_on_every_platform(self):
        written = {}
        for name in PLATFORMS:
            with self.subTest(name), support.playing(name):
                self.clear_state()
                self.start()
                written[name] = self.state()
                self.assertTrue(any(p.endswith(quiet.STATE_FILENAME) for p in written[name]))
                self.assertEqual([p for p, data in written[name].items() if b"\r" in data], [])
        self.assertEqual(written["darwin"], written["linux"])
        self.assertEqual(written["win32"], written["linux"])

    def test_state_an_older_version_wrote_with_crlf_reads_as_the_same_state(self):
        self.start()
        state_file = quiet.state_path(self.repo_path)
        before = cold_start_state.read_baseline(state_file, quiet.DEFAULT_KEY)
        for path, data in self.state().items():
            with open(os.path.join(self.tmp, path), "wb") as handle:
                handle.write(data.replace(b"\n", b"\r\n"))
        self.assertEqual(cold_start_state.read_baseline(state_file, quiet.DEFAULT_KEY), before)
        self.change_rule("Keep functions small.\nRun the whole suite.\n")
        shown = self.start()
        self.assertIn("-Run the suite.", shown)  # the kept copy still gives the diff
        self.assertIn("+Run the whole suite.", shown)

    def change_rule(self, text):
        with open(os.path.join(self.repo_path, "CLAUDE.md"), "w", encoding="utf-8") as handle:
            handle.write(text)

    def test_the_quiet_path_holds_over_an_inputs_file_with_crlf(self):
        quiet.remember(os.path.join(self.tmp, "state.json"), "k", "k\t%d\t-\t0" % (2 ** 50), 0)
        inputs = quiet.inputs_path(os.path.join(self.tmp, "state.json"))
        with open(inputs, "rb") as handle:
            data = handle.read()
        with open(inputs, "wb") as handle:
            handle.write(data.replace(b"\n", b"\r\n"))
        self.assertTrue(quiet.is_quiet(os.path.join(self.tmp, "state.json"), "k", 0))

    def test_json_state_files_read_the_same_with_crlf(self):
        path = os.path.join(self.tmp, "names.json")
        statefiles.write_json(path, {"s": ["name", 1, 2, "3"], "t": {"u": [1, 2]}})
        with open(path, "rb") as handle:
            data = handle.read()
        with open(path, "wb") as handle:
            handle.write(data.replace(b",", b",\r\n"))
        self.assertEqual(statefiles.read_json_object(path), {"s": ["name", 1, 2, "3"], "t": {"u": [1, 2]}})

    def test_a_rule_copy_with_crlf_is_the_copy_of_its_text(self):
        text = "line one\nline two\n"
        digest = rules.hashlib.sha256(text.encode("utf-8")).hexdigest()
        folder = os.path.join(home.state_dir(self.claude.home), rules.FOLDER)
        os.makedirs(folder)
        with open(os.path.join(folder, digest), "wb") as handle:
            handle.write(text.replace("\n", "\r\n").encode("utf-8"))
        self.assertEqual(rules.load(self.claude.home, [digest]), {digest: text})


@unittest.skipUnless(support.SIMULATED == "linux", "plays both platforms itself: run once, in the native pass")
class GuardCorpusWithWindowsPaths(unittest.TestCase):
    """Corpus lines, run from a folder named in a `cd` before it: as POSIX spells the folder
    on Linux, and as a session on Windows spells it (`'C:\\…'`, `C:/…`, Git Bash's `/c/…`, one per
    line in turn) beside peers whose registry entries, transcripts and payloads are the win32
    build's. The decisions must be the same line for line."""

    SPELLINGS = (lambda local: "'%s'" % platforms.native("win32", local),
                 lambda local: platforms.git_bash("win32", local),
                 lambda local: platforms.simulated_paths("win32").shell_spelling(local))

    WORLD = worlds.MIXED  # the corpus's full world: self, a peer beside it, one in a worktree

    def decisions(self, name, spell):
        root = support.tempfile.mkdtemp(prefix="guard-corpus-%s-" % name)
        self.addCleanup(support.shutil.rmtree, root, True)
        with support.playing(name):
            built = scenario.build(os.path.join(root, "home"), self.WORLD, live=True, scripts=support.SCRIPTS)
            try:
                return [self.summary(guardrun.run_guard(built, "cd %s && %s" % (
                    spell(index, built.cwd(entry["cwd"])), entry["line"]), entry["cwd"]))
                    for index, entry in enumerate(self.entries)]
            finally:
                built.close()

    @staticmethod
    def summary(decision):
        """(refused, exit code, deny/ask, the reason but its lines naming the scenario's folders, which
        echo the `cd` as it was written, whether it wrote an error)."""
        try:
            output = json.loads(decision.stdout)["hookSpecificOutput"] if decision.stdout.strip() else {}
        except (ValueError, KeyError):
            output = {"unreadable": decision.stdout}
        reason = [line for line in output.get("permissionDecisionReason", "").split("\n") if "guard-corpus-" not in line]
        return decision.refused, decision.exit, output.get("permissionDecision"), reason, decision.errored

    # One harmful line in two and one harmless line in four of the world's 1,047: ~800 guard runs in
    # all (the whole corpus runs in every world, with Windows paths, in CI's win32 pass).
    HARMFUL_STRIDE, HARMLESS_STRIDE = 2, 4

    def test_the_corpus_refuses_the_same_lines_with_windows_paths_as_with_posix_ones(self):
        entries = oracle.load()
        harmful = [e for e in entries if e["worlds"][self.WORLD.name]["label"] == "harmful"]
        harmless = [e for e in entries if e["worlds"][self.WORLD.name]["label"] != "harmful"]
        self.entries = harmful[::self.HARMFUL_STRIDE] + harmless[::self.HARMLESS_STRIDE]
        posix = self.decisions("linux", lambda index, local: local)
        spelled = self.decisions("win32", lambda index, local: self.SPELLINGS[index % 3](local))
        self.assertGreater(sum(d[0] for d in posix), len(self.entries) // 2)  # the peers are at stake
        differ = ["%s [%s]: %s on Linux, %s on Windows" % (e["line"], e["cwd"], p, w)
                  for e, p, w in zip(self.entries, posix, spelled) if p != w]
        self.assertEqual(differ, [])


class WindowsInstall(unittest.TestCase):
    """What install.py writes and --check says for Claude Code on Windows (as pure functions and with
    the Windows facts injected: no Windows here)."""

    PYTHON = "C:\\Program Files\\Python312\\python.exe"
    SCRIPTS = "C:\\Users\\John Smith\\peerhooks\\scripts"

    def exec_entries(self):
        return wiring.build_entries(wiring.CLAUDE_HOOKS, self.PYTHON, self.SCRIPTS, exec_form=True)

    def test_hooks_are_written_in_exec_form_which_no_shell_parses(self):
        settings = wiring.merge({}, self.exec_entries())
        groups = {group["matcher"]: group for group in settings["hooks"]["PreToolUse"]}
        self.assertEqual(sorted(groups), sorted([wiring.EDIT_TOOLS_MATCHER, "Bash"]))
        self.assertEqual(groups["Bash"]["hooks"], [{"type": "command", "command": self.PYTHON,
                                                    "args": ["-S", os.path.join(self.SCRIPTS, "git_index_guard.py")],
                                                    "timeout": 5}])
        self.assertEqual(groups[wiring.EDIT_TOOLS_MATCHER]["hooks"][0]["args"],
                         ["-S", os.path.join(self.SCRIPTS, "edit_notice.py")])
        found = wiring.registrations(settings, "user settings")
        self.assertEqual(sorted(r.script for r in found), sorted(h.script for h in wiring.CLAUDE_HOOKS))
        self.assertTrue(all(r.exec_form for r in found))
        self.assertEqual(wiring.registration_problems(found), [])
        self.assertEqual(checks.script_path_in(found[0].command).endswith(".py"), True)
        self.assertEqual(checks.interpreter_in(found[0].command), self.PYTHON)

    def test_install_md_shows_the_handler_install_py_writes_on_windows(self):
        with open(os.path.join(support.REPO, "docs", "install.md"), encoding="utf-8") as handle:
            doc = handle.read()
        shown = json.loads(doc.split("<!-- windows-exec-form-sample -->\n```json\n")[1].split("```")[0])
        with mock.patch("os.path.join", ntpath.join):  # Windows' join: the doc shows a Windows path
            entries = wiring.build_entries(wiring.CLAUDE_HOOKS, self.PYTHON, "C:\\Users\\me\\peerhooks\\scripts",
                                           exec_form=True)
        self.assertEqual(shown, [e for e in entries if e.script == "git_index_guard.py"][0].handler())

    def test_a_shell_form_install_is_replaced_not_doubled_and_uninstall_removes_exec_form(self):
        shell = wiring.build_entries(wiring.CLAUDE_HOOKS, self.PYTHON, self.SCRIPTS, windows=True)
        settings = wiring.merge({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "mine"}]}]}}, shell)
        upgraded = wiring.merge(settings, self.exec_entries())
        self.assertEqual(upgraded, wiring.merge(upgraded, self.exec_entries()))
        self.assertEqual(len(wiring.registrations(upgraded, "here")), len(wiring.CLAUDE_HOOKS))
        back = wiring.merge(upgraded, shell)
        self.assertFalse(any("args" in handler for groups in back["hooks"].values() for group in groups
                             for handler in group["hooks"]))
        self.assertEqual(wiring.unmerge(upgraded), {"hooks": {"Stop": [{"hooks": [{"type": "command",
                                                                                   "command": "mine"}]}]}})

    def test_install_writes_exec_form_on_windows_only_for_claude_code(self):
        with mock.patch.object(install, "is_windows", return_value=True):
            for target, expected in ((install.Target(os.devnull, "user settings", wiring.CLAUDE_HOOKS, ""), True),
                                     (install.Target(os.devnull, "Codex user hooks", wiring.CODEX_HOOKS, ""), False)):
                written = []
                with mock.patch.object(install, "show_dry_run", lambda path, compute, out: written.append(
                        compute(install.userfile.snapshot(os.path.join(support.tempfile.mkdtemp(), "none"))))):
                    install.install(target, install.SCRIPTS_DIR, self.PYTHON, True, None, support.io.StringIO())
                handlers = [h for groups in json.loads(written[0])["hooks"].values() for g in groups
                            for h in g["hooks"]]
                self.assertEqual(all("args" in h for h in handlers), expected, target.label)

    def test_git_bash_is_found_where_the_client_looks(self):
        present = {"D:\\tools\\Git\\bin\\bash.exe", "C:\\Program Files\\Git\\bin\\bash.exe"}
        exists = present.__contains__
        self.assertEqual(installer_windows.git_bash({"CLAUDE_CODE_GIT_BASH_PATH": "D:\\tools\\Git\\bin\\bash.exe"},
                                                    exists, lambda *a, **k: None), "D:\\tools\\Git\\bin\\bash.exe")
        self.assertEqual(installer_windows.git_bash({"CLAUDE_CODE_GIT_BASH_PATH": "D:\\tools\\git.exe"},
                                                    exists, lambda *a, **k: None), "C:\\Program Files\\Git\\bin\\bash.exe")
        beside = {"E:\\Git\\bin\\bash.exe"}.__contains__
        self.assertEqual(installer_windows.git_bash({}, beside, lambda *a, **k: "E:\\Git\\cmd\\git.exe"),
                         "E:\\Git\\bin\\bash.exe")
        self.assertIsNone(installer_windows.git_bash({}, lambda path: False, lambda *a, **k: None))

    def test_check_says_the_guard_cannot_run_without_git_bash_and_names_shell_form_hooks(self):
        exec_found = wiring.registrations(wiring.merge({}, self.exec_entries()), "user settings")
        shell_found = wiring.registrations(wiring.merge({}, wiring.build_entries(
            wiring.CLAUDE_HOOKS, self.PYTHON, self.SCRIPTS, windows=True)), "user settings")
        notes, problems = installer_windows.shell_report(exec_found, "C:\\Program Files\\Git\\bin\\bash.exe")
        self.assertEqual(problems, [])
        self.assertIn("Git Bash", notes[0])
        _notes, problems = installer_windows.shell_report(exec_found, None)
        self.assertEqual(len(problems), 1)
        self.assertIn("git_index_guard.py (a PreToolUse hook on Bash) never runs", problems[0])
        _notes, problems = installer_windows.shell_report(shell_found, None)
        self.assertEqual(len(problems), 1 + len(wiring.CLAUDE_HOOKS))
        self.assertIn("exec form", problems[-1])

    def test_check_runs_the_windows_check_only_on_windows(self):
        root = support.tempfile.mkdtemp(prefix="peerhooks-check-")
        self.addCleanup(support.shutil.rmtree, root, True)
        for on_windows, expected in ((True, True), (False, False)):
            context = checks.Context(claude_home=root, codex_home=root, checkout=None, cwd=root,
                                     scripts_dir=support.SCRIPTS, rule_path=os.path.join(root, "r.md"),
                                     path_variable=os.environ.get("PATH"), on_windows=on_windows, git_bash=None)
            out = support.io.StringIO()
            problems = checks.run(context, out)
            self.assertEqual(any("Git Bash was not found" in p for p in problems), expected)

    def test_the_stores_stand_in_for_python3_is_named_as_such(self):
        # Windows exit codes are 32-bit; a POSIX process cannot exit 9009, so the probe's answer is given.
        answer = subprocess.CompletedProcess([], installer_windows.STORE_STAND_IN_EXIT, b"", b"")
        with mock.patch.object(checks.subprocess, "run", return_value=answer), \
                mock.patch.object(checks.os.path, "isfile", return_value=True):
            problem = checks.interpreter_problem("C:\\Users\\me\\AppData\\Local\\Microsoft\\WindowsApps\\python3.exe")
        self.assertIn("Microsoft Store's stand-in", problem)


class LinuxPathsStayLight(unittest.TestCase):
    def test_the_native_platform_here_is_linux_without_ctypes_or_subprocess(self):
        code = ("import sys; sys.path.insert(0, %r)\n"
                "from peerhooks import platform\nfrom peerhooks.claude import registry\n"
                "p = platform.current(); registry.alive([]); platform.ancestors(); p.processes.pid_domain()\n"
                "print(p.name, type(p.paths).__name__, 'ctypes' in sys.modules, 'subprocess' in sys.modules)"
                % support.SCRIPTS)
        out = subprocess.run([sys.executable, "-S", "-c", code], stdout=subprocess.PIPE, check=True,
                             timeout=support.SCRIPT_TIMEOUT).stdout.decode()
        self.assertEqual(out.split(), ["linux", "Posix", "False", "False"])


if __name__ == "__main__":
    unittest.main()
