// node test --scenario's flags (options/scenario.js through parseArguments): what they
// give, and every problem collected, without spawning anything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArguments } from '../../cli/options.js';

test('--scenario NAME with its own flags is the scenario command, defaulting to the default scale', () => {
  assert.deepEqual(parseArguments([
    '--scenario', 'cloudant-vs-redis', '--scale', 'full', '--cloudant-plan', 'none',
    '--json', 'r.json', '--html', 'r.html', '-q',
  ]), {
    command: 'scenario',
    help: false,
    options: {
      scenario: 'cloudant-vs-redis',
      scale: 'full',
      cloudantPlan: 'none',
      storeDelay: null,
      clientDelay: null,
      counter: false,
      verdicts: undefined,
      json: 'r.json',
      csv: undefined,
      html: 'r.html',
      quiet: true,
    },
    problems: [],
    notices: [],
  });
  // The network: between the driver and the app, and between the app and its stores.
  const network = parseArguments([
    '--scenario', 'cloudant-vs-redis', '--client-rtt', '150', '--store-rtt', '20', '--store-jitter', '2',
  ]);
  assert.deepEqual(network.problems, []);
  assert.deepEqual(network.options.clientDelay, { rttMs: 150 });
  assert.deepEqual(network.options.storeDelay, { rttMs: 20, jitterMs: 2 });
  assert.deepEqual(
    parseArguments(['--scenario', 'cloudant-vs-redis', '--client-rtt', '0']).options.clientDelay,
    { rttMs: 0 },
  );
  assert.match(parseArguments(['--scenario', 'cloudant-vs-redis', '--client-rtt', '-5']).problems[0], /^--client-rtt .*, not "-5"$/);
  // The client link's bandwidth, each connection's own; 0 for none.
  assert.deepEqual(
    parseArguments(['--scenario', 'cloudant-vs-redis', '--client-bandwidth', '325KB']).options.clientDelay,
    { bandwidth: 325 * 1024 },
  );
  assert.deepEqual(
    parseArguments(['--scenario', 'cloudant-vs-redis', '--client-bandwidth', '0']).options.clientDelay,
    { bandwidth: 0 },
  );
  assert.match(parseArguments(['--scenario', 'cloudant-vs-redis', '--client-bandwidth', 'fast']).problems[0],
    /^--client-bandwidth must be a size .*, not "fast"$/);
  assert.deepEqual(
    parseArguments(['--scenario', 'list', '--client-rtt', '5']).problems,
    ['--client-rtt does not apply to --scenario list'],
  );
  const plain = parseArguments(['--scenario', 'tarantool-vs-postgres']);
  assert.equal(plain.options.scale, 'default');
  assert.equal(plain.options.cloudantPlan, undefined); // the scenario's own then
});

test('load and target flags beside --scenario, a bad scale or plan, ' +
  'and scenario flags alone are each a problem', () => {
  const { problems } = parseArguments(['--scenario', 's', '-c', '5', '--url', 'http://127.0.0.1/a/b', '--scale', 'huge', '--cloudant-plan', 'free', '--csv', '-']);
  assert.deepEqual(problems, [
    '--cloudant-plan must be one of lite, none, not "free"',
    '--scale must be one of tiny, default, full, not "huge"',
    '--concurrency conflicts with --scenario: the scenario sets its own load and targets',
    '--url conflicts with --scenario: the scenario sets its own load and targets',
    '--csv needs a file name ("-" is only for --json)',
  ]);
  assert.deepEqual(
    parseArguments(['--cloudant-plan', 'lite']).problems,
    ['--cloudant-plan goes with --scenario NAME (or set STOREBENCH_CLOUDANT_PLAN for the app)'],
  );
  assert.deepEqual(
    parseArguments(['--scenario', 'list', '--scale', 'tiny']).problems,
    ['--scale does not apply to --scenario list'],
  );
});

test('--counter and --verdicts go with --scenario NAME: a list of conclusion ids, ' +
  'and --counter alone is every verdict', () => {
  const { options, problems } = parseArguments([
    '--scenario', 'cloudant-vs-redis', '--counter', '--verdicts', 'redis-faster, cloudant-plateau',
  ]);
  assert.deepEqual(problems, []);
  assert.equal(options.counter, true);
  assert.deepEqual(options.verdicts, ['redis-faster', 'cloudant-plateau']);
  assert.equal(parseArguments(['--scenario', 'cloudant-vs-redis', '--counter']).options.verdicts, undefined);
  assert.deepEqual(parseArguments(['--counter']).problems, ['--counter goes with --scenario NAME']);
  assert.deepEqual(parseArguments(['--verdicts', 'x']).problems, ['--verdicts goes with --scenario NAME']);
  assert.deepEqual(parseArguments(['--scenario', 'cloudant-vs-redis', '--verdicts', ',']).problems,
    ['--verdicts needs at least one verdict id (the scenario\'s conclusions)']);
  assert.deepEqual(parseArguments(['--scenario', 'list', '--counter']).problems,
    ['--counter does not apply to --scenario list']);
});
