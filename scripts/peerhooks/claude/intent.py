"""Which prompts say what a session is working on.

Measured on real history: 35% of prompts are 1-4-word acknowledgements ("yes", "go on", "commit it"),
slash commands, shell escapes or pasted tags; showing them as a peer's intent says nothing. A short
prompt that turns the session around ("stop, revert that", "no, use the old parser") is the
exception: shown alone it says nothing, but after the latest substantive prompt it says that prompt
no longer holds, so it is shown beside it.
"""

MIN_WORDS = 5  # 35% of real prompts are 1-4-word acknowledgements
NOT_INTENT_PREFIXES = ("/", "!", "<")  # slash commands, shell escapes, <command-name>-style wrappers
COMPACTION_TEXT = "This session is being continued from a previous conversation"
PROMPT_CHARS = 160  # one line of a peer's intent (peerhooks.text.peertext.one_line); long pastes are cut


# Words that turn a short prompt into a change of direction, as its first word or anywhere in it.
DIRECTION_FIRST_WORDS = frozenset(["no", "nope", "actually", "wait", "hold", "instead"])
DIRECTION_WORDS = frozenset(["stop", "revert", "undo", "cancel", "abort", "rollback", "scrap", "discard",
                             "pause", "don't", "dont", "instead", "nevermind"])
DIRECTION_PHRASES = ("do not", "roll back", "back out", "never mind", "hold off", "wait for")


def is_substantive(text):
    if not isinstance(text, str):
        return False
    stripped = text.strip()
    if not stripped or stripped.startswith(NOT_INTENT_PREFIXES):
        return False
    if stripped.startswith(COMPACTION_TEXT):
        return False
    return len(stripped.split()) >= MIN_WORDS


def is_direction_change(text):
    """A short prompt (under MIN_WORDS words, not a command) that stops, reverts or redirects the
    work ("stop, revert that", "no, keep the old API", "wait for the CI run")."""
    if not isinstance(text, str):
        return False
    stripped = text.strip()
    if not stripped or stripped.startswith(NOT_INTENT_PREFIXES) or is_substantive(stripped):
        return False
    lowered = " ".join(stripped.lower().split())
    words = [w.strip(".,;:!?\"'()") for w in lowered.split()]
    if not words:
        return False
    if words[0] in DIRECTION_FIRST_WORDS or any(w in DIRECTION_WORDS for w in words):
        return True
    return any(phrase in lowered for phrase in DIRECTION_PHRASES)
