"""The README's test command on a fresh machine (issue 21): it downloads nothing, and a run leaves
nothing behind (files, processes, tmux servers), also when it is interrupted or killed.

Each case runs a real test run as a child process, as a person or CI would, and looks at the
machine afterwards. The waits below are bounds on a hang, never on speed.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import leftovers
import support

TESTS = os.path.dirname(os.path.abspath(__file__))
HANG_S = 60  # a child run, or the watchdog's sweep after it, that takes longer has hung

# A test run that makes one of everything a real run makes (a temporary home with a live peer
# process, a temporary folder, a private tmux server with a session in it), says where they are on
# one line, and then waits to be interrupted.
HOLDING_RUN = r"""
import json, os, shutil, signal, subprocess, sys, tempfile, time, unittest
# As a terminal's foreground job has it: a run started in the background of a script without job
# control inherits SIGINT ignored, and Python then raises no KeyboardInterrupt.
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.path.insert(0, %(tests)r)
import support

class Holds(support.HomeTestCase):
    def test_hold(self):
        peer = self.claude.live_session(self.repo(), name="held-peer")
        folder = tempfile.mkdtemp(prefix="held-")
        socket = None
        if shutil.which("tmux"):
            socket = "peerhooks-e2e-%%d-held" %% os.getpid()
            subprocess.run(["tmux", "-L", socket, "new-session", "-d", "sleep 600"], check=True)
        print(json.dumps({"run": tempfile.gettempdir(), "peer": peer.pid, "folder": folder,
                          "tmux": socket}), flush=True)
        time.sleep(600)

