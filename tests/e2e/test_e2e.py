"""peerhooks against the real Claude Code CLI: several live sessions in one checkout (issue 8).

Each scenario runs real sessions of the pinned CLI in a temporary home where `install.py --scope
user` wired the four hooks, and asserts from two oracles only: the stub API's request log (what the
model was really shown: hook stdout as `SessionStart:… hook success:` / `UserPromptSubmit hook
success:` paragraphs of a system message after the prompt, a refusal as an `is_error` tool_result)
and the files on disk (git's index and log, the memory folder).

Every scenario runs once per Claude Code version in claude_cli.VERSIONS (the current one and the
oldest supported): the classes below are templates, and `for_each_version` makes one TestCase per
version from each (`SessionsSharingOneCheckout_2_1_332`, …). A version that is not cached skips
with one line saying how to get it, except under CI=true, where it is installed or fails.
"""
import json
import os
import re
import subprocess
import sys
import time
import unittest

from .claude_cli import CURRENT_VERSION, OLDEST_VERSION, VERSIONS, Sandbox, require_e2e_tools, wait_for
from .stub_api import body_session_id, current_prompt

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOOK_SCRIPTS = ("peers.py", "memory_delta.py", "git_index_guard.py", "cold_start.py")
HOOK_OUTPUT = re.compile(r"(SessionStart:\w+|UserPromptSubmit) hook success: ")
# Claude Code appends its own agent and skill listing to the message that carries hook output.
CLAUDE_LISTING = re.compile(r"\n\n(Available agent types for the Agent tool:|The following skills are available)")
PEERS_HEADER = re.compile(r"Live sessions in this checkout \(\d+\):\n- (\S+)")
MESSAGE_TIMEOUT_S = 60


def setUpModule():
    missing = [name for name in HOOK_SCRIPTS if not os.path.exists(os.path.join(REPO, "scripts", name))]
    if missing or not os.path.exists(os.path.join(REPO, "install.py")):
        reason = "peerhooks is not complete yet (missing: %s)" % ", ".join(missing or ["install.py"])
        print("\nskipping e2e tests: %s" % reason, flush=True)
        raise unittest.SkipTest(reason)


# -- reading the request log ----------------------------------------------------------------------

def _content_text(message):
    content = message.get("content")
    if isinstance(content, str):
        return content
    parts = []
    for block in content or []:
        if isinstance(block, dict):
            inner = block.get("text", block.get("content", ""))
            parts.append(inner if isinstance(inner, str) else json.dumps(inner))
    return "\n".join(parts)


def turn_messages(body):
    """The messages from the current prompt onward (earlier turns stay in every later request)."""
    messages = body["messages"]
    prompt = current_prompt(messages)[0].strip()
    start = max(i for i, m in enumerate(messages)
                if m.get("role") == "user" and prompt and prompt in _content_text(m))
    return messages[start:]


def turn_context(bodies):
    """What the model was shown for this prompt, in the turn's first request."""
    return "\n".join(_content_text(m) for m in turn_messages(bodies[0]))


def hook_output(context, event):
    """The stdout a hook event delivered into a turn's context ('' when none): the text after
    `<event> hook success: ` up to the next hook's paragraph."""
    pieces = HOOK_OUTPUT.split(context)
    found = []
    for index in range(1, len(pieces) - 1, 2):
        if pieces[index].startswith(event):
            found.append(CLAUDE_LISTING.split(pieces[index + 1], 1)[0])
    return "\n".join(found)


def tool_results(bodies, tool="Bash"):
    """(input, is_error, text) for every call of `tool` in the turn, from its last request; a Bash
    call's input is its command line."""
    messages = turn_messages(bodies[-1])
    commands = {}
    for message in messages:
        for block in message.get("content") if isinstance(message.get("content"), list) else []:
            if block.get("type") == "tool_use" and block.get("name") == tool:
                commands[block["id"]] = block["input"]["command"] if tool == "Bash" else block["input"]
    results = []
    for message in messages:
        for block in message.get("content") if isinstance(message.get("content"), list) else []:
            if block.get("type") == "tool_result" and block.get("tool_use_id") in commands:
                text = _content_text({"content": block.get("content")})
                results.append((commands[block["tool_use_id"]], bool(block.get("is_error")), text))
    return results


