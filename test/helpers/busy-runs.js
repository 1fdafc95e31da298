// The saved runs of test/fixtures/runs/ with their machine warnings set by the test, for
// compare's BUSY_MACHINE and CPU_STEAL notes and --ignore-busy. The fixtures are real runs, so
// which steps the machine check warned on depends on the day they were made: the tests set the
// warnings themselves (every step BUSY_MACHINE, or none), on the slow store's steps alone (the
// regression by construction; the others only move with noise).
const MACHINE = ['BUSY_MACHINE', 'CPU_STEAL'];
const busyWarning = (step) => ({
  code: 'BUSY_MACHINE',
  message: 'busy',
  data: { othersCpuPercent: step.machine.othersCpuPercent ?? 80, threshold: 50 },
});
const withMachine = (step, busy) => ({
  ...step,
  machine: { ...step.machine, othersCpuPercent: step.machine.othersCpuPercent ?? 80 },
  warnings: [
    ...step.warnings.filter((warning) => !MACHINE.includes(warning.code)),
    ...(busy ? [busyWarning(step)] : []),
  ],
});
/** result's slow/key1 steps alone, BUSY_MACHINE where busyAt(concurrency) says so and clear elsewhere. */
export const slowOnly = (result, busyAt = () => true) => ({
  ...result,
  steps: result.steps
    .filter((step) => step.url.endsWith('/slow/key1'))
    .map((step) => withMachine(step, busyAt(step.concurrency))),
});
