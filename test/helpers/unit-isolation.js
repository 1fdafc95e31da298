// Preloaded by npm run test:unit (--import): the unit tier touches no network and no child
// process, so that it stays fast and runs the same on any machine. Any attempt to open a
// socket or a server, or to spawn a process, throws instead of quietly doing it. The test
// runner's own process spawns the test files, so only those children (NODE_TEST_CONTEXT) are
// guarded.
import childProcess from 'node:child_process';
import dgram from 'node:dgram';
import net from 'node:net';
import { syncBuiltinESMExports } from 'node:module';

export const RULE = 'unit tests touch no network and no child process (test/unit); ' +
  'a test that needs them belongs in test/cli/, test/driver/ or test/app/';

export class UnitIsolationError extends Error {
  constructor(what) {
    super(`${what} in the unit tier: ${RULE}`);
    this.name = 'UnitIsolationError';
    this.code = 'UNIT_ISOLATION';
  }
}

const refuse = (what) => function refused() {
  throw new UnitIsolationError(what);
};

/** Makes child processes, sockets and servers throw in this process. */
export function isolateUnitTests() {
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
    childProcess[name] = refuse(`child_process.${name}()`);
  }
  net.Socket.prototype.connect = refuse('a socket connect (net, http, fetch, a store client)');
  net.Server.prototype.listen = refuse('a server listen (net, http)');
  dgram.Socket.prototype.bind = refuse('a UDP socket bind');
  dgram.Socket.prototype.send = refuse('a UDP send');
  syncBuiltinESMExports();
}

if (process.env.NODE_TEST_CONTEXT) isolateUnitTests();
