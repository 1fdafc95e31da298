// GET /metrics of an app of several processes: the primary gathers every worker's registry and its
// own (its CPU and memory are the app's too), added up by prom-client's AggregatorRegistry.
import client from 'prom-client';
import { registerProcessGauges } from './process-gauges.js';

// The app's metric names (app/metrics.js): the primary's process metrics must add to the workers'.
const PREFIX = 'storebench_app_';

export function metricsOfAll() {
  const own = new client.Registry();
  client.collectDefaultMetrics({ register: own, prefix: PREFIX });
  registerProcessGauges(own);
  return {
    async text(askers) {
      const workers = await Promise.all(askers.map((ask) => ask()));
      return client.AggregatorRegistry.aggregate([await own.getMetricsAsJSON(), ...workers]).metrics();
    },
  };
}
