// The text's view of a step's seconds: one line per step, rps and p99 as sparklines, so a
// one-second stall (a fork, a GC pause, a checkpoint) shows in the terminal as in the HTML chart.
import { timelineRps } from '../result/timeline.js';

const BARS = '▁▂▃▄▅▆▇█';
// A step shorter than this has nothing to show second by second.
const MIN_SECONDS = 2;
// Longer steps are folded to this many characters (each the mean rps and the worst p99 of its seconds).
const MAX_WIDTH = 60;

/** Values as bars from 0 to the largest (a gap, null, as a space). */
export function sparkline(values) {
  const top = Math.max(0, ...values.filter((value) => value !== null));
  return values.map((value) => {
    if (value === null) return ' ';
    if (!(top > 0)) return BARS[0];
    return BARS[Math.min(BARS.length - 1, Math.floor((value / top) * BARS.length))];
  }).join('');
}

// Folds values into at most `width` groups with `pick` (mean for rates, max for latencies).
function fold(values, width, pick) {
  if (values.length <= width) return values;
  const size = Math.ceil(values.length / width);
  const groups = [];
  for (let start = 0; start < values.length; start += size) {
    const present = values.slice(start, start + size).filter((value) => value !== null);
    groups.push(present.length ? pick(present) : null);
  }
  return groups;
}
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
const worst = (values) => Math.max(...values);

const loadOf = (step) => (step.model === 'open' ? `rps ${step.targetRps}` : `c ${step.concurrency}`);
const range = (values) => {
  const present = values.filter((value) => value !== null);
  return present.length ? [Math.min(...present), Math.max(...present)] : null;
};

/**
 * The seconds of a URL's steps, one line each ("c 5   rps ▇▇▃▇ 4210-5120  p99 ▁▁█▁ 0.31-4.20 ms"),
 * or '' when no step ran long enough to have several seconds (or the file has no timelines).
 */
export function renderTimelines(steps) {
  const shown = steps.filter((step) => (step.timeline?.length ?? 0) >= MIN_SECONDS);
  if (!shown.length) return '';
  const labels = shown.map(loadOf);
  const width = Math.max(...labels.map((label) => label.length));
  const lines = shown.map((step, index) => {
    const rps = fold(timelineRps(step.timeline), MAX_WIDTH, mean);
    const p99 = fold(step.timeline.map((sample) => sample.latency.p99Ms), MAX_WIDTH, worst);
    const errorsOf = (sample) => Object.values(sample.errors).reduce((a, b) => a + b, 0);
    const errors = step.timeline.reduce((sum, sample) => sum + errorsOf(sample), 0);
    const [rpsLow, rpsHigh] = range(rps) ?? [0, 0];
    const p99Range = range(p99);
    const p99Text = p99Range ? ` ${p99Range[0].toFixed(2)}-${p99Range[1].toFixed(2)} ms` : ' -';
    const perSecond = step.timeline.length > MAX_WIDTH
      ? ` (${Math.ceil(step.timeline.length / MAX_WIDTH)} s a bar)`
      : '';
    return `  ${labels[index].padEnd(width)}  rps ${sparkline(rps)} ${Math.round(rpsLow)}-${Math.round(rpsHigh)}  ` +
      `p99 ${sparkline(p99)}${p99Text}${errors ? `  errors ${errors}` : ''}${perSecond}`;
  });
  return ['seconds (rps and p99, one bar a second):', ...lines].join('\n');
}
