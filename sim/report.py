"""The day's numbers, from the ledger (ground truth) and the hooks' answers as the client read them:
one markdown table with a column per run, and the details behind it (which commands lost or
misattributed work, which refusals were false). Pure: takes RunResults, returns text and dicts.
"""
import statistics

ROWS = (
    ("sessions", "sessions"), ("session-hours", "session_hours"), ("steps", "steps"),
    ("changes made", "changes"), ("lost", "lost"), ("misattributed", "misattributed"),
    ("… of them, of sessions that had ended", "misattributed_ended"),
    ("committed by their own session", "committed"), ("uncommitted at the end (kept)", "kept"),
    ("only in the stash at the end", "stashed"), ("discarded by their own session", "discarded"),
    ("collisions", "collisions"), ("told before the write", "told"), ("denies", "denies"), ("asks", "asks"),
    ("false refusals", "false_refusals"), ("… of them moving a peer's work or branch", "false_displacing"),
    ("false refusals / session-hour", "false_per_hour"), ("asks / session-hour", "asks_per_hour"),
    ("offered commands run after a deny", "suggestions_run"), ("hook runs, median ms", "hook_ms"),
    ("hook runs that failed or wrote an error", "hook_failures"),
)


def numbers(result):
    """{row key: value} of one run."""
    states = result.ledger.states()
    hours = result.day.session_hours()
    refusals = result.refusals
    false = [r for r in refusals if r.label not in ("loses", "misattributes")]
    misattributed = states["misattributed"]
    asks = sum(1 for r in refusals if r.decision == "ask")
    return {
        "sessions": len(result.day.sessions), "session_hours": round(hours, 1), "steps": result.steps,
        "changes": len(result.ledger.changes), "lost": len(states["lost"]), "misattributed": len(misattributed),
        "misattributed_ended": sum(1 for c in misattributed if c.marker in result.ledger.ended_at_commit),
        "committed": len(states["committed"]), "kept": len(states["kept"]), "stashed": len(states["stashed"]),
        "discarded": len(states["discarded"]), "collisions": len(result.collisions),
        "told": sum(1 for c in result.collisions if c.told),
        "denies": sum(1 for r in refusals if r.decision == "deny"), "asks": asks,
        "false_refusals": len(false), "false_displacing": sum(1 for r in false if r.label == "displaces"),
        "false_per_hour": round(len(false) / hours, 2) if hours else 0.0,
        "asks_per_hour": round(asks / hours, 2) if hours else 0.0,
        "suggestions_run": result.suggestions_run,
        "hook_failures": len(result.hook_failures),
        "hook_ms": round(statistics.median(result.hook_seconds) * 1000) if result.hook_seconds else "–",
    }


TITLES = {"no": "peerhooks, asks answered No", "yes": "peerhooks, asks answered Yes", "without": "without peerhooks"}


def table(results):
    """The markdown table: a row per number, a column per run."""
    columns = [numbers(r) for r in results]
    lines = ["| seed %d | %s |" % (results[0].day.seed, " | ".join(TITLES[r.mode] for r in results)),
             "|---|" + "---:|" * len(results)]
    for title, key in ROWS:
        lines.append("| %s | %s |" % (title, " | ".join(str(c[key]) for c in columns)))
    return "\n".join(lines)


def details(result, limit=12):
    """Which commands lost or misattributed work, the refusals by label, and every false refusal with
    the first line of its reason, as markdown lists."""
    out = ["#### %s (seed %d)" % (TITLES[result.mode], result.day.seed)]
    if result.losses:
        out.append("Commands that lost or misattributed others' changes:")
        for loss in result.losses[:limit]:
            owners = sorted({m.rsplit(" ", 1)[1] for m in loss.lost + loss.misattributed})
            out.append("- %5.1f min, %s: `%s`: %d lost, %d misattributed (owners %s)" % (
                loss.minute, loss.session, loss.command.replace("\n", " "), len(loss.lost), len(loss.misattributed),
                ", ".join(o + (" (ended)" if o in loss.ended_owners else "") for o in owners)))
        if len(result.losses) > limit:
            out.append("- … and %d more" % (len(result.losses) - limit))
    if result.refusals:
        tally = {}
        for refusal in result.refusals:
            tally[(refusal.decision, refusal.label)] = tally.get((refusal.decision, refusal.label), 0) + 1
        out.append("Refusals by decision and label (by running the command in a copy): %s." % ", ".join(
            "%s %s %d" % (decision, name, count) for (decision, name), count in sorted(tally.items())))
        false = [r for r in result.refusals if r.label not in ("loses", "misattributes")]
        if false:
            out.append("False refusals:")
        for refusal in false:
            out.append("- %5.1f min, %s: %s `%s` → %s: %s" % (
                refusal.minute, refusal.session, refusal.decision, refusal.command.replace("\n", " "), refusal.label,
                refusal.reason_head))
    untold = [c for c in result.collisions if not c.told]
    if untold and result.mode != "without":
        out.append("Collisions not told before the write:")
        for collision in untold[:limit]:
            out.append("- %5.1f min, %s wrote %s; uncommitted work of %s in it" % (
                collision.minute, collision.session, collision.path, ", ".join(collision.peers)))
    for script, code, line in result.hook_failures[:limit]:
        out.append("- hook %s exited %s: %s" % (script, code, line))
    return "\n".join(out)
