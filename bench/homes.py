"""Claude homes for the benchmark, built once a day and cached under bench/.homes/.

small: 3 live peers with 2 MB transcripts, 20k history lines.
large: 12 live peers with 50 MB transcripts each, 400k history lines (about 17 weeks of a heavy user).
Both also hold a live `claude -p` peer (no history: its prompts come from its transcript only) and 30
sessions that ended in the checkout over the last days, whose transcripts were touched after their
last record (copied or synced), so that their mtimes say nothing about which ended last.
pasted: the large home's twin (the same files, hardlinked, the same live processes) but for two
prompts of 16 KB pasted in: one peer's latest prompt in history, and the `claude -p` peer's in its
transcript. Cases on the two differ by those prompts alone.
dense: the large home's transcripts and processes with 400k history lines all within the last 14 days
(88 MB in the window): the first start cannot read it in one budget.
notes: a small home whose checkout's memory folder holds 100,000 notes.
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
CACHE_VERSION = "7"  # 7: the peers' big Write (src/generated.py) is in the tree too, uncommitted
CACHE_MAX_AGE_S = 86400
MB = 1024 * 1024
SID_MARK = "@@SID@@"
HOUR_MS = 3600 * 1000
PASTED_BYTES = 16 * 1024  # a log or a stack trace pasted into a prompt
SHORT_PROMPT = "now make the retry loop give up after five attempts"
PRINT_PEER_ID = "print-00-0000-0000-0000-000000000000"
NOTES = 100000


@dataclass(frozen=True)
class Size:
    name: str
    peers: int
    transcript_bytes: int
    history_lines: int
    ended: int  # sessions that ended in the checkout
    ended_bytes: int  # each one's transcript


SMALL = Size("small", 3, 2 * MB, 20000, 30, 100 * 1024)
LARGE = Size("large", 12, 50 * MB, 400000, 30, 1 * MB)


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
    first: "BenchHome" = None  # the notes home's twin where every prompt is a session's first

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


def _pasted_prompt(rng):
    """A prompt with a 16 KB log pasted in: a question, then lines of a stack trace and log."""
    lines = ["why does the worker crash on start? here is the log:"]
    while sum(len(line) + 1 for line in lines) < PASTED_BYTES:
        n = rng.randint(1, 999)
        lines.append(rng.choice([
            '  File "/srv/app/worker/queue_%d.py", line %d, in handle_message' % (n, n * 3),
            "2026-11-30 10:%02d:%02d ERROR worker-%d retry-token=%08x failed: connection reset by peer"
            % (n % 60, n % 59, n % 8, n * 7919),
            "    raise ConnectionError(f'broker {host}:{port} went away') from error",
            "--------------------------------------------------------------------------------",
            "a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y-z-" * 2,
        ]))
    return "\n".join(lines)[:PASTED_BYTES]


def _ended_transcript(session_id, repo, size_bytes, end_ms, rng):
    """A finished session's transcript ending at end_ms: its prompts, tool output and edits."""
    records, total, at = [], 0, end_ms - 2 * HOUR_MS
    records.append(claudehome.user_prompt(session_id, repo, "fix the flaky export test in the nightly run", at))
    while total < size_bytes:
        at += 30000
        if rng.random() < 0.7:
            record = claudehome.tool_result(session_id, repo, "output line\n" * rng.randint(100, 800), at)
        else:
            record = claudehome.edit_record(session_id, repo, os.path.join(repo, "src/mod%d.py" % rng.randint(0, 9)), at)
        records.append(record)
        total += len(json.dumps(record))
    records.append(claudehome.user_prompt(session_id, repo, "and add the regression test for the export", end_ms))
    return "".join(json.dumps(record) + "\n" for record in records)


def _history_line(session, text, at, repo):
    return json.dumps({"display": text, "pastedContents": {}, "timestamp": at, "project": repo,
                       "sessionId": session}) + "\n"


