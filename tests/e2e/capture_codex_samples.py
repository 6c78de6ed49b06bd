"""Capture literal samples of what Codex sends to hooks into fixtures/samples/codex-0.171/ (by hand).

    cd tests && python3 -m e2e.capture_codex_samples [output folder]

Runs `codex exec` twice in a git checkout (a fresh session, then `exec resume --last`) with a
recording hook on SessionStart, UserPromptSubmit and PreToolUse that keeps each payload's exact
bytes, its argv, cwd and environment, and prints a marker, so the request log shows where each
hook's output reaches the model; then a third run as a model whose metadata offers `apply_patch`
(gpt-5.5: the stub's own model name has none, so Codex offers no file-editing tool), whose patch
adds one file and updates another. The sandbox folder is replaced by /home/me.
"""
import json
import os
import sys

from .codex_cli import CODEX_VERSION, CodexSandbox, require_codex
from .test_e2e_codex import make_checkout

ANON_ROOT = "/home/me"
RECORDING_HOOK = r'''
import json, os, sys
raw = sys.stdin.buffer.read()
event = json.loads(raw).get("hook_event_name")
env = {k: v for k, v in os.environ.items()
       if k.startswith(("CODEX", "CLAUDE")) or k in ("HOME", "PWD", "SHELL", "SHLVL")}
with open(os.environ["SAMPLE_DUMP"], "a") as out:
    out.write(json.dumps({"event": event, "argv": sys.argv[1:], "cwd": os.getcwd(),
                          "stdin": raw.decode("utf-8"), "env": env}) + "\n")
if event == "SessionStart":
    print("SAMPLE-SESSIONSTART-STDOUT")
if event == "UserPromptSubmit":
    print("SAMPLE-PROMPTSUBMIT-STDOUT")
if event == "PreToolUse" and "refuse-me" in raw.decode("utf-8"):
    sys.stderr.write("SAMPLE-REFUSAL-STDERR\n")
    sys.exit(2)
'''
EVENTS = (("SessionStart", "startup|resume|clear"), ("UserPromptSubmit", None),
          ("PreToolUse", "Bash|apply_patch"))
# A model Codex 0.171 knows offers apply_patch, a freeform tool whose input is the patch text.
PATCH_MODEL = "gpt-5.5"
PATCH = ("*** Begin Patch\n*** Add File: src/new.py\n+NEW = 1\n*** Update File: README.md\n@@\n"
         "-shared checkout\n+shared checkout, patched\n*** End Patch")


def wire_recorder(sandbox):
    script = os.path.join(sandbox.root, "record_hook.py")
    with open(script, "w", encoding="utf-8") as handle:
        handle.write(RECORDING_HOOK)
    hooks = {}
    for event, matcher in EVENTS:
        group = {"matcher": matcher} if matcher else {}
        group["hooks"] = [{"type": "command", "command": "%s %s %s" % (sys.executable, script, event),
                           "timeout": 10}]
        hooks[event] = [group]
    with open(sandbox.hooks_file, "w", encoding="utf-8") as handle:
        json.dump({"hooks": hooks}, handle, indent=2)


def sample_detail(event, payload):
    """What tells the samples of one event apart: the source, whether refused, or the prompt."""
    if event == "SessionStart":
        return payload.get("source")
    if event == "PreToolUse":
        if payload.get("tool_name") == "apply_patch":
            return "apply_patch"
        return "refused" if "refuse-me" in json.dumps(payload) else "allowed"
    return "resumed" if payload.get("prompt") == "resumed run" else "first"


def anonymize(text, root):
    return text.replace(root, ANON_ROOT)


def capture(sandbox, out_dir):
    wire_recorder(sandbox)
    dump = os.path.join(sandbox.root, "dump.jsonl")
    repo = make_checkout(os.path.join(sandbox.root, "work", "repo"))
    first = sandbox.exec(repo, "sample run [[bash: git status --short]] [[bash: echo refuse-me]]",
                         SAMPLE_DUMP=dump)
    resumed_args = ["resume", "--last"]
    resumed = sandbox.exec(repo, "resumed run", SAMPLE_DUMP=dump, exec_args=resumed_args)
    patched = sandbox.exec(repo, "patch run [[patch: <<<%s>>>]]" % PATCH, SAMPLE_DUMP=dump,
                           exec_args=["-m", PATCH_MODEL])
    for run in (first, resumed, patched):
        if run.returncode != 0:
            raise SystemExit("codex exec failed: %s" % run.stderr[-2000:])
    with open(dump, encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    written = []
    for record in records:
        payload = json.loads(record["stdin"])
        name = "hook-%s-%s.json" % (record["event"], sample_detail(record["event"], payload))
        if name in written:
            continue
        written.append(name)
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as handle:
            handle.write(anonymize(json.dumps(record, indent=2, ensure_ascii=False), sandbox.root) + "\n")
    delivery = [item for item in first.bodies[-1]["input"]
                if item.get("role") != "developer" or "SAMPLE-" in json.dumps(item)]
    with open(os.path.join(out_dir, "request-hook-delivery.json"), "w", encoding="utf-8") as handle:
        text = json.dumps(delivery, indent=2, ensure_ascii=False)
        handle.write(anonymize(text, sandbox.root) + "\n")
    written.append("request-hook-delivery.json")
    return written


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    here = os.path.dirname(os.path.abspath(__file__))
    out_dir = argv[0] if argv else os.path.join(here, "..", "..", "fixtures", "samples",
                                                "codex-%s" % CODEX_VERSION.rsplit(".", 1)[0])
    os.makedirs(out_dir, exist_ok=True)
    sandbox = CodexSandbox(require_codex())
    try:
        for name in capture(sandbox, out_dir):
            print(os.path.join(out_dir, name))
    finally:
        sandbox.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
