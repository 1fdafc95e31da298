// Which verdicts to distrust: the warnings on the steps a verdict's figures came from that make
// a figure untrustworthy, not merely less precise.

// The machine was busy with other work (or the hypervisor took the CPU) while it was measured,
// requests failed and their error answers are in its rps and latency, or the driver was the
// limit (an ordering of throughputs then compares the driver with itself). A scenario whose
// study measured the client itself lists DRIVER_CPU in its `expectedWarnings`, and there it
// does not undermine.
export const UNDERMINING = ['BUSY_MACHINE', 'CPU_STEAL', 'REQUEST_ERRORS', 'DRIVER_CPU'];

/**
 * The undermining warnings on the steps a verdict's figures came from: [{ code, steps, of }].
 * record: { measured (tables with `sources`), expectedWarnings? }; steps: the Result's;
 * verdict: { figures: [{ table, row }] }.
 */
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
