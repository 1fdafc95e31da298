// node test --hdr-log DIR as a user runs it: one HdrHistogram interval log per target and
// operation, which hdr-histogram-js's HistogramLogReader (the reader of the format
// HdrHistogram's tools share) reads back to exactly each step's counts, second by second.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as hdr from 'hdr-histogram-js';
import { runDriverCli } from '../helpers/driver-cli.js';
import { startApp } from '../../app/start-app.js';

let dir;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'storebench-hdr-log-'));
});
after(() => rm(dir, { recursive: true, force: true }));

test('the interval log of each target reads back to exactly its steps\' counts, second by second', async () => {
  const logs = join(dir, 'logs');
  const json = join(dir, 'run.json');
  const run = await runDriverCli([
    '--direct', '--stores', 'memory', '--keys', 'key1,key2', '-c', '1,2', '-t', '1.3', '--warmup', '0',
    '--hdr-log', logs, '--json', json, '-q',
  ]);
  assert.equal(run.status, 0, run.stderr);
  const result = JSON.parse(await readFile(json, 'utf8'));
  assert.deepEqual((await readdir(logs)).sort(), ['memory-key1-read.hlog', 'memory-key2-read.hlog']);
  for (const key of ['key1', 'key2']) {
    const text = await readFile(join(logs, `memory-${key}-read.hlog`), 'utf8');
    assert.match(text, /^#\[Histogram log format version 1\.3\]\n/);
    assert.match(text, /^"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"$/m);
    const reader = new hdr.HistogramLogReader(text);
    const allSteps = [...result.steps, ...(result.control ? [result.control.step] : [])];
    const steps = allSteps.filter((step) => step.key === key);
    assert.ok(steps.length >= 2, `${key}: its two steps (and the control, if it was this key)`);
    for (const step of steps) {
      let responses = 0;
      step.timeline.forEach((sample, index) => {
        const histogram = reader.nextIntervalHistogram();
        assert.ok(histogram, `${key} c ${step.concurrency}: second ${index} is in the log`);
        assert.equal(histogram.totalCount, sample.responses,
          `${key} c ${step.concurrency} second ${index}: the same count`);
        if (index === 0) {
          const offset = Math.abs(histogram.startTimeStampMsec - Date.parse(step.startedAt));
          assert.ok(offset < 2, 'the step starts where the log says');
        }
        responses += histogram.totalCount;
        histogram.destroy();
      });
      assert.equal(responses, step.responses, `${key} c ${step.concurrency}: every response of the step, none more`);
    }
    assert.equal(reader.nextIntervalHistogram(), null, 'nothing after the steps');
  }
});

test('--hdr-log naming a file, or nothing, exits 2 before any load', async () => {
  const file = join(dir, 'a-file');
  await writeFile(file, '');
  const onFile = await runDriverCli(['--direct', '--stores', 'memory', '--hdr-log', file, '-q']);
  assert.equal(onFile.status, 2);
  assert.match(onFile.stderr, /--hdr-log .*a-file: it is a file, not a folder/);
  const empty = await runDriverCli(['--direct', '--stores', 'memory', '--hdr-log=', '-q']);
  assert.equal(empty.status, 2);
  assert.match(empty.stderr, /--hdr-log needs a folder name/);
});

test('two URLs with the same store and key (two hosts, say) get an interval log each',
  async (t) => {
    const app = await startApp({ port: 0, host: '127.0.0.1', stores: ['memory'], env: {} });
    t.after(() => app.close());
    const logs = join(dir, 'two-urls');
    const json = join(dir, 'two-urls.json');
    const urls = [`${app.url}/memory/key1`, `${app.url}/memory/key1?another=target`];
    const run = await runDriverCli([
      '--url', urls[0], '--url', urls[1], '-c', '1', '-n', '40', '--warmup', '0', '--no-control',
      '--hdr-log', logs, '--json', json, '-q',
    ]);
    assert.equal(run.status, 0, run.stderr);
    const result = JSON.parse(await readFile(json, 'utf8'));
    assert.deepEqual((await readdir(logs)).sort(), ['memory-key1-2-read.hlog', 'memory-key1-read.hlog']);
    // The first URL to run keeps the plain name; the other gets -2.
    const runOrder = [...new Set(result.steps.map((step) => step.url))];
    assert.equal(runOrder.length, 2);
    for (const step of result.steps) {
      const file = runOrder.indexOf(step.url) === 0 ? 'memory-key1-read.hlog' : 'memory-key1-2-read.hlog';
      const reader = new hdr.HistogramLogReader(await readFile(join(logs, file), 'utf8'));
      let count = 0;
      for (let histogram; (histogram = reader.nextIntervalHistogram());) {
        count += histogram.totalCount;
        histogram.destroy();
      }
      assert.equal(count, step.responses, `${file}: the responses of ${step.url} alone`);
    }
  });
