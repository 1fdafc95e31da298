// The Result of a direct-mode scenario, so --json, --csv, --html and `node test report` read it
// like any run.
import { createResult } from '../result/result.js';
import { resultSettings } from '../options/result-settings.js';
import { driverPeakRssBytes } from '../driver/peak-rss.js';
import { systemInfo } from '../util/system-info.js';
import { machineMonitorFor, machineWarnings } from '../driver/machine-load.js';
import { directUrl } from '../driver/direct-targets.js';

/**
 * Collects the steps of one scenario run: `measure(store, key, run)`, then `result()`.
 * @param {{ name: string, stores: string[], serverUrls?: string[], timeoutMs: number }} options
 *   serverUrls: the stores' servers, whose CPU is this run's, not "other processes'"
 */
export function createDirectSteps({ name, stores, serverUrls = [], timeoutMs }) {
  const servers = new Set(serverUrls);
  const steps = [];
  const targets = new Map();
  const skipped = [];
  return {
    addServers(urls) {
      for (const url of urls) servers.add(url);
    },
    async measure(store, key, run, repeat = 1) {
      const monitor = machineMonitorFor([...servers]);
      const sample = monitor.start();
      const figures = await run();
      const machine = sample.stop();
      const url = directUrl(store); // as --direct names a key-space workload's target
      targets.set(`${store} ${key}`, { url, store, key, named: false });
      // One-shot scripts, not a steady load: only the machine's warnings apply (Little's law
      // and the sample-size checks assume a step of many requests at a steady concurrency).
      const step = {
        ...figures,
        url,
        store,
        key,
        workload: `scenario ${name}`,
        repeat,
        machine,
        workers: null,
        machines: null,
        warmup: null,
        warnings: machineWarnings(machine, { cpus: monitor.cpus }),
      };
      steps.push(step);
      return step;
    },
    indexOf(step) {
      return steps.indexOf(step);
    },
    skip(store, reason) {
      skipped.push({ store, status: 'unavailable', reason });
    },
    result({ interrupted = false } = {}) {
      const concurrency = [...new Set(steps.map((step) => step.concurrency))];
      const counts = {};
      for (const step of steps) {
        for (const { operation, requests } of step.operations) counts[operation] = (counts[operation] ?? 0) + requests;
      }
      const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
      const mix = Object.fromEntries(Object.entries(counts).map(([operation, n]) => [operation, n / total]));
      return createResult({
        interrupted,
        appExit: null,
        // A scenario's direct steps run strictly in the study's order, each once; the workload is
        // the scenario's own, its mix what the steps did.
        settings: {
          ...resultSettings({
            direct: true,
            concurrency,
            warmup: 0,
            order: 'sequential',
            control: false,
            orderSeed: 0,
            keepAlive: true,
            timeoutMs,
            stores,
            repeat: Math.max(1, ...steps.map((step) => step.repeat)),
            workers: 1,
            pipeline: 1,
          }, {}),
          workload: `scenario ${name}`,
          mix,
        },
        system: systemInfo({ target: 'direct: the stores\' clients in the driver process', engine: 'direct' }),
        targets: [...targets.values()],
        skipped,
        steps,
        peakRss: { driverBytes: driverPeakRssBytes(), appBytes: null, app: 'none' },
      });
    },
  };
}
