"""The e2e harness itself, without any Claude Code: a set-up that fails leaves nothing running."""
import os
import shutil
import stat
import subprocess
import tempfile
import unittest

from . import claude_cli
from .claude_cli import Sandbox


@unittest.skipIf(shutil.which("tmux") is None, "tmux is not installed (apt-get install -y tmux)")
class FailedStartTest(unittest.TestCase):
    def test_session_that_never_registers_is_ended_with_its_tmux_server(self):
        folder = tempfile.mkdtemp(prefix="peerhooks-harness-")
        self.addCleanup(shutil.rmtree, folder, True)
        never_registers = os.path.join(folder, "claude")
        with open(never_registers, "w") as handle:
            handle.write("#!/bin/sh\ntrap '' HUP\nexec sleep 600\n")  # ignores the hang-up tmux sends
        os.chmod(never_registers, stat.S_IRWXU)
        saved = claude_cli.START_TIMEOUT_S
        claude_cli.START_TIMEOUT_S = 1
        self.addCleanup(setattr, claude_cli, "START_TIMEOUT_S", saved)
        sandbox = Sandbox(never_registers)
        try:
            with self.assertRaises(AssertionError):
                sandbox.interactive(folder)
            pid = sandbox._sessions[0].pane_pid
            self.assertTrue(claude_cli._running(pid))
        finally:
            sandbox.close()
        self.assertFalse(claude_cli._running(pid))
        listed = subprocess.run(["tmux", "-L", sandbox.tmux_socket, "list-sessions"], capture_output=True)
        self.assertNotEqual(listed.returncode, 0)  # no server on our socket any more
        self.assertFalse(os.path.exists(sandbox.tmux_socket_path()))
        self.assertFalse(os.path.exists(sandbox.root))


if __name__ == "__main__":
    unittest.main()
