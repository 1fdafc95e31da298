// The command line each part of a split run gets: the user's driver flags, less what the launcher
// decides (split, start, seed, results), plus --part I/N, one --seed and one --start-at.

// Flags the launcher takes away: [name, takes a value].
const LAUNCHER_FLAGS = new Map([
  ['parts', true], ['local', false], ['part', true], ['start-at', true], ['seed', true],
  ['json', true], ['csv', true], ['html', true], ['assert', true], ['quiet', false], ['q', false],
  ['from-logs', true], ['app', true], ['image', true], ['name', true], ['cpu', true], ['memory', true],
]);

/** argv without the launcher's flags and `extra` ([name, takes a value]); the rest in order. */
export function driverArgv(argv, extra = []) {
  const drop = new Map([...LAUNCHER_FLAGS, ...extra]);
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
