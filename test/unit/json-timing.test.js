import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timeOperation, timeJson } from '../../driver/json-timing.js';
import { renderJsonTimings } from '../../report/json-table.js';

test('an operation that busy-waits 50 µs measures at least 50 µs per call', () => {
  const busy = () => {
    const until = process.hrtime.bigint() + 50_000n;
    while (process.hrtime.bigint() < until);
    return 1;
  };
  const result = timeOperation(busy, { warmupMs: 20, batchMs: 5, rounds: 11 });
  assert.ok(result.nsPerOp >= 50_000, `${result.nsPerOp} ns for a 50 µs wait`);
  assert.ok(result.nsPerOp < 500_000, `${result.nsPerOp} ns for a 50 µs wait: 10x off`);
  assert.equal(result.rounds, 11);
  assert.ok(Math.abs(result.opsPerSecond - 1e9 / result.nsPerOp) < 1e-6);
  assert.ok(result.minNsPerOp <= result.nsPerOp && result.nsPerOp <= result.maxNsPerOp);
});

test('each payload reports its byte size and parse/stringify timings', () => {
  const payloads = {
    small: Buffer.from('{"a":1}'),
    larger: Buffer.from(JSON.stringify({ list: Array.from({ length: 500 }, (_, i) => i) })),
  };
  const results = timeJson(payloads, { warmupMs: 10, batchMs: 2, rounds: 5 });
  assert.deepEqual(results.map((r) => [r.key, r.bytes]), [['small', 7], ['larger', payloads.larger.length]]);
  for (const result of results) {
    assert.ok(result.parse.nsPerOp > 0 && result.stringify.nsPerOp > 0);
  }
});

test('the test-json table renders fixed figures exactly', () => {
  const timing = (nsPerOp) => ({ nsPerOp, opsPerSecond: 1e9 / nsPerOp, rounds: 31 });
  const text = renderJsonTimings([
    { key: 'key1', bytes: 23, parse: timing(257), stringify: timing(166) },
    { key: 'key3', bytes: 263063, parse: timing(285_300), stringify: timing(384_800) },
  ]);
  assert.equal(
    text,
    [
      '--------------------------------------------------------------',
      'key   bytes   parseUs  parseOps/s  stringifyUs  stringifyOps/s',
      '--------------------------------------------------------------',
      'key1      23    0.257   3,891,051        0.166       6,024,096',
      'key3  263063    285.3       3,505        384.8           2,599',
      'microseconds per operation: median of 31 timed batches after a warm-up',
    ].join('\n'),
  );
});
