// A CPU profile of this process, taken with Node's own inspector (no native module, no --inspect):
// what node test --profile asks the app for around a step. One profile at a time per process.
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { StorebenchError } from '../util/errors.js';

// The app's folder: its files outside node_modules are storebench's own (result/profile-parts.js).
const APP_ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');

const DEFAULT_INTERVAL_US = 250;

/**
 * Profiles this process: start(intervalUs) resolves to { pid, role }, then stop() to
 * { pid, role, root, profile }.
 */
export function createProfiler({ role = 'app' } = {}) {
  let session = null;
  return {
    async start(intervalUs = DEFAULT_INTERVAL_US) {
      if (session) throw new StorebenchError('a profile is already being taken', { code: 'PROFILE_CONFLICT' });
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
      await session.post('Profiler.start');
      return { pid: process.pid, role };
    },
    async stop() {
      if (!session) throw new StorebenchError('no profile is being taken', { code: 'PROFILE_CONFLICT' });
      const taking = session;
      session = null;
      try {
        const { profile } = await taking.post('Profiler.stop');
        return { pid: process.pid, role, root: APP_ROOT, profile };
      } finally {
        taking.disconnect();
      }
    },
  };
}
