// --no-server-timing on node test: the app node test starts leaves out its Server-Timing header
// (docs/configuration.md, serverTiming), so its steps have no store time. The app reads it from
// its environment; a running app (--target, --url) has its own setting, and --direct calls the
// stores with no app at all, so there the flag is a mistake (driver/app-launch.js tells the app).
import { flagSpec } from './table.js';

export const SERVER_TIMING_FLAGS = flagSpec('no-server-timing');

/** false when --no-server-timing was given, else undefined (the app's own setting); problems pushed. */
export function parseServerTiming(values, problems, { overRunningApp = false, direct = false } = {}) {
  if (values.noServerTiming !== true) return undefined;
  if (overRunningApp) {
    problems.push('--no-server-timing applies to the app node test starts: ' +
      'a running app (--target, --url) takes its own --no-server-timing');
  } else if (direct) {
    problems.push('--no-server-timing is about the app\'s header: --direct calls the stores with no app ' +
      '(its store time is the latency)');
  }
  return false;
}