unittest.main(argv=["held", "Holds"])
"""


def tmux_server_answers(socket):
    return subprocess.run(["tmux", "-L", socket, "list-sessions"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


@unittest.skipUnless(os.path.isdir("/proc"), "processes are found through /proc")
class AnInterruptedRunLeavesNothing(unittest.TestCase):
    def hold(self):
        """A holding run as a child in a session of its own (as a terminal's foreground job is)."""
        child = subprocess.Popen([sys.executable, "-c", HOLDING_RUN % {"tests": TESTS}], cwd=TESTS,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        self.addCleanup(self.kill_all, child)
        line = child.stdout.readline()
        if not line:  # the run ended before it held anything: say why
            self.fail(child.stderr.read().decode(errors="replace"))
        made = json.loads(line)
        self.made = made
        self.assertTrue(os.path.isdir(made["folder"]) and leftovers.running(made["peer"]))
        return child, made

    def kill_all(self, child):
        """This test's own cleanup, should the run guard fail: nothing stays because of us."""
        if child.poll() is None:
            child.kill()
        child.wait()
        made = getattr(self, "made", None)
        if made:
            if leftovers.running(made["peer"]):
                os.kill(made["peer"], signal.SIGKILL)
            if made["tmux"]:
                subprocess.run(["tmux", "-L", made["tmux"], "kill-server"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
                try:
                    os.unlink(os.path.join(leftovers._tmux_socket_folder(), made["tmux"]))
                except OSError:
                    pass
            if os.path.basename(made["run"]).startswith(leftovers.RUN_PREFIX):  # never a shared folder
                shutil.rmtree(made["run"], ignore_errors=True)
        for stream in (child.stdout, child.stderr):
            stream.close()

    def assertNothingLeft(self, made):
        deadline = time.monotonic() + HANG_S  # the watchdog sweeps after a killed run
        while time.monotonic() < deadline and (os.path.exists(made["run"]) or leftovers.running(made["peer"])):
            time.sleep(0.1)
        self.assertFalse(os.path.exists(made["run"]), "the run's temporary folder was left")
        self.assertFalse(os.path.exists(made["folder"]))
        self.assertFalse(leftovers.running(made["peer"]), "the live peer's process was left")
        if made["tmux"]:
            self.assertFalse(tmux_server_answers(made["tmux"]), "the tmux server was left")
            self.assertFalse(os.path.exists(os.path.join(leftovers._tmux_socket_folder(), made["tmux"])))

    def test_ctrl_c_in_the_terminal_ends_the_peer_the_tmux_server_and_the_folder(self):
        child, made = self.hold()
        os.killpg(child.pid, signal.SIGINT)
        child.wait(HANG_S)
        self.assertNothingLeft(made)

    def test_sigterm_unwinds_as_an_interrupt_and_leaves_nothing(self):
        child, made = self.hold()
        child.terminate()
        self.assertNotEqual(child.wait(HANG_S), 0)
        self.assertNothingLeft(made)

    def test_a_run_killed_with_sigkill_is_swept_by_its_watchdog(self):
        child, made = self.hold()
        child.kill()
        child.wait(HANG_S)
        self.assertNothingLeft(made)


class TheTestCommandDownloadsNothing(unittest.TestCase):
    def test_end_to_end_tests_without_cached_clients_skip_with_one_line_and_fetch_nothing(self):
        root = os.path.realpath(tempfile.mkdtemp(prefix="peerhooks-fresh-"))
        self.addCleanup(shutil.rmtree, root, True)
        home, bin_folder = os.path.join(root, "home"), os.path.join(root, "bin")
        for folder in (home, bin_folder):
            os.makedirs(folder)
        fetched = os.path.join(root, "fetched")
        for tool in ("npm", "npx", "curl", "wget"):  # any of them run at all is a download attempt
            path = os.path.join(bin_folder, tool)
            with open(path, "w") as handle:
                handle.write("#!/bin/sh\necho %s \"$@\" >> '%s'\nexit 1\n" % (tool, fetched))
            os.chmod(path, 0o755)
        env = {k: v for k, v in os.environ.items() if k not in ("CI", "PEERHOOKS_E2E_CACHE")}
        env.update(HOME=home, PATH=bin_folder + os.pathsep + env.get("PATH", ""))
        completed = subprocess.run([sys.executable, "-m", "unittest", "discover", "-s", os.path.join(TESTS, "e2e"),
                                    "-t", TESTS], cwd=TESTS, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, timeout=HANG_S * 5)
        out = completed.stdout.decode(errors="replace")
        self.assertEqual(completed.returncode, 0, out)
        self.assertEqual(len([line for line in out.splitlines() if line.startswith("skipping")]), 1, out)
        self.assertIn("bash .ci/e2e-setup", out)
        self.assertFalse(os.path.exists(fetched), out)
        self.assertEqual([os.path.join(d, f) for d, _, files in os.walk(home) for f in files], [],
                         "the run wrote into the fresh home")

    def test_asking_a_cached_client_its_version_writes_nothing_into_the_users_home(self):
        from e2e import npmcache

        root = os.path.realpath(tempfile.mkdtemp(prefix="peerhooks-fresh-"))
        self.addCleanup(shutil.rmtree, root, True)
        home, client = os.path.join(root, "home"), os.path.join(root, "codex")
        os.makedirs(home)
        with open(client, "w") as handle:  # as Codex 0.171 does: `--version` makes ~/.codex/tmp/arg0-linux
            handle.write('#!/bin/sh\nmkdir -p "$HOME/.codex/tmp/arg0-linux"\necho codex-cli 9.9.9\n')
        os.chmod(client, 0o755)
        saved = os.environ["HOME"]
        os.environ["HOME"] = home
        self.addCleanup(os.environ.update, HOME=saved)
        self.assertEqual(npmcache.installed_version(client), "9.9.9")
        self.assertEqual(os.listdir(home), [])

    def test_under_ci_a_missing_client_is_a_failure_not_a_skip(self):
        from e2e import npmcache

        saved = os.environ.get("CI")
        os.environ["CI"] = "true"
        self.addCleanup(lambda: os.environ.pop("CI") if saved is None else os.environ.update(CI=saved))
        with self.assertRaises(AssertionError):
            npmcache.skip_unless_ci("Claude Code 0.0.0")


class TheRunHasATemporaryFolderOfItsOwn(unittest.TestCase):
    def test_tmpdir_and_tempfile_point_into_the_runs_folder(self):
        run = support.leftovers.start()
        self.assertEqual(os.environ["TMPDIR"], run)
        self.assertEqual(tempfile.gettempdir(), run)
        self.assertTrue(os.path.basename(run).startswith(leftovers.RUN_PREFIX))


if __name__ == "__main__":
    unittest.main()
