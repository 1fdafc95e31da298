// `/usr/bin/time -v node test` reported the app child's peak memory (3.5 GB over 10 M records)
// and the driver's (178 MB) was nowhere: now the run's Machine line and its JSON give both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDriverCli } from '../helpers/driver-cli.js';
import { startTestServer } from '../helpers/driver-servers.js';
import { fixedResult } from '../helpers/driver-fixtures.js';
import { validate } from '../helpers/json-schema.js';
import { fromJson, toJson } from '../../result/format.js';
import { resultsSchema } from '../../result/schema.js';
import { formatBytes, renderPeakRss } from '../../report/machine-summary.js';
import { processPeakRssBytes } from '../../driver/peak-rss.js';

const MIB = 1024 ** 2;
const onLinux = process.platform === 'linux';

async function tempDir(t) {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-h18c-rss-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('the embedded default: the Machine line and the JSON give the driver\'s and app.js\'s peak RSS', async (t) => {
  const dir = await tempDir(t);
  const jsonFile = join(dir, 'run.json');
  const run = await runDriverCli(['--stores', 'memory', '--keys', 'key1', '-c', '1', '-n', '100', '--warmup', '0',
    '--json', jsonFile]);
  assert.equal(run.status, 0, run.stderr);
  const { peakRss } = JSON.parse(await readFile(jsonFile, 'utf8'));
  if (!onLinux) {
    assert.deepEqual([peakRss.app, peakRss.appBytes], ['unknown', null]);
    return;
  }
  assert.equal(peakRss.app, 'measured');
  // Two Node processes, each with a heap, code and buffers: tens of MiB, well under a GiB here.
  for (const bytes of [peakRss.driverBytes, peakRss.appBytes]) {
    assert.ok(Number.isInteger(bytes) && bytes > 20 * MIB && bytes < 1024 * MIB, `${bytes} bytes`);
  }
  const line = run.stdout.split('\n').find((text) => text.startsWith('Machine:'));
  const expected = ` · peak RSS driver ${formatBytes(peakRss.driverBytes)}, app.js ${formatBytes(peakRss.appBytes)}`;
  assert.ok(line.endsWith(expected), line);
  const again = await runDriverCli(['report', jsonFile]);
  assert.ok(again.stdout.includes(line), 'node test report prints the same Machine line from the file');
});

test('--url: no app child, so the driver\'s alone', async (t) => {
  const server = await startTestServer(t);
  const dir = await tempDir(t);
  const jsonFile = join(dir, 'run.json');
  const url = `${server.url}/memory/key1`;
  const run = await runDriverCli(['--url', url, '-c', '1', '-n', '20', '--warmup', '0', '--json', jsonFile]);
  assert.equal(run.status, 0, run.stderr);
  const { peakRss } = JSON.parse(await readFile(jsonFile, 'utf8'));
  assert.equal(peakRss.app, 'none');
  assert.equal(peakRss.appBytes, null);
  assert.ok(peakRss.driverBytes > 20 * MIB);
  assert.match(run.stdout, new RegExp(`^Machine: .* · peak RSS driver ${formatBytes(peakRss.driverBytes)}$`, 'm'));
});

test('VmHWM read from /proc, the three states in words, files without peakRss still read and validate', async (t) => {
  if (onLinux) {
    const status = await readFile('/proc/self/status', 'utf8');
    const before = Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)[1]) * 1024;
    const read = await processPeakRssBytes(process.pid);
    assert.ok(read >= before && read < before + 64 * MIB, `${read} vs ${before}`);
  } else {
    t.diagnostic('no /proc here: only the null case is checked');
  }
  assert.equal(await processPeakRssBytes(2 ** 22 + 12345), null, 'a process that does not exist');
  const measured = { driverBytes: 178 * MIB, appBytes: 3.5 * 1024 * MIB, app: 'measured' };
  assert.equal(renderPeakRss(measured), 'peak RSS driver 178 MiB, app.js 3.5 GiB');
  assert.equal(renderPeakRss({ driverBytes: 5.25 * MIB, appBytes: null, app: 'unknown' }),
    'peak RSS driver 5.3 MiB, app.js unknown (its /proc/<pid>/status could not be read)');
  assert.equal(renderPeakRss({ driverBytes: 90 * MIB, appBytes: null, app: 'none' }), 'peak RSS driver 90 MiB');
  assert.equal(renderPeakRss(undefined), '');

  const schema = resultsSchema();
  const without = fixedResult();
  const withRss = { ...fixedResult(), peakRss: { driverBytes: 83144704, appBytes: 69275648, app: 'measured' } };
  for (const result of [without, withRss]) {
    const text = toJson(result);
    assert.deepEqual(fromJson(text), result, 'read back as written');
    assert.deepEqual(validate(schema, JSON.parse(text)), []);
  }
  assert.equal('peakRss' in JSON.parse(toJson(without)), false, 'a Result without it is written without it');
  const mistyped = { ...JSON.parse(toJson(withRss)), peakRss: { driverBytes: '80 MB', appBytes: null, app: 'none' } };
  assert.throws(() => fromJson(mistyped), /peakRss\.driverBytes is "80 MB", expected a whole number or null/);
});
