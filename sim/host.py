"""A simulated session's process: one long-lived process per Claude Code session, whose children are
that session's hooks and Bash commands, as a real session's are.

Why a process of its own rather than a `sleep` beside the simulator: peers.py finds its session's
registry entry among the hook's ancestors and remembers each id the process had, which is how a
session stays one party across `/clear` (peerhooks.claude.identity). A hook started by the simulator
itself would have no session among its ancestors. A session killed with -9 leaves its registry entry
behind, as a crashed Claude Code does.

Run as a script it serves requests, one JSON line in (`argv`, `cwd`, `env`, `input`, `timeout`) and
one JSON line out (`code`, `stdout`, `stderr`); the end of its input ends it.
"""
import json
import os
import signal
import subprocess
import sys
from typing import NamedTuple, Optional

# A hook that runs longer is ended, as Claude Code ends one at its timeout (60 s by default) and
# goes ahead with the tool call.
HOOK_TIMEOUT_S = 60


class Ran(NamedTuple):
    """What a child of the session returned; code None when it was ended at the timeout."""
    code: Optional[int]
    stdout: str
    stderr: str


def _serve(stdin, stdout):
    for line in stdin:
        request = json.loads(line)
        try:
            done = subprocess.run(request["argv"], cwd=request["cwd"], env=request["env"],
                                  input=request["input"].encode("utf-8"), capture_output=True,
                                  timeout=request["timeout"])
            reply = {"code": done.returncode, "stdout": done.stdout.decode("utf-8", "replace"),
                     "stderr": done.stderr.decode("utf-8", "replace")}
        except subprocess.TimeoutExpired:
            reply = {"code": None, "stdout": "", "stderr": "timed out"}
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()


class SessionProcess:
    """The simulator's handle on one session's process."""

    def __init__(self, python, env):
        self.process = subprocess.Popen([python, "-S", os.path.abspath(__file__)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, env=env, text=True, encoding="utf-8")

    @property
    def pid(self):
        return self.process.pid

    def alive(self):
        return self.process.poll() is None

    def run(self, argv, cwd, env, input_text="", timeout=HOOK_TIMEOUT_S):
        """Run argv as a child of this session and wait for it."""
        request = {"argv": argv, "cwd": cwd, "env": env, "input": input_text, "timeout": timeout}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        reply = json.loads(self.process.stdout.readline())
        return Ran(reply["code"], reply["stdout"], reply["stderr"])

    def exit(self):
        """The session ends by itself (`/exit`)."""
        if self.alive():
            self.process.stdin.close()
            self.process.wait()
        self._close_pipes()

    def kill(self):
        """The session is killed with -9: nothing of it runs after."""
        if self.alive():
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        self._close_pipes()

    def _close_pipes(self):
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None and not pipe.closed:
                pipe.close()


if __name__ == "__main__":
    _serve(sys.stdin, sys.stdout)
