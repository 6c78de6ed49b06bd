# The plugin runs each hook as `sh python.sh <script> [words]`; this finds a real Python interpreter
# and replaces itself (exec) with `<python> -S <script> [words]`.
#
# Why not `python3` from PATH: where pyenv (asdf, mise alike) manages Python, `python3` on PATH is a
# bash shim that costs ~110 ms before the interpreter starts, on every hook call (135 ms against
# 25 ms for `python3 -S -c pass`). So the interpreter is asked once for its sys.executable and the
# answer is remembered in the plugin's data folder (CLAUDE_PLUGIN_DATA, which Claude Code 2.1.197 and
# 2.1.332 create per plugin); every later call reads that line with a shell builtin and checks that
# the file is still executable: no process runs before the interpreter. A removed interpreter is
# looked up again. Without CLAUDE_PLUGIN_DATA (run by hand) nothing is remembered.
#
# It never exits 2, which Claude Code reads as "block": without the script or a Python 3.9+, it
# says so on stderr and exits 0. POSIX sh only (dash, bash as macOS's sh, Git Bash on Windows).

case $1 in
  -*) ;;
  *)
    if [ ! -f "$1" ]; then
      echo "peerhooks: $1 does not exist; the hook did not run" >&2
      exit 0
    fi ;;
esac

remembered=${CLAUDE_PLUGIN_DATA:+$CLAUDE_PLUGIN_DATA/python}
python=
if [ -n "$remembered" ] && [ -f "$remembered" ]; then
  read -r python < "$remembered" || :
fi
if [ -z "$python" ] || [ ! -x "$python" ]; then
  python=
  for candidate in python3 python "py -3"; do  # py -3: Windows' launcher, where python3 is the Store's stand-in
    found=$($candidate -S -c 'import sys; sys.version_info >= (3, 9) and sys.stdout.write(sys.executable)' 2>/dev/null) \
      || found=
    if [ -n "$found" ] && [ -x "$found" ]; then
      python=$found
      break
    fi
  done
  if [ -z "$python" ]; then
    echo "peerhooks: no Python 3.9 or newer on PATH (python3, python, py -3); the hook did not run" >&2
    exit 0
  fi
  if [ -n "$remembered" ] && [ -d "$CLAUDE_PLUGIN_DATA" ]; then
    # a temporary file renamed into place: two hooks starting together never leave half a line
    printf '%s\n' "$python" > "$remembered.$$" 2>/dev/null && mv -f "$remembered.$$" "$remembered" 2>/dev/null \
      || rm -f "$remembered.$$" 2>/dev/null
  fi
fi
exec "$python" -S "$@"
