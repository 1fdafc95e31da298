// Warnings that travel with a step's numbers when those numbers deserve less trust
// (result/honesty.js): `{ code, message, data }` in every Result; reports decide by `code`.
export const WARNING_CODES = Object.freeze({
  WEAK_SAMPLE: { meaning: 'statistically weak: fewer samples or a shorter step than the percentiles need' },
  LITTLES_LAW: {
    meaning: "closed loop: mean latency disagrees with concurrency / rps (Little's law), " +
      'so time went somewhere the timing did not see',
  },
  OPEN_MODEL_SHORT: { meaning: 'open model: the achieved rate fell short of the rate asked' },
  DRIVER_CPU: { meaning: 'the driver used most of a CPU core: the client may be the bottleneck' },
  REQUEST_ERRORS: { meaning: 'some requests failed; rps and latency include the error responses' },
  // The machine (driver/machine-load.js) and the baseline check (result/comparison.js)
  CPU_STEAL: {
    meaning: 'the hypervisor took 10% or more of the CPU time the machine\'s processes wanted (steal) during the step',
  },
  BUSY_MACHINE: {
    meaning: 'processes outside this run used half a core or more during the step, or half the cores this run left ' +
      'over when that is more',
  },
  FASTER_THAN_BASELINE: {
    meaning: 'comparison only: a store measured faster than `memory`, the in-process map, at the same key and load, ' +
      'by more than 10% and beyond the run\'s noise; it cannot be, so something other than the store decided that ' +
      'step (a drift of the machine, a target still warming up)',
  },
  // Fair comparisons: the warm-up, the control and failed steps (docs/measurement.md)
  NOT_STEADY: {
    meaning: 'the warm-up before the step reached its cap (--warmup-max) while the target was still getting faster, ' +
      'or had no response: the step may have measured a target still warming up',
  },
  DRIFT: {
    meaning: 'run only: the control (the first step measured again at the end) moved by more than 10%: the machine ' +
      'changed during the run, and the comparison treats differences within that drift as ties',
  },
  STEP_FAILED: {
    meaning: 'no request of the step succeeded (no 2xx answer): its figures are the failures\' and it is not ranked; ' +
      'a store named in --stores or a --url with such a step makes the run exit 1',
  },
  // On a load phase and a verification (docs/workloads.md)
  LOAD_ERRORS: {
    meaning: 'the load phase could not load some records: reads of them may answer 404, and ' +
      'the verification leaves them out',
  },
  VERIFY_MISMATCH: {
    meaning: 'values read back after the run differ from what the store acknowledged: the run fails (VERIFY_FAILED)',
  },
  WEAKER_PROMISE: {
    meaning: 'values read back differ, on a store that does not promise to keep what it acknowledged (memcached ' +
      'may evict): reported, not failed',
  },
  NO_OVERLAP: {
    meaning: 'node test merge: the merged drivers did not run this step at the same time (their startedAt-finishedAt ' +
      'windows do not overlap), so their rps do not add up to a load the target saw at once',
  },
  START_SKEW: {
    meaning: 'node test merge of the parts of one run (--part, --start-at): their first steps began further apart ' +
      'than the tolerance (100 ms) by their own clocks; the line says how far apart their clocks were by the ' +
      'target\'s Date header, where every part read it',
  },
  UNVERIFIED: {
    meaning: 'some written keys of the sample could not be checked: writes to them overlapped, or one failed ' +
      'without saying whether it landed',
  },
});
