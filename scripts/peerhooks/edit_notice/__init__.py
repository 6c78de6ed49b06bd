"""edit_notice.py's hook: before a file is written, whether a live party's uncommitted change is in
it (decided alone from the payload's bytes first), and the notice that says so."""
