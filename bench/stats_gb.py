"""Seconds per GB for `peers.py --stats`: builds about 1 GB of transcripts and times the scan.

Thirty days of transcripts on a busy machine are gigabytes, and the stats must read them in well
under a second per GB. The set built here has the shape that makes that hard: most bytes are big
tool results (the output doubled in `toolUseResult`, as Claude Code writes it) and `Write` records
carrying whole files, among many small assistant and tool records; a few records hit the scan's
markers for real and a few only look like they might (a grep output that mentions HANDOFF.md).

    python3 bench/stats_gb.py [--size-mb 1024] [--keep DIR] [--repeat 3]

With --keep the set is built once in DIR and reused. Times are warm page cache (the set is read
once before timing); a cold read is bounded by the disk, not by this code.
"""
import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "scripts"))

from peerhooks.peers import stats
from peerhooks.peers.stats import figures, scan as stats_scan  # noqa: E402

DAY_MS = 86400 * 1000
SESSIONS = 64
PROJECTS = 6
# Share of bytes, and mean bytes per step, of the three kinds of step a session takes.
SMALL_SHARE, SMALL_MEAN = 0.25, 5000  # assistant text, a short Bash call and its result
READ_SHARE, READ_MEAN = 0.45, 420000  # a big tool result, its text twice (content and toolUseResult)
WRITE_SHARE, WRITE_MEAN = 0.30, 310000  # a Write carrying a whole file
_WEIGHTS = (SMALL_SHARE / SMALL_MEAN, READ_SHARE / READ_MEAN, WRITE_SHARE / WRITE_MEAN)
SMALL_P = _WEIGHTS[0] / sum(_WEIGHTS)
READ_P = _WEIGHTS[1] / sum(_WEIGHTS)
NOW_MS = 1796000000000

_LINES = [
    'def handle(payload, *, timeout=10):\n    """Read the "payload" and answer."""\n',
    "    for index, item in enumerate(items):\n        total += item.get('size', 0)\n",
    '    raise ValueError(f"bad value: {value!r} \\\\ not allowed")\n',
    "    return {\"ok\": True, \"path\": \"/home/me/work/repo/src/module.py\", \"n\": 42}\n",
    "// naïve café — ünïcödé in comments\nconst x = `template ${value}`;\n",
    "  src/peerhooks/registry.py:120:    if session.cwd == cwd:  # same checkout\n",
    "\tlog.debug('tab\\tseparated\\tfields', extra={'k': 'v'})\n",
]


def _text_pool(rng, size):
    parts, total = [], 0
    while total < size:
        line = rng.choice(_LINES)
        parts.append(line)
        total += len(line)
    return "".join(parts)


def _iso(ms):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + ".%03dZ" % (ms % 1000)


class _Writer:
    def __init__(self, handle, session_id, cwd, rng, pool):
        self.handle, self.session_id, self.cwd, self.rng, self.pool = handle, session_id, cwd, rng, pool
        self.parent = None
        self.bytes = 0

    def _text(self, size):
        start = self.rng.randrange(0, len(self.pool) - size - 1)
        return self.pool[start:start + size]

    def record(self, kind, message, at_ms, **extra):
        uid = str(uuid.UUID(int=self.rng.getrandbits(128)))
        record = {
            "parentUuid": self.parent, "isSidechain": False, "userType": "external", "cwd": self.cwd,
            "sessionId": self.session_id, "version": "2.1.197", "gitBranch": "main", "type": kind,
            "message": message, "uuid": uid, "timestamp": _iso(at_ms),
        }
        record.update(extra)
        self.parent = uid
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
        data = line.encode("utf-8")
        self.handle.write(data)
        self.bytes += len(data)

    def tool_use(self, at_ms, name, tool_input):
        tool_id = "toolu_%024x" % self.rng.getrandbits(96)
        message = {"model": "claude-opus-4-7", "id": "msg_%024x" % self.rng.getrandbits(96), "type": "message",
                   "role": "assistant", "content": [{"type": "tool_use", "id": tool_id, "name": name,
                                                     "input": tool_input}],
                   "stop_reason": None, "usage": {"input_tokens": 3, "output_tokens": 120}}
        self.record("assistant", message, at_ms, requestId="req_%024x" % self.rng.getrandbits(96))
        return tool_id

    def tool_result(self, at_ms, tool_id, text, is_error=False):
        message = {"role": "user", "content": [{"tool_use_id": tool_id, "type": "tool_result", "content": text,
                                                "is_error": is_error}]}
        self.record("user", message, at_ms, toolUseResult={"stdout": text, "stderr": "", "interrupted": False})

    def text(self, at_ms, size):
        message = {"model": "claude-opus-4-7", "id": "msg_%024x" % self.rng.getrandbits(96), "type": "message",
                   "role": "assistant", "content": [{"type": "text", "text": self._text(size)}],
                   "stop_reason": None, "usage": {"input_tokens": 3, "output_tokens": 120}}
        self.record("assistant", message, at_ms)


