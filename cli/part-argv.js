// The command line each part of a split run gets: the user's driver flags, less what the launcher
// decides (split, start, seed, results), plus --part I/N, one --seed and one --start-at.

import { flagSpec, takesValues } from '../util/flag-table.js';

/**
 * The launchers' own flags (node test --parts N --local, node test k8s, npm run load:cf), one
 * table: each launcher parses those it takes from here (launcherSpec), and a part's command line
 * is the user's without any of them (driverArgv).
 */
const LAUNCHER_FLAGS = [
  { flag: 'parts', arg: 'N', help: 'split the run into N parts' },
  { flag: 'local', help: 'run the parts here, as processes' },
  { flag: 'part', arg: 'I/N', help: 'this process is part I of N' },
  { flag: 'start-at', arg: 'TIME', help: 'when every part starts (an ISO time, or +SECS from now)' },
  { flag: 'seed', arg: 'N', help: 'the run\'s seed, one for every part' },
  { flag: 'json', arg: 'FILE', help: 'write the merged run as JSON' },
  { flag: 'csv', arg: 'FILE', help: 'write the merged run as CSV' },
  { flag: 'html', arg: 'FILE', help: 'write the merged run\'s page' },
  { flag: 'assert', arg: 'EXPR', multiple: true, help: 'thresholds on the merged run (exit 3)' },
  { flag: 'quiet', short: 'q', help: 'no progress' },
  { flag: 'from-logs', arg: 'LOG', multiple: true, help: 'results printed between marker lines on a log' },
  { flag: 'app', arg: 'NAME', help: 'the Cloud Foundry app (default: CF_APP, else app_name in vars.yml)' },
  { flag: 'image', arg: 'IMAGE', help: 'the container image of each part\'s pod' },
  { flag: 'name', arg: 'NAME', help: 'the Job\'s name' },
  { flag: 'cpu', arg: 'CPU', help: 'each pod\'s CPU request and limit' },
  { flag: 'memory', arg: 'SIZE', help: 'each part\'s memory (a pod\'s limit, cf run-task -m)' },
  { flag: 'disk', arg: 'SIZE', help: 'each task\'s disk, cf run-task -k (default: the app\'s)' },
  { flag: 'wait', arg: 'SECS', help: 'how long after the start to wait for the results' },
  { flag: 'help', short: 'h', help: 'show this help' },
];

/** The parseArgs spec of the launcher flags named. */
export const launcherSpec = (...names) => flagSpec(LAUNCHER_FLAGS.filter(({ flag }) => names.includes(flag)));

// Each with whether it takes a value, and the short forms as their own names (-q); not --help.
const dropped = LAUNCHER_FLAGS.filter(({ flag }) => flag !== 'help');
const DROPPED = new Map([
  ...takesValues(dropped),
  ...dropped.filter(({ short }) => short).map(({ short, arg }) => [short, Boolean(arg)]),
]);

/** argv without the launchers' flags and `extra` ([name, takes a value]); the rest in order. */
export function driverArgv(argv, extra = []) {
  const drop = new Map([...DROPPED, ...extra]);
  const kept = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const match = /^--?([^=]+)(=.*)?$/.exec(arg);
    if (!match || !drop.has(match[1])) {
      kept.push(arg);
      continue;
    }
    if (drop.get(match[1]) && match[2] === undefined) i += 1; // its value is the next argument
  }
  return kept;
}

/** The flags that make a command line part `index` of `count` of one run. */
export const partFlags = ({ index, count, seed, startAt }) => [
  '--part', `${index}/${count}`, '--seed', String(seed), '--start-at', startAt.toISOString(), '-q',
];
