// Which verdicts to distrust: the warnings on the steps a verdict's figures came from that make
// a figure untrustworthy, not merely less precise.

// A busy machine, failed requests inside rps and latency, or a driver at its limit (an ordering
// of throughputs then compares the driver with itself). A study that measured the client itself
// lists DRIVER_CPU in `expectedWarnings`.
const UNDERMINING = ['BUSY_MACHINE', 'CPU_STEAL', 'REQUEST_ERRORS', 'DRIVER_CPU'];

/** The undermining warnings on the steps a verdict's figures came from: [{ code, steps, of }]. */
export function verdictDoubts(record, steps = [], verdict) {
  const sourcesOf = ({ table, row }) =>
    record.measured.find((candidate) => candidate.id === table)?.sources?.[row] ?? [];
  const indexes = new Set((verdict.figures ?? []).flatMap(sourcesOf));
  const behind = [...indexes].map((index) => steps[index]).filter(Boolean);
  const expected = new Set(record.expectedWarnings ?? []);
  const carrying = (code) => behind.filter((step) => step.warnings?.some((warning) => warning.code === code)).length;
  return UNDERMINING.filter((code) => !expected.has(code))
    .map((code) => ({ code, steps: carrying(code), of: behind.length }))
    .filter(({ steps: count }) => count > 0);
}
