"""Issue 15: the hooks' common paths import only what they use, and their shortcuts answer as the
long way would.

Hooks are registered as `python3 -S <script>`, where `json` costs ~7 ms, `typing` ~10 ms, `re` ~6 ms
and `collections` ~2.5 ms against ~8 ms for the interpreter itself. Counting imports is exact where
timing is not, so these tests pin what each quiet path may load.
"""
import json
import os
import subprocess
import sys
import unittest

import support
from fixtures import claudehome
from peerhooks.claude import editindex, home, transcripts
from peerhooks.peers import report

# Modules whose import costs a hook a large share of its start-up under -S; none is needed on a
# quiet path (jsonfast decodes with json's C scanner; records replace namedtuple and NamedTuple).
HEAVY = ("json", "re", "typing", "collections", "enum", "functools", "datetime", "hashlib",
         "subprocess", "tempfile", "unicodedata", "traceback",
         "ctypes", "platform")  # Windows' and the stdlib's platform probes: never on Linux (issue 22)


def imported_modules(script, payload, env, cwd, args=()):
    """The modules a hook run imports under -S, from -X importtime (exact, unlike timings)."""
    completed = subprocess.run(
        [sys.executable, "-S", "-X", "importtime", os.path.join(support.SCRIPTS, script)] + list(args),
        input=support.payload_bytes(payload), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=env, cwd=cwd, timeout=support.SCRIPT_TIMEOUT)
    lines = completed.stderr.decode("utf-8", errors="replace").splitlines()
    names = {line.split("|")[-1].strip() for line in lines if line.startswith("import time:")}
    return completed, names


