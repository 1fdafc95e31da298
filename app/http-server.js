// The app's node:http server with deadlines fit for a benchmark target: Node's defaults (60 s for
// headers, 300 s a request, checked every 30 s) let a stalled client hold a connection for minutes.
import { createServer } from 'node:http';
import { settings as declared } from '../config/settings.js';

// Node's check of every connection against the deadlines runs this often: a fraction of the
// shortest deadline, never busier than every 100 ms nor lazier than every second.
const checkingInterval = (shortestMs) => Math.min(1000, Math.max(100, Math.floor(shortestMs / 4)));

/** Node refuses a headers deadline past the request's. */
export function deadlineProblems({ headersTimeoutMs, requestTimeoutMs }) {
  if (headersTimeoutMs === undefined || requestTimeoutMs === undefined || headersTimeoutMs <= requestTimeoutMs) {
    return [];
  }
  const [headers, request] = [declared.headersTimeoutMs.env[0], declared.requestTimeoutMs.env[0]];
  return [`${headers} (${headersTimeoutMs} ms) must not be longer than ${request} (${requestTimeoutMs} ms): ` +
    'the headers are part of the request'];
}

/** An http.Server for handler with the app's deadlines (headersTimeoutMs, requestTimeoutMs). */
export function createAppServer(handler, { headersTimeoutMs, requestTimeoutMs }) {
  return createServer({
    headersTimeout: headersTimeoutMs,
    requestTimeout: requestTimeoutMs,
    connectionsCheckingInterval: checkingInterval(Math.min(headersTimeoutMs, requestTimeoutMs)),
    // requireHost (app/create-app.js) answers it as JSON.
    requireHostHeader: false,
  }, handler);
}
