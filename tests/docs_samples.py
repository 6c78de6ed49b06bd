"""The samples in docs/cold-start.md, produced by the code (test_cold_start.DocsTest checks them)."""
import hashlib
import os
import sys

from peerhooks import hook_cold_start, quietstart, sections, state

REPO = "/home/me/work/repo"
HOME = "/home/me/.claude"
NOW = state.parse_stamp("2026-11-30T09:15:00Z")
RULES_V1 = "# House rules\nKeep functions small.\nRun the suite before pushing.\n"
RULES_V2 = "# House rules\nKeep functions small.\nRun the whole suite before pushing.\nNever sweep the shared index.\n"


def rule(path, text):
    return sections.Section(sections.RULE_PREFIX + path, path, text,
                            hashlib.sha256(text.encode()).hexdigest())


def workspace_sections(rules_text):
    return [
        rule(REPO + "/CLAUDE.md", rules_text),
        rule(HOME + "/CLAUDE.md", "Answer briefly.\n"),
        sections.section("memory_index", HOME + "/projects/-home-me-work-repo/memory/MEMORY.md "
                         "(first 40 lines):\n- [Testing](testing.md) - run the suite with -x"),
        sections.section("recent_commits", "Latest commits on branch main (hash, author, subject):\n"
                         "3f9c1e0a7b21  Ada  Parser returns one\n0c4d2e9f1a33  Ada  init"),
    ]


def quiet(key="default"):
    line = hook_cold_start.quiet_line(key, REPO, "claude")
    script = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(hook_cold_start.__file__))),
                          "cold_start.py")
    return line.replace(hook_cold_start.shell_word(sys.executable or "python3"), "python3").replace(
        script, "~/peerhooks/scripts/cold_start.py")


def samples():
    first = workspace_sections(RULES_V1)
    full = sections.plan_emission(first, {}, None, state.REASON_ABSENT, quiet())
    recorded = sections.fingerprints_to_record({}, first, full.printed)
    second = workspace_sections(RULES_V2)
    old_texts = {hashlib.sha256(RULES_V1.encode()).hexdigest(): RULES_V1}
    diff = sections.plan_emission(second, recorded, "2026-11-29T17:02:11Z", None, quiet(), old_texts)
    document = state.render_document(state.parse_document(None), "default",
                                     {k: v[:16] + "…" for k, v in recorded.items()}, NOW)
    return {
        "full": full.text.rstrip("\n"),
        "diff": diff.text.rstrip("\n"),
        "quiet": quiet(),
        "state": document.decode().rstrip("\n"),
        "continues": quietstart.continues_line("fork").rstrip("\n"),
    }


if __name__ == "__main__":
    for name, text in samples().items():
        print("<!-- sample: %s -->\n```\n%s\n```\n" % (name, text))
