// The app's command line: every problem at once, worded as the driver words them, and a
// usage that lists every setting the app reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAppArgs, usage } from '../../cli/app-options.js';
import { settings } from '../../config/settings.js';

test('flags become explicit settings; what is not given is left to the environment and defaults', () => {
  assert.deepEqual(parseAppArgs([], {}), { help: false, options: {}, problems: [] });
  const { options, problems } = parseAppArgs(
    ['--port', '0', '--host', '127.0.0.1', '--stores', 'memory,redis', '--no-embedded', '--log'],
    {},
  );
  assert.deepEqual(problems, []);
  assert.deepEqual(
    options,
    { port: '0', host: '127.0.0.1', stores: 'memory,redis', embedded: false, logRequests: true },
  );
  assert.equal(parseAppArgs(['-h'], {}).help, true);
});

test('every flag problem is reported at once, with those of the settings the environment gives', () => {
  const { problems } = parseAppArgs(
    ['--bogus', '--port', 'x', '--stores', 'memory,nosuch', '--log=yes', '--host', 'stray'],
    { POSTGRES_POOL_SIZE: 'lots' },
  );
  assert.deepEqual(problems, [
    'unknown option --bogus',
    '--log takes no value',
    '--port must be a whole number from 0 to 65535, not "x"',
    'POSTGRES_POOL_SIZE must be a positive whole number, not "lots"',
    '--stores: unknown store "nosuch" (known: memory, redis, ioredis, redis-cluster, memcached, cloudant, ' +
    'cloudant-legacy, couchdb-nano, postgres, postgres+redis, redis+postgres, tarantool, tarantool-memtx)',
  ]);
  assert.deepEqual(parseAppArgs(['--stores', ''], {}).problems, ['--stores needs at least one store name']);
  assert.deepEqual(parseAppArgs(['--port'], {}).problems, ['--port needs a value']);
  assert.deepEqual(parseAppArgs(['extra'], {}).problems, ['unexpected argument "extra"']);
  assert.deepEqual(
    parseAppArgs([], { PORT: '99999' }).problems,
    ['PORT must be a whole number from 0 to 65535, not "99999"'],
  );
});

test('--help lists every setting the app and its stores read: each flag and each environment variable', () => {
  for (const [key, setting] of Object.entries(settings)) {
    if (!['app', 'http', 'writes', 'service', 'store'].includes(setting.scope)) continue;
    if (setting.flag) assert.ok(usage.includes(setting.flag), `${key}: ${setting.flag}`);
    for (const variable of setting.env) assert.match(usage, new RegExp(`\\b${variable}\\b`), `${key}: ${variable}`);
  }
  for (const variable of [
    'CLOUDANT_APIKEY', 'CLOUDANT_DB', 'POSTGRES_POOL_SIZE', 'STOREBENCH_FLUSH_INTERVAL_MS', 'PORT', 'HOST',
    'STOREBENCH_LOG',
  ]) {
    assert.ok(usage.includes(variable), variable);
  }
  for (const line of usage.split('\n')) assert.ok(line.length <= 100, `usage line over 100 characters: ${line}`);
});

test('--help starts a setting\'s text on its name\'s line, unless the name fills the column', () => {
  // A layout bug: every name stood alone on a line padded with spaces, its text on the next.
  assert.match(usage, /^ {2}--port N {9}port to listen on; /m);
  assert.match(usage, /^ {2}REDIS_URL {21}the Redis of redis, /m);
  assert.match(usage, /^ {2}MEMCACHED_URL, MEMCACHED_SERVERS\n {32}the memcached of memcached/m);
  for (const line of usage.split('\n')) assert.doesNotMatch(line, / $/, 'no line ends in spaces');
});

test('app.js\'s flags are the settings table\'s: each sets its setting; docs/app.md lists them as docs:app ' +
  'writes them', async () => {
  const { withAppFlags, APP_DOC } = await import('../../scripts/app-docs.js');
  const { readFile } = await import('node:fs/promises');
  const samples = {
    '--port N': '0',
    '--host H': '127.0.0.1',
    '--workers N': '2',
    '--framework LIST': 'fastify',
    '--stores LIST': 'memory',
    '--max-value-size N': '1MB',
    '--cloudant-plan PLAN': 'lite',
    '--memcached-item-size SIZE': '2MB',
    '--tarantool-tuple-size SIZE': '2MB',
    '--store-rtt MS': '5',
    '--store-jitter MS': '1',
    '--store-bandwidth SIZE': '1MB',
  };
  for (const [key, setting] of Object.entries(settings).filter(([, one]) => one.flag)) {
    const [flag, value] = setting.flag.split(' ');
    const argv = value ? [flag, samples[setting.flag]] : [flag];
    const { options, problems } = parseAppArgs(argv, {});
    assert.deepEqual(problems, [], setting.flag);
    assert.deepEqual(Object.keys(options), [key], `${setting.flag} sets ${key}`);
    if (!value) assert.equal(options[key], !flag.startsWith('--no-'), `${flag} turns ${key} on, or off for --no-`);
  }
  const doc = await readFile(APP_DOC, 'utf8');
  assert.equal(withAppFlags(doc), doc, 'docs/app.md\'s flags are out of date: run npm run docs:app');
});
