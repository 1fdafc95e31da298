// node test --metrics-port N: the run's figures in Prometheus text, fed by progress events,
// never by the request path.
import { createServer } from 'node:http';
import { decodeHistogram } from '../result/recorder.js';

// Seconds, as the app's /metrics (app/metrics.js), so one dashboard reads both.
const BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const BUCKETS_US = BUCKETS.map((seconds) => Math.round(seconds * 1e6));
const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const escape = (value) => String(value).replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const labelText = (labels) => {
  const pairs = Object.entries(labels).map(([name, value]) => `${name}="${escape(value)}"`);
  return `{${pairs.join(',')}}`;
};
const stepLabel = (step) => (step.targetRps == null ? `c${step.concurrency}` : `rps${step.targetRps}`);

// A step's part (one operation) added to its series: requests, errors by kind, and its latency
// histogram into the buckets.
function addPart(entry, part) {
  entry.requests += part.requests ?? 0;
  for (const [kind, n] of Object.entries(part.errors?.byKind ?? {})) {
    entry.errors.set(kind, (entry.errors.get(kind) ?? 0) + n);
  }
  const count = part.latency?.count ?? 0;
  entry.count += count;
  entry.sum += count * (part.latency?.meanMs ?? 0) / 1000;
  if (!part.histogram?.data || !count) return;
  const histogram = decodeHistogram(part.histogram);
  const values = histogram.recordedValuesIterator;
  values.reset();
  while (values.hasNext()) {
    const { valueIteratedTo, countAtValueIteratedTo } = values.next();
    const at = BUCKETS_US.findIndex((bound) => valueIteratedTo <= bound);
    if (at >= 0) entry.buckets[at] += countAtValueIteratedTo;
  }
}

const MACHINE_GAUGES = [
  ['storebench_driver_machine_steal_percent', 'stealPercent',
    'CPU steal during the last finished step, % of all CPU time'],
  ['storebench_driver_machine_others_cpu_percent', 'othersCpuPercent',
    'CPU used by processes outside the run during the last finished step, % of one core'],
  ['storebench_driver_machine_tree_cpu_percent', 'treeCpuPercent',
    'CPU used by the run\'s processes during the last finished step, % of one core'],
];

// The exposition text of what the run has counted so far.
function renderMetrics({ series, stepsDone, running, machine }) {
  const lines = [];
  const family = (name, type, help) => lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
  const sample = (name, labels, value) => lines.push(`${name}${labelText(labels)} ${value}`);
  const all = [...series.values()];
  family('storebench_driver_requests_total', 'counter',
    'requests of finished steps, by target (store, key and its URL), operation and step (load level)');
  for (const entry of all) sample('storebench_driver_requests_total', entry.labels, entry.requests);
  family('storebench_driver_errors_total', 'counter',
    'failed requests of finished steps, by kind (http <status>, timeout, conn <code>)');
  for (const entry of all) {
    for (const [kind, n] of entry.errors) sample('storebench_driver_errors_total', { ...entry.labels, kind }, n);
  }
  family('storebench_driver_latency_seconds', 'histogram',
    'response latency of finished steps, from each step\'s HDR histogram');
  for (const entry of all) {
    let cumulative = 0;
    BUCKETS.forEach((le, i) => {
      cumulative += entry.buckets[i];
      sample('storebench_driver_latency_seconds_bucket', { ...entry.labels, le: String(le) }, cumulative);
    });
    sample('storebench_driver_latency_seconds_bucket', { ...entry.labels, le: '+Inf' }, entry.count);
    sample('storebench_driver_latency_seconds_sum', entry.labels, entry.sum);
    sample('storebench_driver_latency_seconds_count', entry.labels, entry.count);
  }
  family('storebench_driver_steps_done_total', 'counter', 'steps finished so far');
  lines.push(`storebench_driver_steps_done_total ${stepsDone}`);
  family('storebench_driver_step_running', 'gauge', 'the step under way (1 of total), 0 between steps');
  lines.push(`storebench_driver_step_running ${running ? running.index : 0}`);
  for (const [name, field, help] of MACHINE_GAUGES) {
    if (machine[field] == null) continue; // not measured: absent, not a made-up 0
    family(name, 'gauge', help);
    lines.push(`${name} ${machine[field]}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The run's metrics, filled from progress events; render() is the exposition text. */
export function createDriverMetrics() {
  const series = new Map(); // label text -> { labels, requests, errors: Map(kind -> n), buckets, count, sum }
  const machine = { stealPercent: null, othersCpuPercent: null, treeCpuPercent: null };
  let stepsDone = 0;
  let running = null;

  const seriesOf = (labels) => {
    const key = labelText(labels);
    let entry = series.get(key);
    if (!entry) {
      entry = { labels, requests: 0, errors: new Map(), buckets: BUCKETS.map(() => 0), count: 0, sum: 0 };
      series.set(key, entry);
    }
    return entry;
  };

  const onStepDone = (step) => {
    stepsDone += 1;
    running = null;
    const operations = step.operations?.length ? step.operations : [{ ...step, operation: 'read' }];
    for (const part of operations) {
      const operation = part.operation ?? 'read';
      // The URL, so two --url targets with the same store and key stay two series.
      const labels = {
        store: step.store ?? '', key: step.key ?? '', operation, step: stepLabel(step), target: step.url,
      };
      addPart(seriesOf(labels), part);
    }
    Object.assign(machine, {
      stealPercent: step.machine?.stealPercent ?? null,
      othersCpuPercent: step.machine?.othersCpuPercent ?? null,
      treeCpuPercent: step.machine?.treeCpuPercent ?? null,
    });
  };

  return {
    /** The finished Result: its control, which no step-done event carries, counts as a step. */
    onResult(result) {
      if (result?.control?.step) onStepDone(result.control.step);
    },
    onProgress(event) {
      if (event.type === 'step-done') onStepDone(event.step);
      else if (event.type === 'step' && !event.load?.warmup) running = { index: event.index, total: event.total };
    },
    render: () => renderMetrics({ series, stepsDone, running, machine }),
  };
}

/**
 * Serves metrics.render() at GET /metrics on 127.0.0.1:port. lastScrape(ms) resolves at the
 * next scrape or after ms, so the last step reaches Prometheus before the process ends.
 */
export async function serveMetrics(metrics, port) {
  let scraped = () => {};
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || !['/metrics', '/'].includes(req.url)) {
      const body = JSON.stringify({ error: 'only GET /metrics here', code: 'NO_ROUTE' });
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(body);
      return;
    }
    res.writeHead(200, { 'Content-Type': CONTENT_TYPE }).end(metrics.render());
    scraped();
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  server.unref(); // a scrape must never keep a finished run alive
  const bound = server.address().port;
  return {
    port: bound,
    url: `http://127.0.0.1:${bound}/metrics`,
    lastScrape: (ms) => new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      scraped = () => {
        clearTimeout(timer);
        resolve();
      };
    }),
    close: () => new Promise((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}
