"""The samples in README.md and docs/, produced by the code under test (tests/test_docs.py checks
that every `<!-- sample: NAME -->` block in a document is what its producer here returns).

Each producer builds its records by hand and calls the pure function that renders them, with a fixed
clock and fixed paths, so a sample changes only when what a hook prints changes.
"""
import hashlib
import time

import support  # noqa: F401  (puts scripts/ on sys.path)
from peerhooks.cold_start import quiet as cold_start_quiet, sections, state as cold_start_state, hook as hook_cold_start
from peerhooks.shell import cmdline
from peerhooks.edit_notice import notice as edit_notice
from peerhooks.git import classify, gitstate, kinds
from peerhooks.guard import reason as guard_reason, verdict as guard_verdict
from peerhooks.claude import identity
from peerhooks.memory_delta import report as memory_report, roster_report
from peerhooks.peers import report as peers_report
from peerhooks.claude.activity import Activity, Ended
from peerhooks.claude.editscan import Edit
from peerhooks.wrappers.follower import Follower

REPO = "/home/me/work/repo"
HOME = "/home/me/.claude"
NOW = cold_start_state.parse_stamp("2026-11-30T09:15:00Z")
RULES_V1 = "# House rules\nKeep functions small.\nRun the suite before pushing.\n"
RULES_V2 = "# House rules\nKeep functions small.\nRun the whole suite before pushing.\nNever sweep the shared index.\n"


def rule(path, text):
    return sections.Section(sections.RULE_PREFIX + path, path, text,
                            hashlib.sha256(text.encode()).hexdigest())


MEMORY_V1 = "- [Testing](testing.md) - run the suite with -x"
MEMORY_V2 = MEMORY_V1 + "\n- [Queue](queue.md) - billing jobs move to SQS in March"
COMMITS_V1 = "3f9c1e0a7b21  Ada  Parser returns one\n0c4d2e9f1a33  Ada  init"
COMMITS_V2 = "9b2d77e01c4a  Bo  Export orders as CSV\n" + COMMITS_V1


def workspace_sections(rules_text, memory=MEMORY_V1, commits=COMMITS_V1):
    return [
        rule(REPO + "/CLAUDE.md", rules_text),
        rule(HOME + "/CLAUDE.md", "Answer briefly.\n"),
        sections.section("memory_index", HOME + "/projects/-home-me-work-repo/memory/MEMORY.md "
                         "(first 40 lines):\n" + memory),
        sections.section("recent_commits", "Latest commits on branch main (hash, author, subject):\n"
                         + commits),
    ]


def cold_start_samples():
    loaded = sections.CLIENT_LOADED
    first = workspace_sections(RULES_V1)
    full = sections.plan_emission(first, {}, None, cold_start_state.REASON_ABSENT, client_loaded=loaded)
    recorded = sections.fingerprints_to_record({}, first, full.printed)
    second = workspace_sections(RULES_V2)
    old_texts = {hashlib.sha256(RULES_V1.encode()).hexdigest(): RULES_V1}
    old_texts.update({sections.fingerprint_of(s): s.body for s in first if not sections.is_rule(s)})
    diff = sections.plan_emission(second, recorded, "2026-11-29T17:02:11Z", None, old_texts,
                                  client_loaded=loaded)
    third = workspace_sections(RULES_V1, MEMORY_V2, COMMITS_V2)
    loaded_diff = sections.plan_emission(third, recorded, "2026-11-29T17:02:11Z", None, old_texts,
                                         client_loaded=loaded)
    document = cold_start_state.render_document(cold_start_state.parse_document(None), "default",
                                     {k: v[:16] + "…" for k, v in recorded.items()}, NOW)
    return {
        "full": full.text.rstrip("\n"),
        "diff": diff.text.rstrip("\n"),
        "loaded-diff": loaded_diff.text.rstrip("\n"),
        "help": hook_cold_start.USAGE.rstrip("\n"),
        "state": document.decode().rstrip("\n"),
        "continues": cold_start_quiet.continues_line("fork").rstrip("\n"),
    }


SHOP = "/home/me/work/shop"
NOW_MS = 1796032800000  # 2026-11-30 10:00 UTC
ZONE = time.gmtime  # the samples' clock: the same text on every machine (a hook shows the user's local time)
MINUTE_MS = 60 * 1000


def _at(minutes_ago):
    return NOW_MS - minutes_ago * MINUTE_MS


def peers_samples():
    """peers.py --hook: the last finished session and two live peers, one reachable by message."""
    ended = Ended(Activity(
        session_id="d68f536a-0000", name="shop-d6", cwd=SHOP, status=None, started_ms=_at(240),
        last_active_ms=_at(120), prompt_count=3, opening="add CSV export to the orders page",
        before=None, latest="handle unicode customer names in the CSV export",
        edits=[Edit(SHOP + "/tests/test_export.py", _at(121)), Edit(SHOP + "/shop/export.py", _at(125))],
        edits_truncated=False), _at(120), exited=True)
    busy = Activity(
        session_id="3a", name="shop-3a", cwd=SHOP, status="busy", started_ms=_at(180), last_active_ms=_at(1),
        prompt_count=5, opening="migrate the payment webhooks to the new queue",
        before="port the retry logic from the old worker too", latest="now add tests for the retry backoff",
        edits=[Edit(SHOP + "/tests/test_retry.py", _at(1)), Edit(SHOP + "/shop/queue/retry.py", _at(3))],
        edits_truncated=False)
    idle = Activity(
        session_id="c1", name="shop-c1", cwd=SHOP, status="idle", started_ms=_at(40), last_active_ms=_at(6),
        prompt_count=1, opening=None, before=None, latest="fix the flaky login test on CI",
        edits=[Edit(SHOP + "/tests/test_login.py", _at(7))], edits_truncated=False,
        direction="stop, revert the retry change", settled=[Edit(SHOP + "/tests/conftest.py", _at(20))])
    text = peers_report.hook_report(ended, None, [busy, idle], SHOP, NOW_MS, messageable=frozenset(["3a"]),
                                    zone=ZONE)
    return {"peers-hook": text.rstrip("\n")}