@unittest.skipUnless(support.SIMULATED == "linux", "what a Linux hook imports; a simulation's launcher is no hook")
class QuietPathsImportNothingHeavy(support.HomeTestCase):
    def setUp(self):
        super().setUp()
        self.repo_path = self.repo()
        self.me = self.claude.live_session(self.repo_path, name="me", prompts=["start the work on the parser"])

    def assertLight(self, script, payload, args=()):
        self.run_hook(script, payload, args=args)  # the first run records state; the second is the quiet one
        completed, names = imported_modules(script, payload, self.claude.env(), self.repo_path, args)
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertEqual(sorted(names.intersection(HEAVY)), [], script)
        return completed

    def test_memory_delta_with_nothing_changed_imports_nothing_heavy(self):
        self.claude.write_memory(self.repo_path, "note.md", "an old note")
        completed = self.assertLight("memory_delta.py", {
            "session_id": self.me.session_id, "cwd": self.repo_path, "prompt": "carry on please with it"})
        self.assertEqual(completed.stdout, b"")

    def test_memory_delta_telling_of_a_peers_note_imports_nothing_heavy(self):
        peer = self.claude.live_session(self.repo_path, name="peer-billing")
        memory = self.claude.memory_dir(self.repo_path)
        self.claude.append_records(peer.session_id, peer.cwd, [claudehome.edit_record(
            peer.session_id, peer.cwd, os.path.join(memory, "db.md"), claudehome.now_ms(), tool="Write")])
        self.claude.write_memory(self.repo_path, "db.md", "Tests hit a real database", peer.session_id)
        payload = {"session_id": self.me.session_id, "cwd": self.repo_path, "prompt": "carry on please with it"}
        completed, names = imported_modules("memory_delta.py", payload, self.claude.env(), self.repo_path)
        self.assertIn(b"peer-billing", completed.stdout)
        self.assertEqual(sorted(names.intersection(HEAVY)), [])

    def test_peers_hook_with_live_peers_imports_nothing_heavy(self):
        self.claude.live_session(self.repo_path, name="peer", prompts=["rewrite the lexer for heredocs"],
                                 edits=[os.path.join(self.repo_path, "lexer.py")])
        completed = self.assertLight("peers.py", {"session_id": self.me.session_id, "cwd": self.repo_path},
                                     args=["--hook"])
        self.assertIn(b"rewrite the lexer for heredocs", completed.stdout)
        _completed, names = imported_modules("peers.py", {"session_id": self.me.session_id, "cwd": self.repo_path},
                                             self.claude.env(), self.repo_path, ["--hook"])
        self.assertEqual(sorted(names & {"os", "posixpath", "_collections_abc", "stat"}), [])  # ~1 ms under -S


    def test_the_guard_beside_idle_peers_refuses_from_their_remembered_scans_without_the_parser(self):
        peer_file = os.path.join(self.repo_path, "lexer.py")
        with open(peer_file, "w") as handle:
            handle.write("tokens = []\n")
        self.claude.live_session(self.repo_path, name="peer", edits=[peer_file])
        payload = {"session_id": self.me.session_id, "cwd": self.repo_path, "hook_event_name": "PreToolUse",
                   "tool_name": "Bash", "tool_input": {"command": "git add -A"}}
        self.run_hook("git_index_guard.py", payload)  # the first run scans the peer's transcript
        completed, names = imported_modules("git_index_guard.py", payload, self.claude.env(), self.repo_path)
        self.assertIn(b"lexer.py", completed.stdout)
        self.assertNotIn("peerhooks.claude.transcripts", names)  # its scan ends where the transcript ends
        # nor what only other lines need: feeds and stash sequences, the rewrite model, select's library
        self.assertEqual(sorted(names & {"peerhooks.shell.feeds", "peerhooks.git.stash_sequence", "peerhooks.shell.rewrites",
                                         "peerhooks.git.patch_roundtrip", "select", "re"}), [])
        # nor `os` (~1.2 ms under -S with _collections_abc): peerhooks.startup.oscalls makes its calls
        self.assertEqual(sorted(names & {"os", "posixpath", "_collections_abc", "stat"}), [])


    def test_the_guard_scans_a_peers_grown_transcript_without_re(self):
        peer_file = os.path.join(self.repo_path, "lexer.py")
        with open(peer_file, "w") as handle:
            handle.write("tokens = []\n")
        self.claude.live_session(self.repo_path, name="peer", edits=[peer_file])  # never scanned yet
        payload = {"session_id": self.me.session_id, "cwd": self.repo_path, "hook_event_name": "PreToolUse",
                   "tool_name": "Bash", "tool_input": {"command": "git add -A"}}
        completed, names = imported_modules("git_index_guard.py", payload, self.claude.env(), self.repo_path)
        self.assertIn(b"lexer.py", completed.stdout)
        self.assertIn("peerhooks.claude.transcripts", names)  # it was parsed...
        self.assertNotIn("re", names)  # ...probing each line's role by hand (~6 ms under -S)

    def test_every_family_of_judged_line_and_the_edit_notice_load_no_os(self):
        """os costs ~1.2 ms under -S; peerhooks.startup.oscalls makes the calls of every module these load."""
        peer_file = os.path.join(self.repo_path, "lexer.py")
        with open(peer_file, "w") as handle:
            handle.write("tokens = []\n")
        subprocess.run(["git", "-C", self.repo_path, "add", "lexer.py"], check=True, capture_output=True)
        subprocess.run(["git", "-C", self.repo_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm",
                        "lexer"], check=True, capture_output=True,  # committed before the peer's change below
                       env=dict(os.environ, GIT_AUTHOR_DATE="2020-01-01T00:00:00", GIT_COMMITTER_DATE="2020-01-01T00:00:00"))
        with open(peer_file, "a") as handle:  # the peer's change: unstaged, in a tracked file
            handle.write("tokens.append(1)\n")
        with open(os.path.join(self.repo_path, "Makefile"), "w") as handle:
            handle.write("commit:\n\tgit add -A && git commit -m save\n")
        self.claude.live_session(self.repo_path, name="peer", edits=[peer_file])
        os_modules = {"os", "posixpath", "_collections_abc", "stat"}
        for command in ("git checkout .", "git stash", "git reset --hard", "git rm -r --cached .", "make commit",
                        "for f in lexer.py; do git add $f; done"):
            payload = {"session_id": self.me.session_id, "cwd": self.repo_path, "hook_event_name": "PreToolUse",
                       "tool_name": "Bash", "tool_input": {"command": command}}
            self.run_hook("git_index_guard.py", payload)  # the first run scans the peer's transcript (re)
            completed, names = imported_modules("git_index_guard.py", payload, self.claude.env(), self.repo_path)
            self.assertIn(b"lexer.py", completed.stdout, command)
            self.assertEqual(sorted(names & os_modules), [], command)
        payload = {"session_id": self.me.session_id, "cwd": self.repo_path, "hook_event_name": "PreToolUse",
                   "tool_name": "Edit", "tool_input": {"file_path": peer_file, "old_string": "a", "new_string": "b"}}
        completed, names = imported_modules("edit_notice.py", payload, self.claude.env(), self.repo_path)
        self.assertIn(b"lexer.py", completed.stdout)
        self.assertEqual(sorted(names & os_modules), [])


