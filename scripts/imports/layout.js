// The layout npm run lint holds the repository to (docs/contributing.md "Layout"; arrows point down):
//   entry points (app.js, test.js, test-json.js) -> cli/ -> studies/ -> index.js, options/
//     -> driver/, report/ -> result/ -> stores/, config/, embedded/ -> util/
// with app/ and routes/ beside stores/ on the app side, and the scripts around the library
// (test/, bench/, scripts/, examples/, data/) above it, which no library file imports. options/
// stands on its own floor: it reads only config/ and util/ (the defaults and grammars it shares
// with the driver live there), so that reading a run's options loads no driver, store or result.
import { join } from 'node:path';

const ENTRIES = ['app.js', 'test.js', 'test-json.js'];
const SCRIPTS = ['test', 'bench', 'scripts', 'examples', 'data'];
const ABOVE_INDEX = ['cli', 'studies', ...ENTRIES];
const ABOVE_DRIVER = [...ABOVE_INDEX, 'index.js', 'options'];
const APP_SIDE = ['app', 'routes'];
const ABOVE_STORES = [...ABOVE_DRIVER, 'driver', 'report', 'result', ...APP_SIDE];
const LIBRARY = [...ABOVE_STORES, 'stores', 'config', 'embedded'];
// What options/ must not import beyond what is above it: every runtime floor but config/ and util/.
const BELOW_OPTIONS_RUNTIME = ['driver', 'report', 'result', ...APP_SIDE, 'stores', 'embedded'];

/**
 * Every top-level folder or file -> the top-level folders and files it must not import. A
 * folder or root file missing here is itself a problem: a new one needs a rule.
 */
export const FORBIDDEN = {
  'app.js': [...SCRIPTS],
  'test.js': [...SCRIPTS],
  'test-json.js': [...SCRIPTS],
  'eslint.config.js': [...LIBRARY, 'util', ...SCRIPTS],
  'knip.config.js': [...LIBRARY, 'util', ...SCRIPTS],
  cli: [...ENTRIES, ...SCRIPTS],
  studies: ['cli', ...ENTRIES, ...SCRIPTS],
  'index.js': [...ABOVE_INDEX, ...SCRIPTS],
  options: [...ABOVE_INDEX, 'index.js', ...BELOW_OPTIONS_RUNTIME, ...SCRIPTS],
  driver: [...ABOVE_DRIVER, 'report', ...SCRIPTS],
  report: [...ABOVE_DRIVER, 'driver', ...SCRIPTS],
  result: [...ABOVE_DRIVER, 'driver', 'report', ...APP_SIDE, ...SCRIPTS],
  app: [...ABOVE_DRIVER, 'driver', 'report', 'result', ...SCRIPTS],
  routes: [...ABOVE_DRIVER, 'driver', 'report', 'result', ...SCRIPTS],
  stores: [...ABOVE_STORES, ...SCRIPTS],
  // Settings and their precedence, data only: what starts servers (embedded/resolve-service.js
  // among it) sits in embedded/, which reads config/.
  config: [...ABOVE_STORES, 'embedded', ...SCRIPTS],
  embedded: [...ABOVE_STORES, ...SCRIPTS],
  util: [...LIBRARY, ...SCRIPTS],
  // npm run seed: a script above the library, which the library never reads from.
  data: ['test', 'bench', 'scripts', 'examples'],
  bench: ['test', 'scripts', 'examples', 'data'],
  scripts: ['test', 'bench', 'examples', 'data'],
  // Written as a user writes them: the package by its name (examples are the one place that may).
  examples: ['test', 'bench', 'scripts', 'data'],
  test: [],
};

/** Folders whose files may import `storebench` or `storebench/...` by the package's own name. */
export const SELF_IMPORT_ALLOWED = ['examples'];

// The computed imports that stay, and why: `expression` is the one computed import the file may
// hold, `loads` the folders whose files it loads, so that their arrows still count.
export const COMPUTED_ALLOWED = {
  // The published studies are data files, one per scenario: a new one needs no code change.
  [join('studies', 'index.js')]: {
    expression: /^pathToFileURL\(join\(SCENARIO_DIR, file\)\)\.href\)/,
    loads: [join('studies', 'scenarios')],
  },
  // Imports a copy of the app made outside the repository, with a different client installed.
  [join('test', 'stores', 'cloudant-legacy.test.js')]: { expression: /^copy\.url\)/ },
};

// The processes started across the layout, and why: a program started is not imported, but it
// runs the file given, so these are arrows too; these few point up by design, and their cycles
// (a command that starts itself) end at a process boundary.
export const LAUNCHES_ALLOWED = {
  // The driver starts the target app as its own process, as a user would.
  [`${join('driver', 'app-process.js')} -> app.js`]: true,
  // --parts on one machine: node test starts each part as a node test of its own.
  [`${join('cli', 'local-parts.js')} -> test.js`]: true,
  // --workers: the app's primary forks one worker process per core, each running the worker's
  // entry point, which reads its argv as node app.js does.
  [`${join('app', 'cluster-primary.js')} -> ${join('cli', 'app-worker.js')}`]: true,
};
