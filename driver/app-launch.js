// How node test starts its own app.js: the environment and the flags, decided in one place for a
// run (driver/run.js), a split run's shared app (cli/local-parts.js) and a study's (studies/).
// The write token is made here (or the user's) and goes only into the app's environment.
import { randomBytes } from 'node:crypto';
import { TOKEN_ENV, settings } from '../config/settings.js';
import { storeDelayEnv } from '../config/network-delay.js';
// --no-server-timing: the app leaves its Server-Timing header out, told by its environment.
const serverTimingEnv = (serverTiming) => (serverTiming === false ? { [settings.serverTiming.env[0]]: 'off' } : {});

/**
 * { env, args, token } for app.js from a run's options: the app's per-operation deadline no shorter
 * than the driver's (a slow store's requests would be 503s otherwise), the write token, the store
 * network and Server-Timing as asked; its processes and framework always said, so a
 * STOREBENCH_WORKERS or WEB_CONCURRENCY in this shell cannot change them unrecorded.
 */
export function appLaunch(options, { env = process.env, token = options.token } = {}) {
  const writeToken = token ?? randomBytes(24).toString('base64url');
  return {
    token: writeToken,
    env: {
      ...env,
      STOREBENCH_OP_TIMEOUT_MS: env.STOREBENCH_OP_TIMEOUT_MS || String(options.timeoutMs),
      [TOKEN_ENV]: writeToken,
      ...storeDelayEnv(options.storeDelay),
      ...serverTimingEnv(options.serverTiming),
    },
    args: [
      '--workers', String(options.appWorkers ?? 1),
      '--framework', (options.framework ?? ['express']).join(','),
      ...(options.profile ? ['--allow-profiling'] : []),
    ],
  };
}
