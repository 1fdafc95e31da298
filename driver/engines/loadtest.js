// The HTTP engine: loadtest generates the load, driver/step.js times every request. Not
// loadtest's numbers: it floors each latency to whole ms (a 0.97 ms request counts as 0).
import { EventEmitter } from 'node:events';
import { loadTest } from 'loadtest';
import { storeDurationInRawHeaders } from './server-timing-parse.js';

// loadtest has no stop() for a running test. Once aborted, each client is handed a request
// that never settles, so each stops after its current request instead of spinning on errors.
function idleRequest() {
  return Object.assign(new EventEmitter(), { write() {}, end() {}, setTimeout() {}, destroy() {} });
}

// What loadtest gets instead of the response: no body. Its own handler decodes every body to a
// string; for the 263 KB key3 that cost about 300 µs of CPU per request (~650 -> ~420 µs).
// No headers copy either: Node parses them lazily and loadtest never reads them.
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

// Only non-2xx answers pay for keeping their first bytes.
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

// Read from rawHeaders, which Node fills as it parses, never from the lazily built `headers`.
const storeMsOf = (response) => (isError(response.statusCode) ? -1 : storeDurationInRawHeaders(response.rawHeaders));
const addStoreMs = (first, second) => (first < 0 || second < 0 ? -1 : first + second);

// `end` and `fail` run first, so loadtest's bookkeeping is not timed.
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

// A new object of fixed shape per request, never loadtest's params changed: those are made by
// object spread, and V8 takes 1.4 to 2.7 µs to add a property to such an object (measured).
function requestOptions(params, { method, path, body, authorization }) {
  let headers = params.headers;
  if (body || authorization) {
    headers = {};
    for (const name in params.headers) headers[name] = params.headers[name];
    if (body) {
      headers['content-type'] = 'application/octet-stream';
      headers['content-length'] = body.length;
    }
    if (authorization) headers.authorization = authorization;
  }
  const { protocol, host, hostname, port, auth, agent } = params;
  return { protocol, host, hostname, port, auth, agent, method, path, headers };
}

// Read-modify-write sent as one: loadtest gets an object that looks like the request it expects
// (it listens for 'error' and calls end()).
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
export const loadtestEngine = {
  name: 'loadtest',
  async run({ url, concurrency, maxRequests, durationSeconds, rps, keepAlive, signal, workload }, meter) {
    const agents = new Set();
    let lastAgent = null;
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