def _write_history(path, lines, span_ms, repo, rng, now_ms, extra=()):
    """`lines` lines spread over the last span_ms, with the extra (at_ms, line) merged in time order."""
    extra = sorted(extra)
    with open(path, "w", encoding="utf-8") as handle:
        session = None
        for index in range(lines):
            if index % 100 == 0:
                session = "hist-%06d" % (index // 100)
            at = now_ms - span_ms + (span_ms * index) // lines
            while extra and extra[0][0] <= at:
                handle.write(extra.pop(0)[1])
            text = rng.choice(["ok", "yes", "run the tests again and fix whatever fails now",
                               "/compact", "refactor the parser so it handles heredocs properly"])
            handle.write(_history_line(session, text, at, repo))
        for _, line in extra:
            handle.write(line)


def _peer_lines(peer_ids, repo, now_ms):
    return [(now_ms - (5 - n) * 60000, _history_line(peer_id, "peer task number %d: implement the feature end to end" % n,
                                                     now_ms - (5 - n) * 60000, repo))
            for peer_id in peer_ids for n in range(5)]


def _ended_ids(size):
    return ["ended-%02d-0000-0000-0000-000000000000" % i for i in range(size.ended)]


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
    now = claudehome.now_ms()
    self_id = "self-0000-0000-0000-000000000000"
    claude.append_records(self_id, repo, [claudehome.user_prompt(self_id, repo, "start", now)])
    ended_lines = []
    for index, ended_id in enumerate(_ended_ids(size)):
        end_ms = now - (index + 2) * 4 * HOUR_MS
        path = claude.transcript_path(ended_id, repo)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(_ended_transcript(ended_id, repo, size.ended_bytes, end_ms, rng))
        os.utime(path, (now / 1000.0, now / 1000.0))  # synced after it ended: the mtime says nothing
        ended_lines += [(end_ms - 2 * HOUR_MS, _history_line(ended_id, "fix the flaky export test in the nightly run",
                                                            end_ms - 2 * HOUR_MS, repo)),
                        (end_ms, _history_line(ended_id, "and add the regression test for the export", end_ms, repo))]
    latest = (now - 30000, _history_line(peer_ids[0], SHORT_PROMPT, now - 30000, repo))
    _write_history(os.path.join(claude.home, "history.jsonl"), size.history_lines, 120 * 86400 * 1000, repo,
                   rng, now, ended_lines + _peer_lines(peer_ids, repo, now) + [latest])
    _write_print_peer(claude, repo, SHORT_PROMPT, now)
    with open(os.path.join(root, "meta.json"), "w") as handle:
        json.dump({"version": CACHE_VERSION, "built": time.time(), "repo": repo, "self": self_id,
                   "peers": peer_ids, "now": now}, handle)


def _write_print_peer(claude, repo, latest, now):
    """The `claude -p` peer's transcript (no history): an opening prompt, edits, the latest prompt."""
    path = claude.transcript_path(PRINT_PEER_ID, repo)
    if os.path.exists(path):
        os.unlink(path)  # hardlinked from the large home in its twin: written afresh, not through
    records = [claudehome.user_prompt(PRINT_PEER_ID, repo, "run the nightly export job and report", now - 600000,
                                      entrypoint="sdk-cli")]
    records += [claudehome.edit_record(PRINT_PEER_ID, repo, os.path.join(repo, "src/mod%d.py" % i), now - 500000 + i)
                for i in range(5)]
    records.append(claudehome.user_prompt(PRINT_PEER_ID, repo, latest, now - 60000, entrypoint="sdk-cli"))
    claude.append_records(PRINT_PEER_ID, repo, records)


def _linked_twin(source_root, root):
    """A Claude home whose projects are the source home's files, hardlinked (not a symlink: the
    hooks refuse to follow a link out of the Claude home); returns (ClaudeHome, meta)."""
    shutil.rmtree(root, ignore_errors=True)
    source = os.path.join(source_root, "userhome", ".claude")
    target = os.path.join(root, "userhome", ".claude")
    for folder, _, files in os.walk(os.path.join(source, "projects")):
        relative = os.path.relpath(folder, source)
        os.makedirs(os.path.join(target, relative), exist_ok=True)
        for name in files:
            os.link(os.path.join(folder, name), os.path.join(target, relative, name))
    os.makedirs(os.path.join(target, "sessions"), exist_ok=True)
    with open(os.path.join(source_root, "meta.json")) as handle:
        meta = json.load(handle)
    return ClaudeHome(os.path.join(root, "userhome")), meta


def _build_pasted(large_root, root):
    claude, meta = _linked_twin(large_root, root)
    rng = random.Random(16)
    pasted = _pasted_prompt(rng)
    source = os.path.join(large_root, "userhome", ".claude", "history.jsonl")
    with open(source, "rb") as handle, open(os.path.join(claude.home, "history.jsonl"), "wb") as out:
        data = handle.read()
        shown = _history_line(meta["peers"][0], SHORT_PROMPT, 0, meta["repo"]).split('"timestamp"')[0].encode()
        cut = data.rfind(shown)  # the peer's latest prompt, the one line that differs
        end = data.index(b"\n", cut) + 1
        line = json.loads(data[cut:end])
        line["display"] = pasted
        out.write(data[:cut] + (json.dumps(line) + "\n").encode() + data[end:])
    _write_print_peer(claude, meta["repo"], pasted, meta["now"])
    _write_meta(root, meta)


def _build_dense(large_root, root):
    claude, meta = _linked_twin(large_root, root)
    rng = random.Random(14)
    now = meta["now"]
    _write_history(os.path.join(claude.home, "history.jsonl"), LARGE.history_lines, 13 * 86400 * 1000, meta["repo"],
                   rng, now, _peer_lines(meta["peers"], meta["repo"], now))
    _write_meta(root, meta)


NOTES_SELF = "notes-self-0000-0000-0000-000000000000"
NOTES_FIRST = "notes-first-0000-0000-0000-000000000000"


def _build_notes(root):
    """The notes, two days old; and a second Claude home holding the same notes (hardlinked) where
    no stamp can be recorded (a file stands where the stamps' folder would go), so that every
    prompt there is a session's first after 100,000 notes appeared."""
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    claude = ClaudeHome(os.path.join(root, "userhome"))
    repo = make_repo(os.path.join(root, "repo"), {"README.md": "notes\n"})
    memory = claude.memory_dir(repo)
    first = ClaudeHome(os.path.join(root, "firsthome"))
    first_memory = first.memory_dir(repo)
    old = time.time() - 2 * 86400
    for index in range(NOTES):
        path = os.path.join(memory, "note_%06d.md" % index)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("---\nname: note %d\ndescription: a note number %d\ntype: project\n---\n" % (index, index))
        os.utime(path, (old, old))
        os.link(path, os.path.join(first_memory, os.path.basename(path)))
    os.makedirs(os.path.join(first.home, "peerhooks"), exist_ok=True)
    with open(os.path.join(first.home, "peerhooks", "memory-delta"), "w") as blocker:
        blocker.write("not a folder: no stamp can be written under it\n")
    _write_meta(root, {"repo": repo, "self": NOTES_SELF, "peers": [], "now": claudehome.now_ms()})


def _write_meta(root, meta):
    with open(os.path.join(root, "meta.json"), "w") as handle:
        json.dump(dict(meta, version=CACHE_VERSION, built=time.time()), handle)


def _fresh(root):
    try:
        with open(os.path.join(root, "meta.json")) as handle:
            meta = json.load(handle)
        return meta["version"] == CACHE_VERSION and time.time() - meta["built"] < CACHE_MAX_AGE_S
    except (OSError, ValueError, KeyError):
        return False


def _meta(root):
    with open(os.path.join(root, "meta.json")) as handle:
        return json.load(handle)


def open_home(size):
    """The cached home of a size (built if missing or stale), with live processes registered."""
    root = os.path.join(CACHE, size.name)
    if not _fresh(root):
        print("building the %s home (once a day)..." % size.name, file=sys.stderr)
        _build(size, root)
    meta = _meta(root)
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
    claude.registry_entry(process.pid, PRINT_PEER_ID, meta["repo"], name="repo-print", print_mode=True)
    process = claude.spawn()
    claude.registry_entry(process.pid, meta["self"], meta["repo"], name="repo-self")
    return home


def open_twin(large, name, build):
    """A twin of the large home (pasted, dense): its files cached, its registry the large home's
    (the same live processes)."""
    root = os.path.join(CACHE, name)
    if not _fresh(root) or _meta(root).get("source_built") != _meta(large.root)["built"]:
        print("building the %s home (once a day)..." % name, file=sys.stderr)
        build(large.root, root)
        _write_meta(root, dict(_meta(root), source_built=_meta(large.root)["built"]))
    claude = ClaudeHome(os.path.join(root, "userhome"))
    sessions = os.path.join(claude.home, "sessions")
    shutil.rmtree(sessions, ignore_errors=True)
    shutil.copytree(os.path.join(large.claude.home, "sessions"), sessions)
    home = BenchHome(large.size, root, claude, large.repo, large.session_id, claude.env())
    home.peers = large.peers
    return home


def open_notes():
    """The 100,000-notes home with a session live in it (its stamp recorded by the warm-up run:
    every timed prompt is a quiet one), and `first`: the home where a session that started before
    the notes appeared can record no stamp (every prompt is its first)."""
    root = os.path.join(CACHE, "notes")
    if not _fresh(root):
        print("building the notes home (once a day, ~40 s)...", file=sys.stderr)
        _build_notes(root)
    meta = _meta(root)
    homes = []
    for folder, session_id, started_ms in (("userhome", NOTES_SELF, claudehome.now_ms() - HOUR_MS),
                                            ("firsthome", NOTES_FIRST, claudehome.now_ms() - 3 * 86400 * 1000)):
        claude = ClaudeHome(os.path.join(root, folder))
        sessions = os.path.join(claude.home, "sessions")
        shutil.rmtree(sessions, ignore_errors=True)
        os.makedirs(sessions)
        process = claude.spawn()
        claude.registry_entry(process.pid, session_id, meta["repo"], name=session_id[:11], started_ms=started_ms)
        homes.append(BenchHome(None, os.path.join(root, folder), claude, meta["repo"], session_id, claude.env()))
    homes[0].first = homes[1]
    return homes[0]


class Homes:
    def __init__(self):
        self.small = open_home(SMALL)
        self.large = open_home(LARGE)
        self.pasted = open_twin(self.large, "large-pasted", _build_pasted)
        self.dense = open_twin(self.large, "large-dense", _build_dense)
        self.notes = open_notes()

    def close(self):
        self.small.close()
        self.large.close()
        self.notes.close()
        self.notes.first.close()