def build(root, total_bytes, seed=7):
    """Write about total_bytes of transcripts under root/projects; returns the Claude home."""
    rng = random.Random(seed)
    pool = _text_pool(rng, 8 * 1024 * 1024)
    home = os.path.join(root, ".claude")
    per_session = total_bytes // SESSIONS
    for number in range(SESSIONS):
        cwd = "/home/me/work/repo%d" % (number % PROJECTS)
        folder = os.path.join(home, "projects", cwd.replace("/", "-"))
        os.makedirs(folder, exist_ok=True)
        session_id = str(uuid.UUID(int=rng.getrandbits(128)))
        start = NOW_MS - rng.randrange(1, 29) * DAY_MS - rng.randrange(0, DAY_MS)
        at = start
        path = os.path.join(folder, session_id + ".jsonl")
        with open(path, "wb") as handle:
            out = _Writer(handle, session_id, cwd, rng, pool)
            out.record("user", {"role": "user", "content": "Fix the flaky test in the registry module please"}, at)
            step = 0
            while out.bytes < per_session:
                at += rng.randrange(500, 20000)
                step += 1
                draw = rng.random()
                if draw < SMALL_P:
                    out.text(at, rng.randrange(200, 2000))
                    tool = out.tool_use(at, "Bash", {"command": "pytest -q tests/test_registry.py",
                                                     "description": "Run tests"})
                    out.tool_result(at + 900, tool, out._text(rng.randrange(300, 3000)))
                elif draw < SMALL_P + READ_P:
                    tool = out.tool_use(at, "Read", {"file_path": cwd + "/src/big_module.py"})
                    out.tool_result(at + 50, tool, out._text(rng.randrange(20000, 400000)))
                else:
                    out.tool_use(at, "Write", {"file_path": cwd + "/src/gen_%d.py" % step,
                                               "content": out._text(rng.randrange(20000, 600000))})
                if step % 4000 == 0:  # lines that only look like they matter
                    tool = out.tool_use(at, "Bash", {"command": "grep -rn HANDOFF.md docs"})
                    out.tool_result(at + 10, tool, "docs/x.md:3: see HANDOFF.md and `claude agents`\n" * 50)
            out.tool_use(at, "ListAgents", {})
            sent = out.tool_use(at + 1, "SendMessage", {"to": "repo-peer", "summary": "hi", "message": "taking src/"})
            out.tool_result(at + 1, sent, '{"success":true,"message":"hi -> repo-peer","msg_id":"m1"}')  # delivered
            out.tool_use(at + 2, "Write", {"file_path": cwd + "/HANDOFF.md", "content": out._text(3000)})
            out.text(at + 3, 400)
        os.utime(path, (at / 1000.0, at / 1000.0))
    return home


def _read_all(home):
    for path, _, _, _ in stats_scan.transcripts(home):
        with open(path, "rb") as handle:
            while handle.read(16 * 1024 * 1024):
                pass


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--keep", help="build the set here once and reuse it")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    root = args.keep or tempfile.mkdtemp(prefix="peerhooks-stats-bench-")
    try:
        home = os.path.join(root, ".claude")
        if not os.path.isdir(home):
            began = time.perf_counter()
            build(root, args.size_mb * 1024 * 1024)
            print("built %s in %.1f s" % (root, time.perf_counter() - began))
        _read_all(home)
        timings = []
        for _ in range(args.repeat):
            began = time.perf_counter()
            scan = stats_scan.scan_home(home, NOW_MS - 30 * DAY_MS)
            timings.append(time.perf_counter() - began)
        best = min(timings)
        gigabytes = scan.bytes_read / 1e9
        print("scanned %d sessions, %.2f GB: best %.2f s, median %.2f s -> %.2f s per GB"
              % (len(scan.sessions), gigabytes, best, sorted(timings)[len(timings) // 2], best / gigabytes))
        rep = figures.summarize(scan.sessions, stats.checkout_keys(scan.sessions),
                              figures.window(NOW_MS, 30), scan.malformed, scan.bytes_read)
        print("sessions=%d peer_messages=%d listing=%d handoffs=%d malformed=%d"
              % (rep.sessions, rep.peer_messages, rep.listing_sessions, rep.handoff_sessions, rep.malformed))
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
