"""Capture literal samples of what Claude Code writes into fixtures/samples/ (run by hand).

    cd tests && python3 -m e2e.capture_samples [--version V] [output folder]

The version defaults to the current one; the output folder to fixtures/samples/ for 2.1.197 (the
first samples, kept where the tests have always read them) and fixtures/samples/<version>/ for others.
Where the client can message (its registry entry has a messaging socket), a second session in the
checkout lists the sessions and sends the first one a message by its registry name.

Runs a `-p` session and an interactive session of the pinned CLI against the stub, with a tiny hook
that dumps each payload and a snapshot of the registry, then copies registry entries, history lines,
transcripts, a subagent transcript, the memory file the CLI rewrote, hook payloads and the request
excerpts that show how hook output reaches the model. The sandbox path is replaced by /home/me (and
its slug by -home-me), so shapes stay exact while paths are stable.
"""
import json
import os
import re
import shutil
import subprocess
import sys

from .claude_cli import (ALLOWED_TOOLS, CLI_VERSION, OLDEST_VERSION, PERMISSION_MODE, PRINT_TIMEOUT_S,
                         Sandbox, wait_for, ensure_cli)

MESSAGING_TOKEN = re.compile(r'("CLAUDE_CODE_MESSAGING_TOKEN": ")[0-9a-f]+')  # 2.1.332's hook env
REPO_DIR_NAME = "my.repo dir"  # a dot and a space: both become '-' in the slug
ANON_ROOT = "/home/me"

DUMP_HOOK = r'''
import glob, json, os, sys
payload = sys.stdin.read()
event = json.loads(payload).get("hook_event_name")
home = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.expanduser("~/.claude")
registry = {}
for path in glob.glob(os.path.join(home, "sessions", "*.json")):
    with open(path) as handle:
        registry[os.path.basename(path)] = handle.read()
env = {k: v for k, v in os.environ.items() if k.startswith("CLAUDE")}
with open(os.environ["SAMPLE_DUMP"], "a") as out:
    out.write(json.dumps({"event": event, "payload": payload, "env": env, "registry": registry}) + "\n")
if event == "SessionStart":
    print("SAMPLE-SESSIONSTART-STDOUT")
if event == "UserPromptSubmit":
    print("SAMPLE-PROMPTSUBMIT-STDOUT")
if event == "PreToolUse" and "refuse-me" in payload:
    sys.stderr.write("SAMPLE-REFUSAL-STDERR\n")
    sys.exit(2)
'''


def slug(path):
    return "".join(c if c.isalnum() and c.isascii() else "-" for c in path)


SENT_MESSAGE = "the sample message from the second session"
MESSAGE_TIMEOUT_S = 60


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    version = CLI_VERSION
    if argv[:1] == ["--version"] and len(argv) > 1:
        version = argv[1]
        argv = argv[2:]
    samples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures", "samples")
    out_dir = argv[0] if argv else (samples if version == OLDEST_VERSION else os.path.join(samples, version))
    os.makedirs(out_dir, exist_ok=True)
    sandbox = Sandbox(ensure_cli(version), version)
    try:
        capture(sandbox, out_dir)
    finally:
        sandbox.close()
    return 0


def exchange_messages(sandbox, repo, receiver, dump):
    """A second session lists the sessions and messages `receiver` by its registry name; returns its
    session id once the receiver's turn that the message started has ended."""
    sender = sandbox.interactive(repo, SAMPLE_DUMP=dump)
    sender_id = sender.session_id
    sender.prompt("who else is here [[list-agents]] then tell them [[send: %s <<<%s>>>]]"
                  % (receiver.name, SENT_MESSAGE))

    def received():
        path = receiver_transcript(sandbox, receiver.session_id)
        return path and "cross-session-message" in open(path, encoding="utf-8").read()

    wait_for(received, MESSAGE_TIMEOUT_S, "the message in the receiver's transcript")
    wait_for(lambda: (receiver.entry or {}).get("status") == "idle", MESSAGE_TIMEOUT_S, "the receiver's turn")
    sender.exit()
    return sender_id