def print_session_context(sandbox, token):
    """The turn context of the `-p` session whose prompt holds token."""
    bodies = [r.body for r in sandbox.stub.requests
              if isinstance(r.body, dict) and r.body.get("tools")
              and token in current_prompt(r.body.get("messages") or [])[0]]
    if not bodies:
        raise AssertionError("no request from the -p session %r" % token)
    return turn_context(bodies)


# -- building the world -----------------------------------------------------------------------------

def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), capture_output=True, text=True, check=True).stdout


def make_checkout(path):
    os.makedirs(os.path.join(path, "src"))
    git(path, "init", "-q")
    git(path, "config", "user.name", "e2e")
    git(path, "config", "user.email", "e2e@example.invalid")
    with open(os.path.join(path, "README.md"), "w") as handle:
        handle.write("shared checkout\n")
    git(path, "add", "README.md")
    git(path, "commit", "-q", "-m", "init")
    return path


def install_peerhooks(sandbox):
    result = subprocess.run([sys.executable, os.path.join(REPO, "install.py"), "--scope", "user"],
                            cwd=sandbox.root, env=sandbox.env(), capture_output=True, text=True)
    if result.returncode != 0:
        raise AssertionError("install.py failed: %s%s" % (result.stdout, result.stderr))
    settings = os.path.join(sandbox.claude_home, "settings.json")
    with open(settings, encoding="utf-8") as handle:
        wired = handle.read()
    for name in HOOK_SCRIPTS:
        if name not in wired:
            raise AssertionError("install.py did not wire %s: %s" % (name, wired))


def transcript_text(sandbox, session_id):
    """A session's top-level transcript as text ('' until it exists)."""
    projects = os.path.join(sandbox.claude_home, "projects")
    for folder in os.listdir(projects) if os.path.isdir(projects) else ():
        path = os.path.join(projects, folder, session_id + ".jsonl")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as handle:
                return handle.read()
    return ""


def can_message(session):
    """Whether the client can deliver a message to this session: its registry entry has a messaging
    socket (2.1.332 on; 2.1.197 has none, and SendMessage to it fails)."""
    return bool((session.entry or {}).get("messagingSocketPath"))


def peers_stats(sandbox):
    """`peers.py --stats --json` over the sandbox's Claude home."""
    done = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "peers.py"), "--stats", "--json",
                           "--days", "1"], env=sandbox.env(), capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


class Sandboxed:
    """A template: for_each_version makes the TestCases (a scenario about several versions mixes in
    TestCase itself and names its `version`). Whatever set-up fails, the class cleanup
    ends every session, the tmux server and the stub (unittest runs class cleanups even when
    setUpClass raises, where it skips tearDownClass)."""

    version = None  # set per generated class

    @classmethod
    def setUpClass(cls):
        cli = require_e2e_tools(cls.version)
        started = time.monotonic()
        cls.sandbox = Sandbox(cli, cls.version)

        def close():
            cls.sandbox.close()
            print("\n%s: %.1f s" % (cls.__name__, time.monotonic() - started), file=sys.stderr)

        cls.addClassCleanup(close)
        install_peerhooks(cls.sandbox)



class SandboxedEachTest:
    """A template whose every test gets a fresh sandbox with peerhooks installed (for scenarios whose
    sessions must not meet another test's), timed on stderr."""

    version = None  # set per generated class

    def setUp(self):
        self.started = time.monotonic()
        self.sandbox = Sandbox(require_e2e_tools(self.version), self.version)
        self.addCleanup(self.sandbox.close)
        install_peerhooks(self.sandbox)

    def tearDown(self):
        print("\n%s: %.1f s" % (self.id(), time.monotonic() - self.started), file=sys.stderr)


def for_each_version(template, versions=VERSIONS):
    """One TestCase per Claude Code version from a scenario template, into the template's module
    (so other e2e modules decorate their templates with it too)."""
    module = sys.modules[template.__module__]
    for version in versions:
        name = "%s_%s" % (template.__name__, version.replace(".", "_"))
        setattr(module, name, type(name, (template, unittest.TestCase),
                                   {"version": version, "__module__": template.__module__,
                                    "__doc__": template.__doc__}))
    return template


