#!/bin/sh
# Runs "$@" as a child server and stops it when our stdin closes. The parent holds the
# other end of that pipe, so the server goes with the parent however it ends, kill -9 too:
# no orphaned redis-server or tarantool after a crash. STOREBENCH_GUARD_REMOVE names a
# directory of the server's files to delete once it has exited (a crashed parent can't).
"$@" &
server=$!
cat >/dev/null
kill "$server" 2>/dev/null
wait "$server"
if [ -n "${STOREBENCH_GUARD_REMOVE:-}" ]; then rm -rf "$STOREBENCH_GUARD_REMOVE"; fi
