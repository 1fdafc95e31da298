// --metrics-port for the node test entry point: the metrics server, started before the run and
// said on stderr (where progress goes), so a free port (0) can be found by whoever scrapes it.
import { createDriverMetrics, serveMetrics } from './metrics-server.js';
import { RunError } from '../util/errors.js';

// After the run: how long the driver waits for the scrape that carries its last step.
export const METRICS_LINGER_MS = 5000;

export async function startRunMetrics(port, stderr = process.stderr) {
  const metrics = createDriverMetrics();
  let server;
  try {
    server = await serveMetrics(metrics, port);
  } catch (error) {
    throw new RunError(`--metrics-port ${port}: cannot listen on 127.0.0.1:${port} (${error.code ?? error.message})`);
  }
  stderr.write(`metrics: ${server.url}\n`);
  return { onProgress: metrics.onProgress, onResult: metrics.onResult, lastScrape: server.lastScrape, close: server.close };
}
