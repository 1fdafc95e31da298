// npm run lint: knip finds files nothing reaches, exports nothing imports and dependencies
// nothing loads. Its map of the repository starts from the entry points, whose own exports it
// does not check. Knip reads most of them from package.json: the bins (test.js, app.js), the
// exports (index.js and app.js: the API, with their types in index.d.ts and app.d.ts), and every
// file an npm script runs (test-json.js, bench/*.js behind npm run perf*, scripts/*.js and
// scripts/cf/*.js, data/seed.js, the test files `node --test` globs, its --import and
// --test-reporter helpers). The entries below are those it cannot see there. An export used only
// in its own file is reported too: it need not be exported. The exceptions, each argued, are
// `node: false` and ignoreBinaries at the end.
export default {
  entry: [
    // Started by path, not imported: the app's worker processes (app/cluster-primary.js forks
    // it), the driver's threads (driver/workers.js), the probe's thread (driver/probe/prober.js)
    // and the embedded CouchDB's child (embedded/couchdb.js).
    'cli/app-worker.js',
    'driver/step-worker.js',
    'driver/probe/worker.js',
    'embedded/*child*.cjs',
    // One file per scenario, loaded from the folder by studies/index.js (the one computed import
    // scripts/imports/layout.js allows there): a new scenario needs no code change.
    'studies/scenarios/*.js',
    // Read as text at run time and inlined into the HTML report's page (report/html-assets.js);
    // they run in the browser.
    'report/html-client.js',
    'report/html-flame-client.js',
    // The benchmarks' own servers, each started as a child process by the bench that needs it.
    'bench/bare-server.js',
    'bench/one-route-server.js',
    'bench/sink-server.js',
    // Run on Cloud Foundry by each part's task command (scripts/cf/load-parts.js writes it).
    'scripts/cf/send-result.js',
    // Run by hand to rewrite the results format's docs from result/fields.js (a unit test fails
    // while they are stale).
    'result/fields-doc.js',
    'result/schema.js',
    // The suite (npm test globs test/*/*.test.js), the servers tests start by path, and the
    // scripts run by hand that remake the saved runs the report tests read.
    'test/*/*.test.js',
    'test/helpers/{hold,burn,fairness}-server.js',
    'test/fixtures/**/*.js',
    // Written as a user writes them, run by test/cli/examples.test.js; types.ts is what tsc
    // checks index.d.ts and app.d.ts against (tsconfig.json).
    'examples/*.{js,ts}',
  ],
  project: ['**/*.{js,cjs,mjs,ts}'],
  // Every helper under test/ would be an entry for knip's Node.js plugin (its default for
  // `node --test`), and an entry's exports are never checked: the entries above name the test
  // files instead, so that a helper's unused export is found like any other.
  node: false,
  // Programs the code runs that are not npm packages: .ci/run installs them with apt (wrk,
  // openssl), taskset comes with util-linux. Knip would ask for them in package.json.
  ignoreBinaries: ['wrk', 'openssl', 'taskset'],
};
