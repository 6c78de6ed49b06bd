"""Shared test helpers: run a hook as Claude Code does (a subprocess, payload on stdin), temp homes."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(REPO, "scripts")
for path in (REPO, SCRIPTS):
    if path not in sys.path:
        sys.path.insert(0, path)

from fixtures.claudehome import ClaudeHome, make_repo  # noqa: E402,F401

SCRIPT_TIMEOUT = 60


def payload_bytes(payload):
    if payload is None:
        return b""
    if isinstance(payload, bytes):
        return payload
    if isinstance(payload, str):
        return payload.encode("utf-8")
    return (json.dumps(payload) + "\n").encode("utf-8")


def run_script(script_name, payload, env, cwd=None, args=(), timeout=SCRIPT_TIMEOUT):
    """Run scripts/<script_name> with the payload as one stdin line; stdout/stderr as text."""
    completed = subprocess.run(
        [sys.executable, os.path.join(SCRIPTS, script_name)] + list(args),
        input=payload_bytes(payload), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=env, cwd=cwd, timeout=timeout,
    )
    completed.stdout = completed.stdout.decode("utf-8", errors="replace")
    completed.stderr = completed.stderr.decode("utf-8", errors="replace")
    return completed


class HomeTestCase(unittest.TestCase):
    """A temporary HOME with a Claude home, a scratch folder, and cleanup of live processes."""

    def setUp(self):
        self.tmp = os.path.realpath(tempfile.mkdtemp(prefix="peerhooks-test-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.claude = ClaudeHome(os.path.join(self.tmp, "userhome"))
        self.addCleanup(self.claude.close)

    def repo(self, name="repo", files=None):
        return make_repo(os.path.join(self.tmp, name), files)

    def run_hook(self, script, payload, args=(), cwd=None, **env):
        return run_script(script, payload, self.claude.env(**env), cwd=cwd or self.tmp, args=args)
