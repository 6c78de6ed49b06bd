"""Which prompts say what a session is working on.

Measured on real history: 35% of prompts are 1-4-word acknowledgements ("yes", "go on", "commit it"),
slash commands, shell escapes or pasted tags; showing them as a peer's intent says nothing.
"""

MIN_WORDS = 5  # 35% of real prompts are 1-4-word acknowledgements
NOT_INTENT_PREFIXES = ("/", "!", "<")  # slash commands, shell escapes, <command-name>-style wrappers
COMPACTION_TEXT = "This session is being continued from a previous conversation"
PROMPT_CHARS = 160  # one line of a peer's intent; long pastes are cut


def is_substantive(text):
    if not isinstance(text, str):
        return False
    stripped = text.strip()
    if not stripped or stripped.startswith(NOT_INTENT_PREFIXES):
        return False
    if stripped.startswith(COMPACTION_TEXT):
        return False
    return len(stripped.split()) >= MIN_WORDS


def one_line(text, limit=PROMPT_CHARS):
    """A prompt folded onto one line and cut to `limit` characters."""
    folded = " ".join(str(text).split())
    if len(folded) <= limit:
        return folded
    return folded[: limit - 1].rstrip() + "…"
