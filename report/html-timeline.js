// The HTML report's timeline charts, one per target across the whole run: the line breaks
// between steps instead of joining across time nothing was measured.
import { timelineRps } from '../result/timeline.js';
import { loadOf } from '../result/repeat.js';

const round = (value) => (value === null || value === undefined ? null : Number(value.toPrecision(4)));

const stepLabel = (step) =>
  `${step.model === 'open' ? `${loadOf(step)} rps` : `c ${loadOf(step)}`}${step.repeat > 1 ? ` #${step.repeat}` : ''}`;

/** Chart specs of kind 'timeline', rps on the left axis, p99 in ms on the right; older files have none. */
export function buildTimelineCharts(result) {
  const control = result.control?.step ? [{ ...result.control.step, control: true }] : [];
  const steps = [...result.steps, ...control].filter((step) => step.timeline?.length);
  if (!steps.length) return [];
  const origin = Math.min(...steps.map((step) => Date.parse(step.startedAt)));
  const urls = [...new Set(steps.map((step) => step.url))];
  return urls.map((url, index) => {
    const mine = steps
      .filter((step) => step.url === url)
      .sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
    const x = [];
    const rps = [];
    const p99 = [];
    const storeP99 = [];
    const marks = [];
    for (const step of mine) {
      const start = (Date.parse(step.startedAt) - origin) / 1000;
      marks.push({ x: round(start), label: step.control ? 'control' : stepLabel(step) });
      const rates = timelineRps(step.timeline);
      step.timeline.forEach((sample, position) => {
        x.push(round(start + sample.second + sample.seconds));
        rps.push(round(rates[position]));
        p99.push(round(sample.latency.p99Ms));
        storeP99.push(step.mode === 'direct' ? null : round(sample.storeTime?.p99Ms));
      });
      // A gap after each step, so the line does not join it to the next one.
      x.push(x.at(-1) + 0.001);
      rps.push(null);
      p99.push(null);
      storeP99.push(null);
    }
    const stored = storeP99.some((value) => value !== null);
    const { store, key } = mine[0];
    return {
      id: `timeline-${index}`,
      kind: 'timeline',
      key,
      title: `${store} ${key}: second by second`,
      xLabel: 's into the run',
      yLabel: 'rps',
      y2Label: 'p99 ms',
      x,
      series: [
        { label: 'rps', values: rps },
        { label: 'p99', values: p99, scale: 'ms' },
        ...(stored ? [{ label: 'store p99', values: storeP99, scale: 'ms' }] : []),
      ],
      marks,
    };
  });
}
