// The app's node:http server with deadlines that fit a benchmark target. Node's defaults let a
// client that stalls mid-request hold its connection for minutes: 60 s for the headers and
// 300 s for the whole request, each checked only every 30 s (so a stall in the headers lasted
// up to 90 s, one in a body 330 s). Here the deadlines are settings of seconds
// (config/settings.js, scope http), checked often enough to hold them to within a second or so;
// the pause allowed inside a body is enforced where bodies are read (routes/body.js).
import { createServer } from 'node:http';
import { settings as declared } from '../config/settings.js';

// Node's check of every connection against the deadlines runs this often: a fraction of the
// shortest deadline, never busier than every 100 ms nor lazier than every second.
const checkingInterval = (shortestMs) => Math.min(1000, Math.max(100, Math.floor(shortestMs / 4)));

/**
 * The problems of a set of http settings together: Node refuses a headers deadline past the
 * request's.
 */
export function deadlineProblems({ headersTimeoutMs, requestTimeoutMs }) {
  if (headersTimeoutMs === undefined || requestTimeoutMs === undefined || headersTimeoutMs <= requestTimeoutMs) {
    return [];
  }
  const [headers, request] = [declared.headersTimeoutMs.env[0], declared.requestTimeoutMs.env[0]];
  return [`${headers} (${headersTimeoutMs} ms) must not be longer than ${request} (${requestTimeoutMs} ms): ` +
    'the headers are part of the request'];
}

/**
 * An http.Server for handler with the app's deadlines.
 * @param {object} deadlines  headersTimeoutMs, requestTimeoutMs (config/settings.js)
 */
export function createAppServer(handler, { headersTimeoutMs, requestTimeoutMs }) {
  return createServer({
    headersTimeout: headersTimeoutMs,
    requestTimeout: requestTimeoutMs,
    connectionsCheckingInterval: checkingInterval(Math.min(headersTimeoutMs, requestTimeoutMs)),
    // A request without Host is answered by the app, as JSON (app/create-app.js), not by
    // Node with an empty 400.
    requireHostHeader: false,
  }, handler);
}
