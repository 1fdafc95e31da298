// Two gauges that let a driver elsewhere read the app's CPU right through /metrics: each process
// says 1 to storebench_app_processes, so the figure of app.js --workers N (added up by prom-client's
// AggregatorRegistry, app/cluster-metrics.js) says how many processes its process_cpu_seconds_total
// adds up; storebench_app_cpus says how many cores they share (driver/tier-remote.js).
import os from 'node:os';
import client from 'prom-client';

export function registerProcessGauges(registry) {
  const gauge = (name, help, aggregator, value) => {
    const metric = new client.Gauge({ name, help, aggregator, registers: [registry] });
    metric.set(value);
  };
  gauge('storebench_app_processes', 'the app\'s processes this scrape adds up: 1 for each (a primary and its ' +
    'workers with --workers)', 'sum', 1);
  gauge('storebench_app_cpus', 'the CPUs the app\'s processes may use on their machine', 'max',
    os.availableParallelism?.() ?? os.cpus().length);
}
