// JSON.parse / JSON.stringify cost per payload: the median of many timed batches after a
// warm-up, since one timed call measures mostly a cold JIT, a GC pause, timer resolution.

import { median } from '../util/stats.js';

/** Times fn in batches of about batchMs after warmupMs: { nsPerOp (the median), ... }. */
export function timeOperation(fn, { warmupMs = 200, batchMs = 20, rounds = 31 } = {}) {
  let sink = 0; // results feed this so the engine cannot drop the calls as dead code
  const warmupEnd = process.hrtime.bigint() + BigInt(warmupMs * 1e6);
  let calibrated = 0;
  const calibrationStart = process.hrtime.bigint();
  while (process.hrtime.bigint() < warmupEnd) {
    sink += measureOnce(fn);
    calibrated += 1;
  }
  const nsPerCall = Number(process.hrtime.bigint() - calibrationStart) / Math.max(1, calibrated);
  const batchSize = Math.max(1, Math.round((batchMs * 1e6) / nsPerCall));
  const perOp = [];
  for (let round = 0; round < rounds; round += 1) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batchSize; i += 1) sink += measureOnce(fn);
    perOp.push(Number(process.hrtime.bigint() - start) / batchSize);
  }
  if (sink === -1) console.log(sink); // never true; keeps sink alive
  const nsPerOp = median(perOp);
  return {
    nsPerOp,
    opsPerSecond: 1e9 / nsPerOp,
    batchSize,
    rounds,
    minNsPerOp: Math.min(...perOp),
    maxNsPerOp: Math.max(...perOp),
  };
}

function measureOnce(fn) {
  const result = fn();
  return typeof result === 'string' ? result.length : result === undefined ? 0 : 1;
}

export function timeJson(payloads, options) {
  return Object.entries(payloads).map(([key, bytes]) => {
    const text = bytes.toString('utf8');
    const object = JSON.parse(text);
    return {
      key,
      bytes: bytes.length,
      parse: timeOperation(() => JSON.parse(text), options),
      stringify: timeOperation(() => JSON.stringify(object), options),
    };
  });
}