@for_each_version
class SessionsSharingOneCheckout(Sandboxed):
    """Scenarios 1-4: A and B live in one checkout, then A ends and C starts. The steps build on
    each other, so the tests run in their numbered order."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.repo = make_checkout(os.path.join(cls.sandbox.root, "work", "shared"))
        cls.memory_dir = os.path.join(cls.sandbox.claude_home, "projects",
                                      re.sub(r"[^A-Za-z0-9]", "-", cls.repo), "memory")
        cls.a_opening = "start the parser module for the shared checkout"
        cls.a = cls.sandbox.interactive(cls.repo)
        cls.a_name = cls.a.name
        cls.a_can_message = can_message(cls.a)
        cls.a.prompt("%s [[write: %s/src/a.py <<<def parse():\n    return 1\n>>>]]"
                     % (cls.a_opening, cls.repo))
        cls.b = cls.sandbox.interactive(cls.repo)
        cls.b_first = cls.b.prompt("look around before starting the exporter work")

    def test_1_new_session_is_told_of_the_live_peer_its_intent_and_its_file(self):
        told = hook_output(turn_context(self.b_first), "SessionStart:startup")
        self.assertIn(self.a_name, told)
        self.assertIn(self.a_opening, told)
        self.assertIn("src/a.py", told)

    def test_1_advice_to_message_the_peer_is_given_only_where_the_client_delivers_it(self):
        told = hook_output(turn_context(self.b_first), "SessionStart:startup")
        if self.a_can_message:
            self.assertIn("SendMessage", told)
        else:
            self.assertNotIn("SendMessage", told)
            self.assertIn("through the user", told)

    def test_2_sweeping_git_add_is_refused_naming_the_peer_and_narrow_commit_goes_through(self):
        sweep = self.b.prompt("stage everything now [[bash: git add -A]]")
        [(command, is_error, text)] = tool_results(sweep)
        self.assertEqual(command, "git add -A")
        self.assertTrue(is_error, text)
        self.assertIn("peerhooks git guard: %s has src/a.py untracked; `git add -A` would stage it" % self.a_name,
                      text)  # a deny: the reason itself (2.1.197), after `PreToolUse:Bash hook error: ` (2.1.332)
        self.assertEqual(git(self.repo, "diff", "--cached", "--name-only"), "")

        narrow = self.b.prompt(
            "write the exporter and commit only it [[write: %s/src/b.py <<<EXPORT = True\n>>>]] "
            "[[bash: git add src/b.py && git commit -m x -- src/b.py]]" % self.repo)
        [(command, is_error, text)] = tool_results(narrow)
        self.assertFalse(is_error, text)
        self.assertEqual(git(self.repo, "show", "--name-only", "--format=%s", "HEAD").split(),
                         ["x", "src/b.py"])

    def test_3_peer_memory_is_announced_once_as_the_peers(self):
        description = "the parser returns one for every input"
        self.a.prompt("note a fact for the others [[write: %s/parser_fact.md <<<---\nname: parser-fact\n"
                      "description: %s\nmetadata:\n  type: project\n---\n\nThe parser returns 1.\n>>>]]"
                      % (self.memory_dir, description))
        self.assertTrue(os.path.exists(os.path.join(self.memory_dir, "parser_fact.md")))
        announced = hook_output(turn_context(self.b.prompt("what changed in the shared notes")),
                                "UserPromptSubmit")
        self.assertIn("parser_fact.md", announced)
        self.assertIn(description, announced)
        self.assertIn(self.a_name, announced)
        again = turn_context(self.b.prompt("carry on with the exporter please"))
        self.assertNotIn("parser_fact.md", again)

    def test_4_session_started_after_a_ended_is_told_about_a_as_the_last_session(self):
        self.a.exit()
        c = self.sandbox.interactive(self.repo)
        told = hook_output(turn_context(c.prompt("what happened here before me")),
                           "SessionStart:startup")
        last = told[told.find("Last session in this checkout"):]
        self.assertIn("Last session in this checkout", told)
        self.assertIn(self.a_opening, last)
        self.assertIn("src/a.py", last)


@for_each_version
class ColdStartPerAgentKey(Sandboxed):
    """Scenario 5: two agent keys each see a rule change once; a third start sees nothing new."""

    def test_each_agent_key_sees_a_rule_change_once(self):
        repo = make_checkout(os.path.join(self.sandbox.root, "work", "keys"))
        with open(os.path.join(repo, "CLAUDE.md"), "w") as handle:
            handle.write("# Rules\nKeep functions small.\n")

        def start(key, token):
            done = self.sandbox.print_session(repo, "%s start of %s" % (token, key),
                                              LI_PLUS_AGENT_KEY=key)
            self.assertEqual(done.returncode, 0, done.stderr)
            return hook_output(print_session_context(self.sandbox, token), "SessionStart:startup")

        start("lin", "first-lin")
        start("lay", "first-lay")
        with open(os.path.join(repo, "CLAUDE.md"), "a") as handle:
            handle.write("Never sweep the shared index.\n")
        lay_again = start("lay", "second-lay")
        lin_again = start("lin", "second-lin")
        lin_third = start("lin", "third-lin")
        rule_file = os.path.join(repo, "CLAUDE.md")
        for told in (lay_again, lin_again):
            self.assertIn("━━━ Rules ━━━", told)
            rules = told[told.find("━━━ Rules ━━━"):]
            self.assertIn(rule_file, rules.split("━━━", 3)[2])
        self.assertNotIn("Cold start:", lin_third)  # nothing new: cold start says nothing
        self.assertNotIn("━━━ Rules ━━━", lin_third)


@for_each_version
class SessionAloneAfterClear(Sandboxed):
    """Scenario 6: /clear gives the session a new id; it still is not its own peer."""

    def test_git_add_all_is_allowed_after_clear_when_alone(self):
        repo = make_checkout(os.path.join(self.sandbox.root, "work", "alone"))
        with open(os.path.join(repo, "src", "new.py"), "w") as handle:
            handle.write("NEW = 1\n")
        session = self.sandbox.interactive(repo)
        session.prompt("settle in before the clear please")
        first_id = session.session_id
        session.clear()
        self.assertNotEqual(session.session_id, first_id)
        [(command, is_error, text)] = tool_results(session.prompt("stage it all [[bash: git add -A]]"))
        self.assertFalse(is_error, text)
        self.assertIn("src/new.py", git(repo, "diff", "--cached", "--name-only"))



FORK_SINCE = (2, 1, 214)  # the first version whose SessionStart has source `fork`


def version_tuple(version):
    return tuple(int(part) for part in version.split("."))


@for_each_version
class ForkedSessionIsToldOfItsPeers(Sandboxed):
    """Scenario 8 (issue 12): a fork (`--resume <id> --fork-session`, SessionStart source `fork`)
    runs the installed SessionStart hooks and is told of the live peer in its checkout."""

    def test_fork_is_told_of_the_live_peer(self):
        if version_tuple(self.version) < FORK_SINCE:
            self.skipTest("Claude Code %s has no fork source (it resumes the same session)" % self.version)
        with open(os.path.join(self.sandbox.claude_home, "settings.json"), encoding="utf-8") as handle:
            matchers = [group.get("matcher") or "" for group in json.load(handle)["hooks"]["SessionStart"]
                        if "peers.py" in json.dumps(group)]
        if not any("fork" in m.split("|") for m in matchers):
            self.skipTest("install.py does not register peers.py for SessionStart fork yet: %s" % matchers)
        repo = make_checkout(os.path.join(self.sandbox.root, "work", "fork"))
        a = self.sandbox.interactive(repo)
        first = self.sandbox.print_session(repo, "parent-run look around")
        self.assertEqual(first.returncode, 0, first.stderr)
        parent_id = next(body_session_id(r.body) for r in self.sandbox.stub.requests
                         if isinstance(r.body, dict) and r.body.get("tools")
                         and "parent-run" in current_prompt(r.body.get("messages") or [])[0])
        # 2.1.332 drops a SessionStart output equal to one already in the conversation it resumes
        # or forks (seen in its bundle and in 3 of 4 runs here), so the peer changes between the
        # parent's start and the fork's: the fork's line must be new to be delivered at all.
        a.prompt("peer-busy refactor the parser module for speed")
        forked = self.sandbox.print_session(repo, "fork-run carry on", args=["--resume", parent_id, "--fork-session"])
        self.assertEqual(forked.returncode, 0, forked.stderr)
        body = next(r.body for r in self.sandbox.stub.requests
                    if isinstance(r.body, dict) and r.body.get("tools")
                    and "fork-run" in current_prompt(r.body.get("messages") or [])[0])
        told = hook_output("\n".join(_content_text(m) for m in body["messages"]), "SessionStart:fork")
        self.assertIn(a.name, told)
        self.assertIn("peer-busy refactor the parser module for speed", told)


@for_each_version
class MessagingAPeerByTheNameItWasShown(Sandboxed):
    """Scenario 7 (issue 12): B starts beside A, is shown A by name, sends SendMessage to exactly
    that name, and A receives it. On a client that cannot deliver (2.1.197), the same call fails,
    which is why the advice depends on the peer's messaging socket."""

    def test_message_sent_to_the_shown_name_reaches_the_peer_and_counts_once(self):
        repo = make_checkout(os.path.join(self.sandbox.root, "work", "talk"))
        a = self.sandbox.interactive(repo)
        b = self.sandbox.interactive(repo)
        told = hook_output(turn_context(b.prompt("who is working here with me")), "SessionStart:startup")
        shown = PEERS_HEADER.search(told)
        self.assertIsNotNone(shown, told)
        self.assertEqual(shown.group(1), a.name)
        text = "please leave src/a.py to me for ten minutes"
        [(call, is_error, result)] = tool_results(
            b.prompt("tell the peer [[send: %s <<<%s>>>]]" % (shown.group(1), text)), "SendMessage")
        self.assertEqual(call["to"], a.name)
        if not can_message(a):
            self.assertIn("is currently addressable", result)  # `No agent named '…' is …`
            self.assertIsNone(re.search(r'"success"\s*:\s*true', result), result)
            return
        self.assertFalse(is_error, result)
        self.assertRegex(result, r'"success"\s*:\s*true')
        received = wait_for(lambda: re.search(r'<cross-session-message [^>]*from-name=\\?"([^"\\]+)\\?"[^>]*>([^<]*)',
                                           transcript_text(self.sandbox, a.session_id)),
                         MESSAGE_TIMEOUT_S, "the message in A's transcript")
        self.assertEqual(received.group(1), b.name)
        self.assertIn(text, received.group(2))
        wait_for(lambda: (a.entry or {}).get("status") == "idle", MESSAGE_TIMEOUT_S, "A's turn to end")
        stats = peers_stats(self.sandbox)
        self.assertEqual((stats["messaging_sessions"], stats["peer_messages"]), (1, 1), stats)
        self.assertEqual((stats["receiving_sessions"], stats["received_messages"]), (1, 1), stats)



class OneSessionOfEachVersion(Sandboxed, unittest.TestCase):
    """Scenario 9 (issue 12): A on the current client, B on the oldest, in one checkout. Messaging
    needs both ends on 2.1.332, so B is told to go through its user, and its SendMessage fails."""

    version = CURRENT_VERSION

    def test_session_of_the_oldest_client_is_not_told_to_message_a_current_peer(self):
        oldest = require_e2e_tools(OLDEST_VERSION)
        repo = make_checkout(os.path.join(self.sandbox.root, "work", "mixed"))
        a = self.sandbox.interactive(repo)
        self.sandbox.cli = oldest
        b = self.sandbox.interactive(repo)
        told = hook_output(turn_context(b.prompt("who is working here with me")), "SessionStart:startup")
        self.assertIn(a.name, told)
        self.assertNotIn("SendMessage", told)
        self.assertIn("This session has no messaging socket", told)
        [(_, _, result)] = tool_results(b.prompt("tell the peer [[send: %s <<<hello>>>]]" % a.name), "SendMessage")
        self.assertIn("is currently addressable", result)


if __name__ == "__main__":
    unittest.main()
