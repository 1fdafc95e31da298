// The HTTP engine: loadtest generates the load, driver/step.js times every request.
//
// Why not loadtest's numbers: it floors each latency to whole milliseconds (lib/latency.js),
// so a 0.97 ms request counts as 0 ms, and its rps divides by millisecond-truncated times.
// Through its requestGenerator hook we see each request from creation to the response's
// last byte, and keep our own counts, so its quirks (a timed-out request finished twice, late
// responses dropped after stop) cannot skew ours.
import { EventEmitter } from 'node:events';
import { loadTest } from 'loadtest';
import { storeDurationInRawHeaders } from './server-timing.js';

// loadtest has no stop() for a running test. Once aborted, each client is handed a request
// that never settles, so each stops after its current request instead of spinning on errors.
function idleRequest() {
  return Object.assign(new EventEmitter(), { write() {}, end() {}, setTimeout() {}, destroy() {} });
}

// What loadtest gets instead of the response: the status and the end, but no body. Its own
// handler buffers every body and decodes it to a string, which we never use; for the 263 KB
// key3 that cost the driver about 300 µs of CPU per request (measured: ~650 -> ~420 µs).
// A plain object, not an EventEmitter, and no copy of the response's headers: Node parses
// those lazily, on first read, and loadtest never reads them (profiled: the stand-in and the
// header parse were a tenth of what the driver added per request to loadtest's own cost).
class StandIn {
  constructor(statusCode) {
    this.statusCode = statusCode;
    this.onEnd = null;
    this.onError = null;
  }

  on(event, listener) {
    if (event === 'end') this.onEnd = listener;
    else if (event === 'error') this.onError = listener;
    return this;
  }
}

// An error answer's first bytes are kept, so the step can say why requests failed (the app's
// JSON `code` and `error`); only answers outside 200-299 pay for it.
const ERROR_BODY_BYTES = 2048;
const isError = (status) => status < 200 || status > 299;
function errorBody(response) {
  let kept = '';
  response.setEncoding('utf8');
  response.on('data', (chunk) => {
    if (kept.length < ERROR_BODY_BYTES) kept += chunk.slice(0, ERROR_BODY_BYTES - kept.length);
  });
  return () => kept;
}

// The store's time a 2xx response's Server-Timing header gives (ms), else -1: read from
// rawHeaders, which Node fills as it parses, never from the lazily built `headers`.
const storeMsOf = (response) => (isError(response.statusCode) ? -1 : storeDurationInRawHeaders(response.rawHeaders));
// Read-modify-write's store time: its GET's and its PUT's, or none if either had none.
const addStoreMs = (first, second) => (first < 0 || second < 0 ? -1 : first + second);

// Hands `response` to loadtest's connect() through a StandIn, discarding the body (an error's
// first bytes aside); `end(status, body, storeMs)` and `fail(error)` run first, so loadtest's
// bookkeeping is not timed.
function answer(response, connect, end, fail) {
  const stand = new StandIn(response.statusCode);
  const body = isError(response.statusCode) ? errorBody(response) : null;
  const storeMs = storeMsOf(response);
  response.on('end', () => {
    end(response.statusCode, body?.(), storeMs);
    stand.onEnd?.();
  });
  response.on('error', (error) => {
    fail(error);
    stand.onError?.(error);
  });
  connect(stand);
  response.resume();
}

// loadtest reports NaN or Infinity when nothing completed; a results file holds null instead.
const finiteOrNull = (value) => (Number.isFinite(value) ? value : null);

// The options of one request of a workload: its method, path and headers on loadtest's
// target. A new object of fixed shape each time, never loadtest's own params changed: those
// are made by object spread, and V8 takes 1.4 to 2.7 µs to add a property to such an object
// (measured; a third of a read's whole cost in the driver, more for a write's three headers).
function requestOptions(params, { method, path, body, authorization }) {
  let headers = params.headers;
  if (body || authorization) {
    headers = {};
    for (const name in params.headers) headers[name] = params.headers[name];
    if (body) {
      headers['content-type'] = 'application/octet-stream';
      headers['content-length'] = body.length;
    }
    // A DELETE carries the token with no body.
    if (authorization) headers.authorization = authorization;
  }
  const { protocol, host, hostname, port, auth, agent } = params;
  return { protocol, host, hostname, port, auth, agent, method, path, headers };
}

