// The app node test starts leaves out its Server-Timing header when --no-server-timing is given
// (options/server-timing.js); the app reads it from its environment.
import { settings } from '../config/settings.js';

const ENV = settings.serverTiming.env[0];

export const serverTimingEnv = (serverTiming) => (serverTiming === false ? { [ENV]: 'off' } : {});
