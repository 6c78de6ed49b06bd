"""Claude Code's (and Codex's) files, read only: where they live, the live registry, who a session is,
what it typed, what its transcripts say it did and how it ended."""
