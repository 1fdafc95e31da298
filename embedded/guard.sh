#!/bin/sh
# Runs "$@" as a child server and stops it when our stdin closes: the parent holds the other end, so
# the server goes with the parent however it ends, kill -9 too. GUARD_STOP_SIGNAL picks the signal
# (postgres takes TERM as a "smart" shutdown that waits for every client; INT stops it now).
# Only shell builtins until the server is gone: PATH may be bare (a service manager, a container).
"$@" &
server=$!
while read -r _; do :; done
kill -s "${GUARD_STOP_SIGNAL:-TERM}" "$server" 2>/dev/null
wait "$server"
status=$?
# GUARD_REMOVE_DIR: a throwaway data directory that goes with the server, even after a kill -9
# of the parent. rm is not a builtin: look where it lives too, and say so if it is nowhere.
if [ -n "${GUARD_REMOVE_DIR:-}" ]; then
  PATH="${PATH:+$PATH:}/usr/bin:/bin"
  rm -rf -- "$GUARD_REMOVE_DIR" || echo "guard.sh: could not remove $GUARD_REMOVE_DIR" >&2
fi
exit $status
