"""peerhooks' own files: hostile files opened safely (safefiles), state documents replaced
atomically under a lock and read back (statefiles). Below every hook; it knows nothing of Claude Code."""
