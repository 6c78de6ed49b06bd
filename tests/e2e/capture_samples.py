"""Capture literal samples of what Claude Code writes into fixtures/samples/ (run by hand).

    cd tests && python3 -m e2e.capture_samples [output folder]

Runs a `-p` session and an interactive session of the pinned CLI against the stub, with a tiny hook
that dumps each payload and a snapshot of the registry, then copies registry entries, history lines,
transcripts, a subagent transcript, the memory file the CLI rewrote, hook payloads and the request
excerpts that show how hook output reaches the model. The sandbox path is replaced by /home/me (and
its slug by -home-me), so shapes stay exact while paths are stable.
"""
import json
import os
import shutil
import subprocess
import sys

from .claude_cli import CLI_VERSION, Sandbox, ensure_cli

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


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    here = os.path.dirname(os.path.abspath(__file__))
    out_dir = argv[0] if argv else os.path.join(here, "..", "..", "fixtures", "samples")
    os.makedirs(out_dir, exist_ok=True)
    sandbox = Sandbox(ensure_cli())
    try:
        capture(sandbox, out_dir)
    finally:
        sandbox.close()
    return 0


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

    session = sandbox.interactive(sub, SAMPLE_DUMP=dump)
    first = ("remember the sample fact [[write: %s/s.py <<<x = 1\n>>>]] and "
             "[[write: %s/sample_fact.md <<<---\nname: sample-fact\n"
             "description: samples are captured from the real CLI\nmetadata:\n  type: project\n---\n\n"
             "Samples are captured from the real CLI.\n>>>]] and "
             "[[edit: %s/s.py <<<x = 1>>> <<<x = 2>>>]]" % (sub, memory_dir, sub))
    session.prompt(first)
    session.prompt("delegate a look [[agent: <<<please run [[bash: echo from-subagent]] now>>>]]")
    before_clear = session.session_id
    session.clear()
    session.prompt("after the clear, run [[bash: git status --short]]")
    after_clear = session.session_id
    session.exit()

    def anon(text):
        return text.replace(slug(root), slug(ANON_ROOT)).replace(root, ANON_ROOT)

    def write(name, text):
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as handle:
            handle.write(anon(text))

    records = [json.loads(line) for line in open(dump, encoding="utf-8")]
    registry_print = next(r["registry"] for r in records
                          if r["event"] == "PreToolUse" and "refuse-me" in r["payload"])
    write("registry-print.json", list(registry_print.values())[0] + "\n")
    interactive_entries = [raw for r in records for raw in r["registry"].values()
                           if json.loads(raw).get("entrypoint") == "cli"]
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
                    kind = {before_clear: "interactive", after_clear: "interactive-after-clear"}.get(
                        session_id, "print")
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
        body = next(r.body for r in sandbox.stub.requests
                    if isinstance(r.body, dict) and r.body.get("tools") and needle in json.dumps(r.body))
        messages = []
        for message in body["messages"]:
            content = message.get("content")
            if message.get("role") == "system" and isinstance(content, str):
                kept = [p for p in content.split("\n\n") if "hook success" in p or "hook error" in p]
                content = "\n\n".join(kept + ["[… Claude Code's agent and skill listing cut …]"])
            messages.append(dict(message, content=content))
        deliveries[label] = messages
    write("request-hook-delivery.json", json.dumps(deliveries, indent=1) + "\n")
    print("samples written to %s (CLI %s)" % (os.path.abspath(out_dir), CLI_VERSION))


if __name__ == "__main__":
    raise SystemExit(main())
