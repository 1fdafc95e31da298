// The warm-up's settling rule (driver/warmup.js), driven by made-up windows: a target that
// speeds up then settles, one that never settles (the cap), minWindows, and the edges (a window
// with no answer, a slower window, the open model's speed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settled, warmUpToSteady, windowSpeed } from '../../driver/warmup.js';

// A window's figures as runWindow resolves them, closed loop: `rps` its speed.
const closed = (rps, elapsedSeconds) => ({ model: 'closed', responses: Math.round(rps / 4), rps, elapsedSeconds });

/** A runWindow that answers the given windows in turn and records what it was asked. */
function windowsOf(list) {
  const asked = [];
  const runWindow = async (seconds) => {
    asked.push(seconds);
    const next = list[asked.length - 1];
    if (next === undefined) throw new Error(`window ${asked.length} was not expected`);
    return next;
  };
  return { runWindow, asked };
}

test('a target that speeds up, then settles: steady at the first window no faster than the last (5%)', async () => {
  const { runWindow, asked } = windowsOf([1000, 2000, 3000, 3100, 9999].map((rps) => closed(rps)));
  const warmup = await warmUpToSteady(runWindow, { windowSeconds: 0.25, tolerance: 0.05, maxSeconds: 10 });
  assert.deepEqual(warmup, { seconds: 1, windows: 4, steady: true, speeds: [1000, 2000, 3000, 3100] },
    '3100 is within 5% of 3000: the rise has ended; the fifth window never runs');
  assert.deepEqual(asked, [0.25, 0.25, 0.25, 0.25], 'each window is asked for at the window length');
});

test('a window slower than the last settles too (noise, or a target getting slower, which waiting does not fix)',
  async () => {
    const { runWindow } = windowsOf([closed(3000), closed(2000)]);
    const warmup = await warmUpToSteady(runWindow, { windowSeconds: 0.5 });
    assert.deepEqual([warmup.windows, warmup.steady, warmup.seconds], [2, true, 1]);
  });

test('a target that never settles runs to the cap and says so', async () => {
  // 10% faster every window: never within 5% of the last.
  const list = Array.from({ length: 20 }, (_, index) => closed(1000 * 1.1 ** index));
  const { runWindow, asked } = windowsOf(list);
  const warmup = await warmUpToSteady(runWindow, { windowSeconds: 0.25, tolerance: 0.05, maxSeconds: 2 });
  assert.equal(warmup.steady, false);
  assert.equal(warmup.windows, 8, '2 s of 0.25 s windows');
  assert.equal(asked.length, 8);
  assert.equal(warmup.seconds, 2);
  assert.equal(warmup.speeds.length, 8);
  // A wider tolerance calls the same rise steady at once.
  const wide = await warmUpToSteady(windowsOf(list).runWindow, { windowSeconds: 0.25, tolerance: 0.2, maxSeconds: 2 });
  assert.deepEqual([wide.windows, wide.steady], [2, true]);
});

test('the cap allows two windows at least, whatever maxSeconds says', async () => {
  const { runWindow } = windowsOf([closed(1000), closed(2000), closed(4000)]);
  const warmup = await warmUpToSteady(runWindow, { windowSeconds: 0.5, maxSeconds: 0.1 });
  assert.deepEqual([warmup.windows, warmup.steady, warmup.seconds], [2, false, 1]);
});

test('minWindows: no verdict before that many windows, however flat the first ones', async () => {
  const flat = Array.from({ length: 10 }, () => closed(1000));
  const early = await warmUpToSteady(windowsOf(flat).runWindow, { windowSeconds: 0.25 });
  assert.deepEqual([early.windows, early.steady], [2, true], 'the default: two windows, the least a comparison needs');
  const later = await warmUpToSteady(windowsOf(flat).runWindow, { windowSeconds: 0.5, minWindows: 5 });
  assert.deepEqual([later.windows, later.steady, later.seconds], [5, true, 2.5]);
  // minWindows beyond the cap: the cap wins, unsettled.
  const capped = await warmUpToSteady(windowsOf(flat).runWindow,
    { windowSeconds: 0.5, maxSeconds: 1.5, minWindows: 5 });
  assert.deepEqual([capped.windows, capped.steady], [3, false]);
});

test('the seconds are what the windows took (elapsedSeconds), not what they were asked for', async () => {
  const { runWindow } = windowsOf([closed(1000, 0.3), closed(1000, 0.27)]);
  const warmup = await warmUpToSteady(runWindow, { windowSeconds: 0.25 });
  assert.equal(warmup.steady, true);
  assert.ok(Math.abs(warmup.seconds - 0.57) < 1e-9, String(warmup.seconds));
});

test('a window with no answer ends the warm-up unsettled: failures warm nothing up', async () => {
  const { runWindow, asked } = windowsOf([closed(1000), { model: 'closed', responses: 0, rps: 0 }, closed(1000)]);
  const warmup = await warmUpToSteady(runWindow, { windowSeconds: 0.25 });
  assert.deepEqual(warmup, { seconds: 0.5, windows: 2, steady: false, speeds: [1000, null] });
  assert.equal(asked.length, 2);
});

test('the open model\'s speed is the inverse of the mean latency: a target answering sooner is still warming',
  async () => {
    const open = (meanMs) => ({ model: 'open', responses: 100, rps: 400, latency: { meanMs } });
    assert.equal(windowSpeed(open(4)), 250);
    assert.equal(windowSpeed(open(0)), null);
    // 4 ms, then 2 ms (twice as fast), then 1.98 ms (within 5%): steady at the third window.
    const { runWindow } = windowsOf([open(4), open(2), open(1.98)]);
    const warmup = await warmUpToSteady(runWindow, { windowSeconds: 0.25 });
    assert.deepEqual([warmup.windows, warmup.steady], [3, true]);
    assert.equal(settled(null, 1000, 0.05), false, 'no previous window: no verdict');
  });
