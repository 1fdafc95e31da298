// --assert EXPR: the threshold language, parsed before any load so a typo exits 2 at once.
//
//   [store:]p50|p90|p99|p999|mean|max  < | <=  N ms|us     a latency stays below N
//   [store:]rps                        > | >=  N           throughput stays above N
//   [store:]errors                     = | <=  N | N%      failed requests: a count, or % of requests
//
// Spaces are allowed between the parts ('redis: p99 < 2 ms'). Below options/ (which checks an
// expression) and result/threshold-check.js (which judges a run by them).

export const LATENCY_METRICS = Object.freeze({
  p50: 'p50Ms',
  p90: 'p90Ms',
  p99: 'p99Ms',
  p999: 'p999Ms',
  mean: 'meanMs',
  max: 'maxMs',
});
const OPERATORS = { latency: ['<', '<='], rps: ['>', '>='], errors: ['=', '<='] };
const UNITS_TO_MS = { ms: 1, us: 0.001, µs: 0.001 };
const SHAPE = /^\s*(?:([^\s:<>=]+)\s*:\s*)?([a-z0-9]+)\s*(<=|>=|==|=|<|>)\s*(\d+(?:\.\d+)?|\.\d+)\s*([a-zµ%]*)\s*$/i;
const METRICS_TEXT = `${Object.keys(LATENCY_METRICS).join(', ')}, rps or errors`;

/** Parses one expression: { threshold } or { problem } (one line naming the expression). */
export function parseThreshold(text) {
  const say = (why) => ({ problem: `--assert "${text}": ${why}` });
  const match = SHAPE.exec(text);
  if (!match) {
    return say('not a threshold: write [store:]figure operator value, ' +
      'e.g. p99<5ms, rps>=1000, errors=0, redis:p99<=2ms');
  }
  const [, store = null, metricText, opText, number, unitText] = match;
  const metric = metricText.toLowerCase();
  const unit = unitText.toLowerCase();
  const op = opText === '==' ? '=' : opText;
  const value = Number(number);
  const kind = LATENCY_METRICS[metric] ? 'latency' : metric === 'rps' || metric === 'errors' ? metric : null;
  if (!kind) return say(`unknown figure "${metricText}" (use ${METRICS_TEXT})`);
  if (!OPERATORS[kind].includes(op)) {
    const why = {
      latency: 'a latency must stay below its threshold',
      rps: 'throughput must stay above it',
      errors: 'errors must stay at or below it',
    }[kind];
    return say(`${metric} takes ${OPERATORS[kind].join(' or ')}, not ${opText} (${why})`);
  }
  const base = { text: text.trim(), store, metric, kind, op };
  if (kind === 'latency') {
    if (!unit) return say(`${metric} needs a unit: ms or us (${metric}${op}${number}ms)`);
    if (!UNITS_TO_MS[unit]) return say(`${metric} is in ms or us, not "${unitText}"`);
    return { threshold: { ...base, limit: value * UNITS_TO_MS[unit], unit: 'ms' } };
  }
  if (kind === 'rps') {
    if (unit && unit !== 'rps') return say(`rps takes a plain number (rps>=1000), not "${unitText}"`);
    return { threshold: { ...base, limit: value, unit: 'rps' } };
  }
  if (unit === '%') {
    if (value > 100) return say('errors as a share of requests is at most 100%');
    return { threshold: { ...base, limit: value, unit: '%' } };
  }
  if (unit) return say(`errors is a count (errors<=10) or a share of requests (errors<=1%), not "${unitText}"`);
  if (!Number.isInteger(value)) return say('errors as a count is a whole number (or give a share: errors<=0.5%)');
  return { threshold: { ...base, limit: value, unit: 'count' } };
}

export function parseThresholds(texts = []) {
  const thresholds = [];
  const problems = [];
  for (const text of texts) {
    const { threshold, problem } = parseThreshold(text);
    if (problem) problems.push(problem);
    else thresholds.push(threshold);
  }
  return { thresholds, problems };
}

export const thresholdStores = (texts) => {
  const named = parseThresholds(texts).thresholds.map((threshold) => threshold.store);
  return [...new Set(named.filter((store) => store !== null))];
};

// A status from a target's /stores is shown only when it is a plain word or two (it came over
// the network: anything else could hold escape sequences).
const shownStatus = (status) => (/^[a-z][a-z -]{0,39}$/i.test(status ?? '') ? status : 'not up');

/**
 * One problem per threshold naming a store the run will not measure, found before any load
 * rather than as "not measured" after the whole sweep.
 */
export function unmeasuredStoreProblems(texts, stores, { skipped = [], source = 'this run' } = {}) {
  const measured = [...new Set(stores)];
  const missing = parseThresholds(texts).thresholds.filter(({ store }) => store !== null && !measured.includes(store));
  return missing.map(({ text, store }) => {
    const skip = skipped.find((entry) => entry.store === store);
    const there = skip ? `; ${store} is ${shownStatus(skip.status)} there` : '';
    const sweeps = `${source}: ${measured.join(', ') || 'no store'}${there}`;
    return `--assert "${text}" names ${store}, which this run does not sweep (${sweeps})`;
  });
}
