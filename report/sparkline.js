// A step's seconds as sparklines (rps, p99, the store's p99 where the target said it), so a
// one-second stall shows in the terminal and can be told to be the store's or the app's.
import { timelineRps } from '../result/timeline.js';

const BARS = '▁▂▃▄▅▆▇█';
// A step shorter than this has nothing to show second by second.
const MIN_SECONDS = 2;
// Longer steps are folded to this many characters (each the mean rps and the worst p99 of its seconds).
const MAX_WIDTH = 60;

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

// A latency's line: its bars and range ("▁▁█▁ 0.31-4.20 ms"), ' -' with no value.
function msLine(values) {
  const span = range(values);
  return `${sparkline(values)}${span ? ` ${span[0].toFixed(2)}-${span[1].toFixed(2)} ms` : ' -'}`;
}

// null without the target's store times (direct mode's store time is the latency: already shown).
function storeP99(step) {
  if (step.mode === 'direct' || !step.timeline.some((sample) => sample.storeTime)) return null;
  return fold(step.timeline.map((sample) => sample.storeTime?.p99Ms ?? null), MAX_WIDTH, worst);
}

/** The seconds of a URL's steps, one line each; '' when no step ran several seconds. */
export function renderTimelines(steps) {
  const shown = steps.filter((step) => (step.timeline?.length ?? 0) >= MIN_SECONDS);
  if (!shown.length) return '';
  const stores = shown.map(storeP99);
  const labels = shown.map(loadOf);
  const width = Math.max(...labels.map((label) => label.length));
  const lines = shown.map((step, index) => {
    const rps = fold(timelineRps(step.timeline), MAX_WIDTH, mean);
    const p99 = fold(step.timeline.map((sample) => sample.latency.p99Ms), MAX_WIDTH, worst);
    const errorsOf = (sample) => Object.values(sample.errors).reduce((a, b) => a + b, 0);
    const errors = step.timeline.reduce((sum, sample) => sum + errorsOf(sample), 0);
    const [rpsLow, rpsHigh] = range(rps) ?? [0, 0];
    const store = stores[index] ? `  store p99 ${msLine(stores[index])}` : '';
    const perSecond = step.timeline.length > MAX_WIDTH
      ? ` (${Math.ceil(step.timeline.length / MAX_WIDTH)} s a bar)`
      : '';
    return `  ${labels[index].padEnd(width)}  rps ${sparkline(rps)} ${Math.round(rpsLow)}-${Math.round(rpsHigh)}  ` +
      `p99 ${msLine(p99)}${store}${errors ? `  errors ${errors}` : ''}${perSecond}`;
  });
  const what = stores.some(Boolean) ? 'rps, p99 and the store\'s own p99' : 'rps and p99';
  return [`seconds (${what}, one bar a second):`, ...lines].join('\n');
}
