// The charts of the HTML report, as data: rps, mean and p99 against load, and latency by
// percentile on HdrHistogram's log axis (x = 1 / (1 - p)). With --repeat the repeats'
// histograms are added (histograms add exactly; percentiles do not average).
import * as hdr from 'hdr-histogram-js';
import { decodeHistogram } from '../result/recorder.js';
import { groupRepeats, loadOf } from '../result/repeat.js';
import { ResultsFormatError } from '../util/errors.js';

// The percentile axis: 1/(1-p) from 2 (50%) to 100,000 (99.999%), 12 points a decade.
const PERCENTILE_X_MIN = 2;
const PERCENTILE_X_MAX = 100_000;
const POINTS_PER_DECADE = 12;

export const PERCENTILE_POSITIONS = (() => {
  const positions = [];
  const from = Math.log10(PERCENTILE_X_MIN);
  const to = Math.log10(PERCENTILE_X_MAX);
  const count = Math.round((to - from) * POINTS_PER_DECADE);
  for (let i = 0; i <= count; i += 1) positions.push(10 ** (from + ((to - from) * i) / count));
  return positions;
})();

const round = (value) => (value === null || value === undefined ? null : Number(value.toPrecision(4)));

/** Every repeat's histogram of a cell added into one; ResultsFormatError (exit 2) when one does not decode. */
export function mergedHistogram(steps) {
  const merged = hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 3_600_000_000,
    numberOfSignificantValueDigits: 3,
    useWebAssembly: false,
  });
  for (const step of steps) {
    let histogram;
    try {
      histogram = decodeHistogram(step.histogram);
    } catch (error) {
      merged.destroy();
      const load = step.model === 'open' ? `${step.targetRps} rps` : `concurrency ${step.concurrency}`;
      throw new ResultsFormatError(`the histogram of ${step.store} ${step.key} (${load}, repeat ${step.repeat}) ` +
        `does not decode: ${error.code ?? error.message}`);
    }
    merged.add(histogram);
    histogram.destroy();
  }
  return merged;
}

/** Latency in ms at each percentile; null past 1/(1-p) > count, where the sample says only its max. */
function percentileLine(histogram) {
  const count = histogram.totalCount;
  return PERCENTILE_POSITIONS.map((x) => (count > 0 && x <= Math.max(count, PERCENTILE_X_MIN)
    ? round(histogram.getValueAtPercentile(100 * (1 - 1 / x)) / 1000)
    : null));
}

const loadLabel = (mode) => (mode === 'open' ? 'target rps' : 'concurrency');

/** Chart specs from a Result, in page order: per key its three load charts, then one percentile chart per level. */
export function buildCharts(result) {
  const charts = [];
  const cells = groupRepeats(result.steps);
  const keys = [...new Set(cells.map((cell) => cell.key))];
  keys.forEach((key, keyIndex) => {
    const mine = cells.filter((cell) => cell.key === key);
    const mode = mine[0].model;
    const loads = [...new Set(mine.map((cell) => cell.load))].sort((a, b) => a - b);
    const urls = [...new Set(mine.map((cell) => cell.url))];
    const storeOf = (url) => mine.find((cell) => cell.url === url).store;
    // The comparison rows hold each cell's medians (the step's own figure with one repeat).
    const figure = (url, load, pick) => {
      const group = result.comparison.find((candidate) =>
        candidate.key === key && candidate.model === mode && candidate.load === load && !candidate.operation);
      const cell = mine.find((candidate) => candidate.url === url && candidate.load === load);
      const row = cell && group?.rows.find((candidate) => candidate.store === cell.store);
      return row ? round(pick(row)) : null;
    };
    const loadChart = (name, title, yLabel, pick) => charts.push({
      id: `chart-${keyIndex}-${name}`,
      kind: 'load',
      key,
      title: `${key}: ${title}`,
      xLabel: loadLabel(mode),
      yLabel,
      x: loads,
      series: urls.map((url) => ({ label: storeOf(url), values: loads.map((load) => figure(url, load, pick)) })),
    });
    loadChart('rps', 'requests per second', 'rps', (row) => row.rps);
    loadChart('mean', 'mean latency', 'ms', (row) => row.latency.meanMs);
    loadChart('p99', 'p99 latency', 'ms', (row) => row.latency.p99Ms);
    loads.forEach((load) => {
      const series = mine.filter((cell) => cell.load === load).map((cell) => {
        const histogram = mergedHistogram(cell.steps);
        const values = percentileLine(histogram);
        histogram.destroy();
        return { label: cell.store, values };
      });
      charts.push({
        id: `chart-${keyIndex}-percentiles-${load}`,
        kind: 'percentiles',
        key,
        title: `${key} at ${loadLabel(mode)} ${load}: latency by percentile`,
        xLabel: 'percentile',
        yLabel: 'ms',
        x: PERCENTILE_POSITIONS.map(round),
        series,
      });
    });
  });
  return charts;
}

export const loadText = (step) => (step.model === 'open' ? `${loadOf(step)} rps` : `concurrency ${loadOf(step)}`);