def receiver_transcript(sandbox, session_id):
    projects = os.path.join(sandbox.claude_home, "projects")
    for folder in os.listdir(projects) if os.path.isdir(projects) else ():
        path = os.path.join(projects, folder, session_id + ".jsonl")
        if os.path.exists(path):
            return path
    return None


def capture(sandbox, out_dir):
    root = sandbox.root
    repo = os.path.join(root, "work", REPO_DIR_NAME)
    sub = os.path.join(repo, "sub")
    os.makedirs(sub)
    subprocess.run(["git", "init", "-q", repo], check=True)
    subprocess.run(["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
                    "--allow-empty", "-m", "init"], check=True)
    hook = os.path.join(root, "dump_hook.py")
    with open(hook, "w") as handle:
        handle.write(DUMP_HOOK)
    dump = os.path.join(root, "dump.jsonl")
    command = {"type": "command", "command": "python3 %s" % hook, "timeout": 10}
    settings = {"hooks": {
        "SessionStart": [{"hooks": [command]}],
        "UserPromptSubmit": [{"hooks": [command]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [command]}],
        "SessionEnd": [{"hooks": [command]}],
    }}
    with open(os.path.join(sandbox.claude_home, "settings.json"), "w") as handle:
        json.dump(settings, handle, indent=2)

    memory_dir = os.path.join(sandbox.claude_home, "projects", slug(repo), "memory")
    p_prompt = ("make the print sample [[write: %s/src/p.py <<<print('p')\n>>>]] then "
                "[[bash: echo refuse-me]]" % repo)
    done = sandbox.print_session(repo, p_prompt, SAMPLE_DUMP=dump)
    assert done.returncode == 0, done.stderr
    print_id = json.loads(json.loads(open(dump, encoding="utf-8").readline())["payload"])["session_id"]
    # A fork of it (SessionStart source `fork` since 2.1.214; 2.1.197 resumes the same id instead).
    forked = subprocess.run([sandbox.cli, "-p", "carry on in a fork", "--resume", print_id, "--fork-session",
                             "--allowedTools", ALLOWED_TOOLS, "--permission-mode", PERMISSION_MODE],
                            cwd=repo, env=sandbox.env(SAMPLE_DUMP=dump), capture_output=True, text=True,
                            timeout=PRINT_TIMEOUT_S)
    assert forked.returncode == 0, forked.stderr

    session = sandbox.interactive(sub, SAMPLE_DUMP=dump)
    first = ("remember the sample fact [[write: %s/s.py <<<x = 1\n>>>]] and "
             "[[write: %s/sample_fact.md <<<---\nname: sample-fact\n"
             "description: samples are captured from the real CLI\nmetadata:\n  type: project\n---\n\n"
             "Samples are captured from the real CLI.\n>>>]] and "
             "[[edit: %s/s.py <<<x = 1>>> <<<x = 2>>>]]" % (sub, memory_dir, sub))
    session.prompt(first)
    sender_id = None
    if (session.entry or {}).get("messagingSocketPath"):
        sender_id = exchange_messages(sandbox, repo, session, dump)
    session.prompt("delegate a look [[agent: <<<please run [[bash: echo from-subagent]] now>>>]]")
    before_clear = session.session_id
    session.clear()
    session.prompt("after the clear, run [[bash: git status --short]]")
    after_clear = session.session_id
    session.exit()

    def anon(text):
        text = text.replace(slug(root), slug(ANON_ROOT)).replace(root, ANON_ROOT)
        return MESSAGING_TOKEN.sub(r"\1<redacted>", text)  # a session's secret, even a dead one's

    def write(name, text):
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as handle:
            handle.write(anon(text))

    records = [json.loads(line) for line in open(dump, encoding="utf-8")]
    registry_print = next(r["registry"] for r in records
                          if r["event"] == "PreToolUse" and "refuse-me" in r["payload"])
    write("registry-print.json", list(registry_print.values())[0] + "\n")
    interactive_entries = [raw for r in records for raw in r["registry"].values()
                           if json.loads(raw).get("entrypoint") == "cli"
                           and json.loads(raw)["sessionId"] != sender_id]
    if sender_id:
        write("registry-messaging-sender.json", next(
            raw for r in records for raw in r["registry"].values()
            if json.loads(raw)["sessionId"] == sender_id) + "\n")
    write("registry-interactive-after-clear.json", interactive_entries[-1] + "\n")
    write("registry-interactive.json", next(
        raw for raw in interactive_entries if json.loads(raw)["sessionId"] == before_clear) + "\n")
    shutil.copy(os.path.join(sandbox.claude_home, "history.jsonl"), os.path.join(out_dir, "_h"))
    write("history.jsonl", open(os.path.join(out_dir, "_h"), encoding="utf-8").read())
    os.remove(os.path.join(out_dir, "_h"))

    for record in records:
        payload = json.loads(record["payload"])
        name = "hook-%s-%s-%s.json" % (
            record["event"], payload.get("source") or payload.get("reason") or payload.get("tool_name")
            or "payload", "print" if record["env"].get("CLAUDE_CODE_ENTRYPOINT") == "sdk-cli"
            else "interactive")
        if os.path.exists(os.path.join(out_dir, name)):
            continue  # the first of each kind is enough
        write(name, json.dumps({"stdin": record["payload"], "env": record["env"]}, indent=1) + "\n")

    projects = os.path.join(sandbox.claude_home, "projects")
    for folder in sorted(os.listdir(projects)):
        for base, _dirs, files in os.walk(os.path.join(projects, folder)):
            for name in files:
                path = os.path.join(base, name)
                rel = os.path.relpath(path, projects)
                if name.endswith(".md"):
                    target = "memory-" + name
                elif "/subagents/" in rel:
                    target = "transcript-subagent-" + name
                else:
                    session_id = name[:-len(".jsonl")]
                    fork_id = next((json.loads(r["payload"])["session_id"] for r in records
                                    if json.loads(r["payload"]).get("source") == "fork"), None)
                    kind = {before_clear: "interactive", after_clear: "interactive-after-clear",
                            sender_id: "messaging-sender", fork_id: "print-fork"}.get(session_id, "print")
                    target = "transcript-%s.jsonl" % kind
                write(target, open(path, encoding="utf-8").read())
                write(target + ".path", rel + "\n")

    # One request of each kind, its messages kept whole except Claude Code's own agent and skill
    # listing, which shares the "system" message with hook output and is cut to one marker line.
    deliveries = {}
    wanted = {"first request of a session: SessionStart and UserPromptSubmit output":
              "SAMPLE-SESSIONSTART-STDOUT",
              "second prompt of a session: UserPromptSubmit output only": "delegate a look",
              "PreToolUse exit 2": "SAMPLE-REFUSAL-STDERR"}
    for label, needle in wanted.items():
        body = next((r.body for r in sandbox.stub.requests
                     if isinstance(r.body, dict) and r.body.get("tools") and needle in json.dumps(r.body)), None)
        if body is None:  # a step this version's run did not take
            continue
        messages = []
        for message in body["messages"]:
            content = message.get("content")
            if message.get("role") == "system" and isinstance(content, str):
                kept = [p for p in content.split("\n\n") if "hook success" in p or "hook error" in p]
                content = "\n\n".join(kept + ["[… Claude Code's agent and skill listing cut …]"])
            messages.append(dict(message, content=content))
        deliveries[label] = messages
    write("request-hook-delivery.json", json.dumps(deliveries, indent=1) + "\n")
    keys = sorted(name for name in os.listdir(os.path.join(sandbox.claude_home, "sessions"))
                  if name.endswith(".key"))
    if keys:  # their names and modes only: a key's content is a secret of that session
        write("registry-key-files.txt", "".join(
            "%s %o\n" % (name, os.stat(os.path.join(sandbox.claude_home, "sessions", name)).st_mode & 0o777)
            for name in keys))
    print("samples written to %s (CLI %s)" % (os.path.abspath(out_dir), sandbox.version))


if __name__ == "__main__":
    raise SystemExit(main())
