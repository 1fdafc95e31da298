// The progress line and the other lines node test writes while it runs (report/progress.js, cli/live-report.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProgress, estimateLeftMs, formatElapsed } from '../../report/progress.js';
import { createLiveReport, startingLine } from '../../cli/live-report.js';

const sink = (isTTY = true) => {
  const stream = { isTTY, text: '', write(chunk) { stream.text += chunk; } };
  return stream;
};

// A 9-minute run's progress line said how long it had run, never how long was left.
test('the progress line estimates the time left from the steps done', () => {
  let clock = 0;
  const stream = sink();
  const progress = createProgress({ stream, total: 36, now: () => clock });
  progress.step(1, 'redis key1 · warm-up (500 requests)');
  clock = 5_000;
  assert.equal(
    progress.line(),
    'step 1 of 36 · redis key1 · warm-up (500 requests) · 0:05 elapsed',
    'no estimate before a step is done',
  );
  progress.step(1, 'redis key1 · concurrency 5');
  clock = 10_000;
  progress.done(); // 10 s per step so far
  clock = 12_000;
  progress.step(2, 'redis key1 · concurrency 10');
  clock = 14_000;
  assert.equal(progress.line(), 'step 2 of 36 · redis key1 · concurrency 10 · 0:14 elapsed · ~5:46 left');
  progress.clear();
  assert.ok(stream.text.includes('\r\x1b[Kstep 1 of 36'), 'drawn in place on the terminal');
});

test('the estimate: the mean time per step done, times the steps left, less the time the current one has run', () => {
  assert.equal(estimateLeftMs({ done: 0, total: 10, spentMs: 0, sinceMs: 500 }), null);
  assert.equal(estimateLeftMs({ done: 2, total: 10, spentMs: 8000, sinceMs: 1000 }), 31_000);
  assert.equal(estimateLeftMs({ done: 9, total: 10, spentMs: 9000, sinceMs: 5000 }), 0, 'never negative');
  assert.equal(formatElapsed(70_500), '1:10');
});

test('no progress line off a terminal, or with --quiet', () => {
  const piped = sink(false);
  const progress = createProgress({ stream: piped, total: 2 });
  progress.step(1, 'x');
  progress.clear();
  assert.equal(piped.text, '');
});

// node test was silent for ~8 s while app.js started its servers.
test('node test says it is starting app.js and which servers, on stderr, unless --quiet', () => {
  assert.equal(
    startingLine(['redis-server', 'memcached']),
    'starting app.js and its servers (redis-server, memcached)…',
  );
  assert.equal(startingLine([]), 'starting app.js…');
  const stdout = sink(false);
  const stderr = sink(false);
  createLiveReport({ options: {}, stdout, stderr }).onProgress({ type: 'app-starting', servers: ['redis-server'] });
  assert.equal(stderr.text, 'starting app.js and its servers (redis-server)…\n');
  assert.equal(stdout.text, '');
  const quiet = sink(false);
  createLiveReport({ options: { quiet: true }, stdout, stderr: quiet }).onProgress({
    type: 'app-starting',
    servers: ['redis-server'],
  });
  assert.equal(quiet.text, '');
});
