"""The Bash model: what a command line runs and writes, as Bash would run it (pure; it knows nothing
of git, and what wrappers run is handed in through cmdline.Context)."""
