#!/bin/sh
# Runs "$@" as a child server and stops it when our stdin closes. The parent holds the
# other end of that pipe, so the server goes with the parent however it ends, kill -9 too:
# no orphaned redis-server or tarantool after a crash. GUARD_STOP_SIGNAL picks the signal
# (postgres takes TERM as a "smart" shutdown that waits for every client; INT stops it now).
"$@" &
server=$!
cat >/dev/null
kill -s "${GUARD_STOP_SIGNAL:-TERM}" "$server" 2>/dev/null
wait "$server"
status=$?
# GUARD_REMOVE_DIR: a throwaway data directory that goes with the server, even after a kill -9 of the parent.
if [ -n "${GUARD_REMOVE_DIR:-}" ]; then rm -rf -- "$GUARD_REMOVE_DIR"; fi
exit $status