def notice_samples():
    """edit_notice.py: this session is about to write shop/export.py, which shop-3a changed four
    minutes ago and has not committed; shop-3a can receive messages, and so can this session."""
    party = identity.Party("3a", "shop-3a", "3a", None, (), True, True, "session")
    notice = edit_notice.Notice(edit_notice.Candidate(SHOP + "/shop/export.py", SHOP, party, _at(4)),
                                gitstate.PathState("shop/export.py", ".", "M"), "busy",
                                "add a CSV export of the orders page with unicode names")
    return {"edit-notice": edit_notice.render([notice], NOW_MS, can_send=True)}


def roster_samples():
    """memory_delta.py's roster lines: shop-c1 joined since the last prompt, shop-3a ended."""
    joined = Activity(
        session_id="c1", name="shop-c1", cwd=SHOP, status="busy", started_ms=_at(2), last_active_ms=_at(1),
        prompt_count=1, opening=None, before=None, latest="fix the flaky login test on CI",
        edits=[Edit(SHOP + "/tests/test_login.py", _at(1))], edits_truncated=False)
    ended = roster_report.Ended("shop-3a", _at(190), _at(3), [Edit(SHOP + "/shop/queue/retry.py", _at(5))],
                                [Edit(SHOP + "/tests/test_retry.py", _at(9))], exited=True)
    text = roster_report.render([(joined, False)], [ended], SHOP, NOW_MS, can_send=True, zone=ZONE)
    return {"roster": text.rstrip("\n")}


def memory_delta_samples():
    """memory_delta.py: a peer's memory note and a new rule file, newest first."""
    notices = [
        memory_report.Notice("feedback_db.md", "memory", _at(2), "09:58", "shop-3a",
                             "Integration tests must hit a real database, not mocks"),
        memory_report.Notice(".claude/rules/commits.md", "checkout", _at(5), "09:55", "shop-c1",
                             "Commit only your own files, by path"),
    ]
    return {"memory-delta": memory_report.render(notices, [], {}).rstrip("\n")}


def guard_samples():
    """The guard's reason for a sweeping add and a plain commit beside a peer with staged and new
    files, this session having written docs/tutorial.md and changed src/app.py."""
    from peerhooks.guard import narrow
    from peerhooks.git.gitstate import PathState

    command = "git add -A && git commit -m 'Add the tutorial'"
    top = "/work/app"
    world = {p.path: p for p in (PathState("src/parser.py", "A", "."), PathState("src/cache.py", ".", ".", True),
                                 PathState("docs/tutorial.md", ".", ".", True), PathState("src/app.py", ".", "M"))}
    peers = (guard_verdict.Peer("parser-peer", (top + "/src/parser.py", top + "/src/cache.py"), can_message=True),
             guard_verdict.Peer("docs-peer", (), can_message=False, busy=False))
    judged = [guard_verdict.Judged(op, top, peers) for op in classify.parse(command, top) if op.kind != kinds.SAFE]
    own = {top + "/docs/tutorial.md": world["docs/tutorial.md"], top + "/src/app.py": world["src/app.py"]}
    refusals = guard_verdict.verdict(judged, frozenset(own), {top: world}, {top: None})
    suggestion = narrow.suggestion(command, top, [(j.operation, j.toplevel) for j in judged],
                                   {id(r.operation) for r in refusals}, {top: own})
    wrapped = "make commit"
    makefile = {top + "/Makefile": ".PHONY: commit\ncommit:\n\t@git add -A && git commit -m save\n"}
    context = cmdline.Context(follow=Follower(makefile))
    judged = [guard_verdict.Judged(op, top, peers[:1]) for op in classify.parse(wrapped, top, context)
              if op.kind != kinds.SAFE]
    wrapped_refusals = guard_verdict.verdict(judged, frozenset(own), {top: world}, {top: None})
    wrapped_suggestion = narrow.suggestion(wrapped, top, [(j.operation, j.toplevel) for j in judged],
                                           {id(r.operation) for r in wrapped_refusals}, {top: own})
    return {"guard-refusal": guard_reason.reason(refusals, command, suggestion.text),
            "guard-wrapper-refusal": guard_reason.reason(wrapped_refusals, wrapped, wrapped_suggestion.text)}


def samples():
    """Every sample by name."""
    found = {}
    for producer in (cold_start_samples, peers_samples, memory_delta_samples, guard_samples, notice_samples,
                     roster_samples):
        found.update(producer())
    return found


def block(name, text):
    """How a sample stands in a document."""
    fence = "````" if "\n```" in "\n" + text else "```"
    return "<!-- sample: %s -->\n%s\n%s\n%s" % (name, fence, text, fence)


if __name__ == "__main__":
    for name, text in samples().items():
        print(block(name, text) + "\n")
