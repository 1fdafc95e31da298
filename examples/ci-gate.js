// A CI gate through the API: benchmark the in-process memory store, then fail the job when a
// threshold is missed, as `node test --assert` would (exit 1: the run failed; 3: a threshold).
//
//   node examples/ci-gate.js 'memory:p99<5ms' 'errors=0'
import { check, failure, run } from 'storebench';

const thresholds = process.argv.slice(2);
const result = await run({
  direct: true, // call the store in this process: no app, no HTTP
  stores: ['memory'],
  keys: ['key1'],
  concurrency: [5, 10],
  requests: Number(process.env.REQUESTS ?? 2000),
  warmup: 0,
  assert: thresholds.length ? thresholds : ['memory:p99<50ms', 'errors=0'],
});

const failed = failure(result); // a store that could not be swept, values read back wrong...
if (failed) {
  console.error(failed.message);
  process.exit(1);
}
const gate = check(result); // the run's own thresholds (its `assert`)
console.log(gate.text);
process.exitCode = gate.pass ? 0 : 3;
