// How the benchmarks' own servers run as child processes: on a free loopback port, the URL
// sent over IPC (util/fork-child.js waits for it) or printed when run by hand, stopped by
// SIGTERM or by the parent going away.
export function serveAsChild(server) {
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => {
    const url = `http://127.0.0.1:${server.address().port}`;
    if (process.send) process.send({ event: 'listening', url });
    else console.log(url);
  });
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
}