// An operation of two requests (read-modify-write: a GET, then a PUT once the GET answered
// 2xx), sent as one: loadtest gets an object that looks like the request it expects (it
// listens for 'error' and calls end()); onResponse gets the final response with the stage
// (0 or 1) it came from and the GET's store time (-1: none), onError the error and its stage.
function chainedRequest(makeRequest, params, operation, { onResponse, onError }) {
  const chain = new EventEmitter();
  let current = null;
  let stage = 0;
  let firstStoreMs = -1;
  const send = (spec) => {
    current = makeRequest(requestOptions(params, spec), (response) => {
      if (stage === 0 && response.statusCode >= 200 && response.statusCode < 300) {
        firstStoreMs = storeMsOf(response);
        response.once('error', (error) => onError(error, stage));
        response.once('end', () => {
          stage = 1;
          send(operation.then);
        });
        response.resume();
        return;
      }
      onResponse(response, stage, firstStoreMs);
    });
    current.once('error', (error) => onError(error, stage));
    current.end(spec.body ?? undefined);
  };
  return Object.assign(chain, {
    write() {},
    end: () => send(operation),
    setTimeout() {},
    destroy(error) {
      current?.destroy(error);
      // A request that had already ended emits nothing when destroyed: end the operation here.
      setImmediate(() => onError(error, stage));
    },
  });
}

/** @type {import('../step.js').Engine} */
export const httpEngine = {
  name: 'loadtest',
  async run({ url, concurrency, maxRequests, durationSeconds, rps, keepAlive, signal, workload }, meter) {
    const agents = new Set();
    let lastAgent = null;
    // With a workload, each request is what it says: operation, method, path, headers, body.
    const workloadRequest = (params, makeRequest, connect) => {
      const operation = workload.next();
      let request = null;
      const handle = meter.begin((error) => request.destroy(error), operation.operation);
      if (params.agent) agents.add(params.agent);
      let settled = false;
      const end = (status, stage, error, body, storeMs) => {
        if (settled) return false;
        settled = true;
        operation.settle(status, stage);
        if (error) handle.failed(error);
        else handle.responded(status, body, storeMs);
        return true;
      };
      const onResponse = (response, stage, firstStoreMs = -1) => answer(response, connect,
        (status, body, storeMs) => end(status, stage, null, body, stage ? addStoreMs(firstStoreMs, storeMs) : storeMs),
        (error) => end(null, stage, error));
      if (operation.then) {
        request = chainedRequest(makeRequest, params, operation, {
          onResponse,
          onError: (error, stage) => end(null, stage, error) && request.emit('error', error),
        });
        return request;
      }
      request = makeRequest(requestOptions(params, operation), (response) => onResponse(response, 0));
      request.once('error', (error) => end(null, 0, error));
      // The body goes out with end(), one call; loadtest's own end() after it does nothing.
      if (operation.body) request.end(operation.body);
      return request;
    };
    // loadtest calls this for every request and then writes nothing and calls request.end() itself.
    const requestGenerator = (options, params, makeRequest, connect) => {
      if (signal?.aborted) return idleRequest();
      if (workload) return workloadRequest(params, makeRequest, connect);
      // Destroying the request makes loadtest see an error and move on, exactly once. (The
      // meter calls this later, from a timer or an abort, once `request` below exists.)
      const handle = meter.begin((error) => request.destroy(error));
      if (params.agent && params.agent !== lastAgent) agents.add((lastAgent = params.agent));
      const request = makeRequest(params, (response) => answer(response, connect,
        (status, body, storeMs) => handle.responded(status, body, storeMs),
        (error) => handle.failed(error)));
      request.on('error', (error) => handle.failed(error));
      return request;
    };
    const result = await loadTest({
      url,
      concurrency,
      maxRequests,
      maxSeconds: durationSeconds,
      requestsPerSecond: rps,
      agentKeepAlive: keepAlive,
      requestGenerator,
      quiet: true,
    });
    return {
      // What loadtest itself reported for the same step, only to show how far off it is.
      reported: {
        meanLatencyMs: finiteOrNull(result.meanLatencyMs),
        rps: finiteOrNull(result.rps),
        totalRequests: result.totalRequests,
      },
      release: () => {
        for (const agent of agents) agent.destroy?.();
      },
    };
  },
};