class EditScanShortcuts(support.HomeTestCase):
    def transcript(self, edited, at_ms):
        path = os.path.join(self.tmp, "t.jsonl")
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(claudehome.edit_record("s", "/r", edited, at_ms)) + "\n")
        return path

    def test_an_unchanged_transcript_gives_back_the_remembered_scan(self):
        path = self.transcript("/r/a.py", claudehome.now_ms())
        first = transcripts.recent_edits(path)
        self.assertIs(transcripts.recent_edits(path, known=first), first)

    def test_a_transcript_rewritten_to_the_same_size_without_a_whole_last_line_is_scanned_again(self):
        path = self.transcript("/r/a.py", claudehome.now_ms())
        first = transcripts.recent_edits(path)
        with open(path, "r+b") as handle:  # same file, same size, the last newline gone
            handle.seek(-1, os.SEEK_END)
            handle.write(b" ")
        again = transcripts.recent_edits(path, known=first)
        self.assertIsNot(again, first)
        self.assertEqual(again.scanned_to, 0)

    def test_rows_not_asked_about_are_kept_in_order_when_the_index_is_saved(self):
        now = claudehome.now_ms()
        paths = [os.path.join(self.tmp, "%s.jsonl" % name) for name in ("one", "two", "three")]
        for index, path in enumerate(paths):
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(json.dumps(claudehome.edit_record("s", "/r", "/r/%d.py" % index, now)) + "\n")
        editindex.recent_edits_of(self.claude.home, paths, now)
        with open(paths[1], "a", encoding="utf-8") as handle:
            handle.write(json.dumps(claudehome.edit_record("s", "/r", "/r/new.py", now + 1)) + "\n")
        editindex.recent_edits_of(self.claude.home, [paths[1]], now)
        stored = editindex.load(self.claude.home)
        self.assertEqual(list(stored), paths)
        self.assertEqual([e.path for e in stored[paths[1]][0].edits], ["/r/new.py", "/r/1.py"])
        self.assertEqual([e.path for e in stored[paths[2]][0].edits], ["/r/2.py"])


class TranscriptLookup(support.HomeTestCase):
    def test_a_shared_cwd_is_resolved_and_its_folders_found_once_and_found_alike(self):
        repo = self.repo()
        sessions = [self.claude.live_session(repo, name="p%d" % i) for i in range(3)]
        folders_of = {}
        found = [home.transcript_path(self.claude.home, s.session_id, repo, folders_of) for s in sessions]
        self.assertEqual(found, [home.transcript_path(self.claude.home, s.session_id, repo) for s in sessions])
        self.assertEqual(found, [s.transcript for s in sessions])
        self.assertEqual(folders_of, {repo: home.project_dirs(self.claude.home, os.path.realpath(repo))})
        self.assertEqual(folders_of[repo], [os.path.dirname(sessions[0].transcript)])


class EndingTheProcess(unittest.TestCase):
    def test_a_hook_that_ends_its_process_delivers_all_it_wrote_and_its_code(self):
        code = ("import sys\n"
                "from peerhooks import hookio\n"
                "def run(payload, argv, environ, now):\n"
                "    return hookio.Outcome(hookio.EXIT_REFUSE, stdout='x' * 1000000, stderr='refused')\n"
                "hookio.serve('t', run, [], raw=b'{}', end_process=True)\n"
                "print('never reached')\n")
        completed = subprocess.run([sys.executable, "-S", "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   env=dict(os.environ, PYTHONPATH=support.SCRIPTS), timeout=support.SCRIPT_TIMEOUT)
        self.assertEqual((completed.returncode, len(completed.stdout), completed.stderr),
                         (2, 1000001, b"refused\n"))


class DisplayPaths(unittest.TestCase):
    def test_paths_inside_the_checkout_read_as_relpath_reads_them(self):
        def through_relpath(path, top):
            relative = os.path.relpath(path, top)
            return relative.replace(os.sep, "/") if not relative.startswith("..") else None

        for top in ("/r", "/r/", "/", "//", "/r/./s", "/r/s/.."):
            for rest in ("a.py", "src/a.py", "src//a.py", "src/./a.py", "src/../a.py", "a/", "..x/a.py",
                         ".hidden", "", "."):
                path = top + "/" + rest
                expected = through_relpath(path, top)
                if expected is not None:
                    self.assertEqual(report.display_path(path, top), expected, (path, top))


if __name__ == "__main__":
    unittest.main()
