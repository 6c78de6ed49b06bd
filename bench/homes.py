"""Claude homes of two sizes for the benchmark, built once and cached under bench/.homes/.

small: 3 live peers with 2 MB transcripts, 20k history lines.
large: 12 live peers with 50 MB transcripts each, 400k history lines (about 17 weeks of a heavy user).
Files are cached across runs (rebuilt after a day, since their times are relative to the build);
the registry is written fresh on every run with real `sleep` processes as the live sessions.
"""
import json
import os
import random
import shutil
import sys
import time
from dataclasses import dataclass, field
from typing import List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from fixtures import claudehome  # noqa: E402
from fixtures.claudehome import ClaudeHome, LiveSession, make_repo  # noqa: E402

CACHE = os.path.join(HERE, ".homes")
CACHE_VERSION = "6"  # 6: the peers' big Write (src/generated.py) is in the tree too, uncommitted
CACHE_MAX_AGE_S = 86400
MB = 1024 * 1024
SID_MARK = "@@SID@@"


@dataclass(frozen=True)
class Size:
    name: str
    peers: int
    transcript_bytes: int
    history_lines: int


SMALL = Size("small", 3, 2 * MB, 20000)
LARGE = Size("large", 12, 50 * MB, 400000)


@dataclass
class BenchHome:
    size: Size
    root: str
    claude: ClaudeHome
    repo: str
    session_id: str
    env: dict
    peers: List[LiveSession] = field(default_factory=list)
    self_session: LiveSession = None

    def close(self):
        self.claude.close()


def _transcript_template(size_bytes, repo, rng):
    """Lines of a realistic transcript (mostly big tool output, some edits, one big Write near the
    end), with the session id left as a marker to fill in per peer."""
    lines, total, at = [], 0, claudehome.now_ms() - 6 * 3600 * 1000
    sid, files = SID_MARK, ["src/mod%d.py" % i for i in range(40)]
    big_write_bytes = min(5 * MB, size_bytes // 4)
    while total < size_bytes - big_write_bytes - 64 * 1024:
        at += 2000
        kind = rng.random()
        if kind < 0.55:
            record = claudehome.tool_result(sid, repo, "output line\n" * rng.randint(500, 6000), at)
        elif kind < 0.8:
            record = claudehome.edit_record(sid, repo, os.path.join(repo, rng.choice(files)), at)
        elif kind < 0.9:
            record = claudehome.bash_record(sid, repo, "pytest -q tests/", at)
        else:
            record = claudehome.user_prompt(sid, repo, "please continue with the next step of the refactor", at)
        line = json.dumps(record) + "\n"
        lines.append(line)
        total += len(line)
    at += 2000
    big = claudehome.edit_record(sid, repo, os.path.join(repo, "src/generated.py"), at, tool="Write",
                                 content="# generated\n" * (big_write_bytes // 12))
    lines.append(json.dumps(big) + "\n")
    for index in range(30):
        at += 2000
        lines.append(json.dumps(claudehome.edit_record(sid, repo, os.path.join(repo, files[index % 7]), at)) + "\n")
    return "".join(lines)


def _write_history(path, lines, peer_ids, repo, rng, now_ms):
    span_ms = 120 * 86400 * 1000
    with open(path, "w", encoding="utf-8") as handle:
        session = None
        for index in range(lines):
            if index % 100 == 0:
                session = "hist-%06d" % (index // 100)
            at = now_ms - span_ms + (span_ms * index) // lines
            text = rng.choice(["ok", "yes", "run the tests again and fix whatever fails now",
                               "/compact", "refactor the parser so it handles heredocs properly"])
            handle.write(json.dumps({"display": text, "pastedContents": {}, "timestamp": at,
                                     "project": repo, "sessionId": session}) + "\n")
        for peer_id in peer_ids:
            for n in range(5):
                handle.write(json.dumps({"display": "peer task number %d: implement the feature end to end" % n,
                                         "pastedContents": {}, "timestamp": now_ms - (5 - n) * 60000,
                                         "project": repo, "sessionId": peer_id}) + "\n")


def _build(size, root):
    rng = random.Random(7)
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    claude = ClaudeHome(os.path.join(root, "userhome"))
    repo = make_repo(os.path.join(root, "repo"), {"README.md": "bench\n", "src/mod0.py": "x = 0\n"})
    # The peers' latest edits are still uncommitted, as a live peer's are: the guard judges what git
    # holds now, so a refused case needs work at stake (src/mod0.py modified, mod1-6 new).
    for index in range(7):
        with open(os.path.join(repo, "src", "mod%d.py" % index), "w", encoding="utf-8") as handle:
            handle.write("x = %d  # a peer's unfinished change\n" % (index + 1))
    with open(os.path.join(repo, "src", "generated.py"), "w", encoding="utf-8") as handle:
        handle.write("# generated\n")  # the file of the big Write near each transcript's end
    template = _transcript_template(size.transcript_bytes, repo, rng)
    peer_ids = ["peer-%02d-0000-0000-0000-000000000000" % i for i in range(size.peers)]
    for peer_id in peer_ids:
        with open(claude.transcript_path(peer_id, repo), "w", encoding="utf-8") as handle:
            handle.write(template.replace(SID_MARK, peer_id))
    self_id = "self-0000-0000-0000-000000000000"
    claude.append_records(self_id, repo, [claudehome.user_prompt(self_id, repo, "start", claudehome.now_ms())])
    _write_history(os.path.join(claude.home, "history.jsonl"), size.history_lines, peer_ids, repo, rng,
                   claudehome.now_ms())
    with open(os.path.join(root, "meta.json"), "w") as handle:
        json.dump({"version": CACHE_VERSION, "built": time.time(), "repo": repo, "self": self_id,
                   "peers": peer_ids}, handle)


def open_home(size):
    """The cached home of a size (built if missing or stale), with live processes registered."""
    root = os.path.join(CACHE, size.name)
    meta_path = os.path.join(root, "meta.json")
    try:
        with open(meta_path) as handle:
            meta = json.load(handle)
        fresh = meta["version"] == CACHE_VERSION and time.time() - meta["built"] < CACHE_MAX_AGE_S
    except (OSError, ValueError, KeyError):
        fresh = False
    if not fresh:
        print("building the %s home (once a day)..." % size.name, file=sys.stderr)
        _build(size, root)
        with open(meta_path) as handle:
            meta = json.load(handle)
    claude = ClaudeHome(os.path.join(root, "userhome"))
    sessions = os.path.join(claude.home, "sessions")
    shutil.rmtree(sessions, ignore_errors=True)
    os.makedirs(sessions)
    home = BenchHome(size, root, claude, meta["repo"], meta["self"], claude.env())
    for index, peer_id in enumerate(meta["peers"]):
        process = claude.spawn()
        claude.registry_entry(process.pid, peer_id, meta["repo"], name="repo-%02d" % index)
        home.peers.append(LiveSession(process.pid, peer_id, "repo-%02d" % index, meta["repo"],
                                      claude.transcript_path(peer_id, meta["repo"]), "", process))
    process = claude.spawn()
    claude.registry_entry(process.pid, meta["self"], meta["repo"], name="repo-self")
    return home


class Homes:
    def __init__(self):
        self.small = open_home(SMALL)
        self.large = open_home(LARGE)

    def close(self):
        self.small.close()
        self.large.close()
