// --metrics-port for the node test entry point: the metrics server, started before the run; the
// entry point says its URL (a free port, 0, must be found by whoever scrapes it).
import { createDriverMetrics, serveMetrics } from './metrics-server.js';
import { RunError } from '../util/errors.js';

// After the run: how long the driver waits for the scrape that carries its last step.
export const METRICS_LINGER_MS = 5000;

/** Resolves to { url, onProgress, onResult, lastScrape(ms), close() }; a RunError when the port cannot be had. */
export async function startRunMetrics(port) {
  const metrics = createDriverMetrics();
  let server;
  try {
    server = await serveMetrics(metrics, port);
  } catch (error) {
    throw new RunError(`--metrics-port ${port}: cannot listen on 127.0.0.1:${port} (${error.code ?? error.message})`);
  }
  return {
    url: server.url,
    onProgress: metrics.onProgress,
    onResult: metrics.onResult,
    lastScrape: server.lastScrape,
    close: server.close,
  };
}
