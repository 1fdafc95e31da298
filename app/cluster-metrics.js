// GET /metrics of an app of several processes (app.js --workers N): one scrape sees the whole
// app. The worker that answers asks the primary (app/cluster-primary.js), which gathers every
// worker's registry as JSON, adds its own process's (its CPU and memory are the app's too: it
// hands out every connection), and adds them up with prom-client's AggregatorRegistry: counters
// and histograms summed (requests, latency buckets, process_cpu_seconds_total), the event
// loop's delay averaged, as each metric's own aggregator says.
import client from 'prom-client';

// The app's metric names (app/metrics.js): the primary's process metrics must add to the workers'.
const PREFIX = 'storebench_app_';

/** The primary's side: text(askers) scrapes every worker (each asker resolves to one's JSON) and this process. */
export function metricsOfAll() {
  const own = new client.Registry();
  client.collectDefaultMetrics({ register: own, prefix: PREFIX });
  return {
    async text(askers) {
      const workers = await Promise.all(askers.map((ask) => ask()));
      return client.AggregatorRegistry.aggregate([await own.getMetricsAsJSON(), ...workers]).metrics();
    },
  };
}
