"""install.py's library: format-keeping JSON edits, safe replacement of a user's file, Codex trust.

Only install.py imports it; the hook scripts never do (they must start fast and stand on their own).
"""


class InstallError(Exception):
    """Something the user has to fix; the message says what, and nothing was changed."""
