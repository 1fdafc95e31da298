// The app's --metrics: GET /metrics from prom-client, on a registry of its own (two apps in one
// process keep their counts apart). Labels name only served stores and route patterns, never a raw
// path: a client choosing keys must not grow the series without bound.
import client from 'prom-client';
import { clientLeft } from './client-left.js';
import { bodyAnswer, pathOf } from '../routes/answers.js';
import { registerProcessGauges } from './process-gauges.js';

// Seconds: from the memory store's tens of microseconds to the operation deadline's seconds.
const BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

// What the request path observes: each request's count and time, the clients that left, and each
// store operation's time.
function pathMetrics(registry) {
  const requests = new client.Counter({
    name: 'storebench_app_requests_total',
    help: 'HTTP requests answered, by store, method, route pattern and status',
    labelNames: ['store', 'method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new client.Histogram({
    name: 'storebench_app_request_duration_seconds',
    help: 'time from a request\'s arrival to its response\'s last byte handed to the socket',
    labelNames: ['store', 'method', 'route'],
    buckets: BUCKETS,
    registers: [registry],
  });
  const clientAborts = new client.Counter({
    name: 'storebench_app_client_aborts_total',
    help: 'requests whose client closed the connection before the answer was sent whole: stage request, before ' +
      'its request (a write\'s body) had arrived; response, while its answer was on its way',
    labelNames: ['store', 'method', 'route', 'stage'],
    registers: [registry],
  });
  const operations = new client.Histogram({
    name: 'storebench_app_store_operation_duration_seconds',
    help: 'one store operation (get, set, delete, append, setMany, ping), failed ones included',
    labelNames: ['store', 'operation', 'outcome'],
    buckets: BUCKETS,
    registers: [registry],
  });
  return { requests, latency, clientAborts, operations };
}

// Read when scraped, from the stores' own stats (as /stores shows them): nothing on the request path.
function registerStoreGauges(registry, stores) {
  const statsOf = () => [...stores.entries.values()].filter((entry) => entry.store?.stats)
    .map((entry) => [entry.adapter.name, entry.store.stats()]);
  registry.registerMetric(new client.Gauge({
    name: 'storebench_app_write_behind_pending_writes',
    help: 'writes a write-behind store (redis+postgres) has acknowledged and not yet flushed to PostgreSQL',
    labelNames: ['store'],
    registers: [],
    collect() {
      this.reset();
      for (const [store, stats] of statsOf()) {
        if (Number.isFinite(stats.pendingWrites)) this.set({ store }, stats.pendingWrites);
      }
    },
  }));
  registry.registerMetric(new client.Gauge({
    name: 'storebench_app_pool_connections',
    help: 'a store\'s PostgreSQL pool: connections open (state total), idle, and requests waiting for one',
    labelNames: ['store', 'state'],
    registers: [],
    collect() {
      this.reset();
      for (const [store, stats] of statsOf()) {
        const pool = stats.pool;
        if (!pool) continue;
        this.set({ store, state: 'total' }, pool.size);
        this.set({ store, state: 'idle' }, pool.idle);
        this.set({ store, state: 'waiting' }, pool.waiting);
      }
    },
  }));

  registry.registerMetric(new client.Gauge({
    name: 'storebench_app_store_operations_in_flight',
    help: 'store operations begun and not yet answered, by store: for the Redis stores, whose client sends every ' +
      'command on one connection, the depth of its command queue',
    labelNames: ['store'],
    registers: [],
    collect() {
      this.reset();
      for (const entry of stores.entries.values()) {
        if (entry.store) this.set({ store: entry.adapter.name }, entry.inFlight ?? 0);
      }
    },
  }));
}

// Each label set's child is cached by a string: one Map lookup instead of prom-client's hashing.
function childCache() {
  const children = new Map();
  return (metric, ...values) => {
    const key = `${metric.name}\u0000${values.join('\u0000')}`;
    let child = children.get(key);
    if (!child) children.set(key, (child = metric.labels(...values)));
    return child;
  };
}

// ofAll, with several app processes: { adopt(registry), text(registry) } adds a scrape up across them all.
export function createAppMetrics(stores, ofAll) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'storebench_app_' });
  registerProcessGauges(registry);
  const { requests, latency, clientAborts, operations } = pathMetrics(registry);
  registerStoreGauges(registry, stores);

  const storeLabel = (path) => {
    const first = path.split('/')[1];
    return first && stores.entries.has(first) ? first : '';
  };
  const childOf = childCache();
  // First in the chain: the clock starts before any route; labels are read once the router matched.
  // Called as a route (or the not-found answer) begins: route is its pattern, or 'unmatched'.
  const observeRequest = (req, res, route) => {
    const start = process.hrtime.bigint();
    const { socket } = req;
    const labels = () => [storeLabel(pathOf(req)), req.method, route];
    res.once('finish', () => {
      if (clientLeft(res, socket)) return; // counted as an abort when it closes
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      childOf(latency, ...labels()).observe(seconds);
      childOf(requests, ...labels(), String(res.statusCode)).inc();
    });
    res.once('close', () => {
      if (clientLeft(res, socket)) childOf(clientAborts, ...labels(), req.complete ? 'response' : 'request').inc();
    });
  };
  const observeOperation = (store, operation, seconds, ok) => {
    childOf(operations, store, operation, ok ? 'ok' : 'error').observe(seconds);
  };
  ofAll?.adopt(registry);
  // GET /metrics
  const metricsRoute = async () => {
    const text = ofAll ? await ofAll.text(registry) : await registry.metrics();
    return bodyAnswer(200, registry.contentType, text);
  };
  return { metricsRoute, observeRequest, observeOperation, registry };
}
