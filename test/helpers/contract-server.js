// A real HTTP server on port 0 that speaks the app's write contract over an
// in-memory map, for the driver's workload tests until, and besides, the app itself:
//   GET /<store>/<key>            200 bytes | 404 KEY_NOT_FOUND
//   PUT /<store>/<key>            204 (raw body stored byte-exact)
//   DELETE /<store>/<key>         204 (idempotent)
//   POST /<store>/<key>/append    204 | 405 APPEND_UNSUPPORTED with Allow
//   POST /<store>                 bulk load: application/vnd.storebench.records (util/records.js) -> 200 {"written": N}
//   GET /stores, GET /healthz     the listing (with "writes") and health, as the app answers them
// Keys [A-Za-z0-9._:~-]{1,250} (else 400 INVALID_KEY); values up to maxValueBytes (else 413
// VALUE_TOO_LARGE); with `token`, writes need "Authorization: Bearer <token>" (401
// WRITE_TOKEN_REQUIRED, 403 WRITE_TOKEN_INVALID); `writesDisabled` answers 403 WRITES_DISABLED.
// `dropEvery: n` answers every nth PUT 204 without storing it: a store that loses writes.
import { createServer } from 'node:http';
import { RECORDS_MEDIA_TYPE, parseRecords } from '../../util/records.js';

const KEY = /^[A-Za-z0-9._:~-]{1,250}$/;
const SEEDED = { key1: '{"message":"Text data"}', key2: '{"message":"two"}', key3: '{"message":"three"}' };

/**
 * Starts the server. Options: stores (names, default ['memory', 'noappend']; a store named
 * `noappend` or listed in `noAppend` has no native append), token, writesDisabled, dropEvery,
 * maxValueBytes (16 MB), maxBulkBytes (64 MB), holdMs (each data request held that long).
 * Resolves to { url, data: Map<store, Map<key, Buffer>>, counts, close() }.
 */
export async function startContractServer(t, {
  stores = ['memory', 'noappend'],
  noAppend = ['noappend'],
  token = null,
  writesDisabled = false,
  dropEvery = 0,
  maxValueBytes = 16 * 1024 * 1024,
  maxBulkBytes = 64 * 1024 * 1024,
  holdMs = 0,
} = {}) {
  const seeded = () => new Map(Object.entries(SEEDED).map(([key, text]) => [key, Buffer.from(text)]));
  const data = new Map(stores.map((name) => [name, seeded()]));
  const counts = { get: 0, put: 0, dropped: 0, append: 0, delete: 0, bulk: 0, bulkRecords: 0 };
  const json = (response, status, body, headers = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  const fail = (response, status, code, headers) => {
    return json(response, status, { error: code.toLowerCase().replaceAll('_', ' '), code }, headers);
  };
  const readBody = (request, limit) => new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    request.on('data', (chunk) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > limit ? null : Buffer.concat(chunks)));
    request.on('error', reject);
  });
  const writeRefusal = (request) => {
    if (writesDisabled) return [403, 'WRITES_DISABLED'];
    if (!token) return null;
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!given) return [401, 'WRITE_TOKEN_REQUIRED'];
    return given === token ? null : [403, 'WRITE_TOKEN_INVALID'];
  };

  const handle = async (request, response) => {
    const path = request.url.split('?')[0];
    if (path === '/healthz') {
      return json(response, 200, { status: 'ok', stores: Object.fromEntries(stores.map((name) => [name, 'up'])) });
    }
    if (path === '/stores') {
      return json(response, 200, {
        stores: stores.map((name) => ({
          name,
          status: 'up',
          keys: Object.keys(SEEDED),
          writes: { append: !noAppend.includes(name), bulk: 'native', hash: false },
        })),
      });
    }
    const parts = path.split('/').slice(1).map(decodeURIComponent);
    const store = data.get(parts[0]);
    if (!store) return fail(response, 404, 'UNKNOWN_STORE');
    if (holdMs) await new Promise((resolve) => setTimeout(resolve, holdMs));
    const isWrite = request.method !== 'GET';
    if (isWrite) {
      const refusal = writeRefusal(request);
      if (refusal) {
        request.resume();
        return fail(response, ...refusal);
      }
    }
    if (parts.length === 1 && request.method === 'POST') {
      if (request.headers['content-type'] !== RECORDS_MEDIA_TYPE) return fail(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
      const body = await readBody(request, maxBulkBytes);
      if (!body) return fail(response, 413, 'BODY_TOO_LARGE');
      let records;
      try {
        records = parseRecords(body);
      } catch {
        return fail(response, 400, 'BAD_RECORDS');
      }
      for (const [key, value] of records) {
        if (!KEY.test(key)) return fail(response, 400, 'INVALID_KEY');
        if (value.length > maxValueBytes) return fail(response, 413, 'VALUE_TOO_LARGE');
      }
      for (const [key, value] of records) store.set(key, Buffer.from(value));
      counts.bulk += 1;
      counts.bulkRecords += records.length;
      return json(response, 200, { written: records.length });
    }
    const [, key, action] = parts;
    if (key === undefined || parts.length > 3 || (action !== undefined && action !== 'append')) {
      return fail(response, 404, 'NO_ROUTE');
    }
    if (!KEY.test(key)) {
      request.resume();
      return fail(response, 400, 'INVALID_KEY');
    }
    if (request.method === 'GET' && !action) {
      counts.get += 1;
      const value = store.get(key);
      if (!value) return fail(response, 404, 'KEY_NOT_FOUND');
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': value.length });
      return response.end(value);
    }
    if (request.method === 'DELETE' && !action) {
      counts.delete += 1;
      store.delete(key);
      response.writeHead(204);
      return response.end();
    }
    if ((request.method === 'PUT' && !action) || (request.method === 'POST' && action === 'append')) {
      if (action && noAppend.includes(parts[0])) {
        request.resume();
        return fail(response, 405, 'APPEND_UNSUPPORTED', { allow: 'GET, PUT, DELETE' });
      }
      const body = await readBody(request, maxValueBytes);
      if (!body) return fail(response, 413, 'VALUE_TOO_LARGE');
      if (action) {
        counts.append += 1;
        store.set(key, Buffer.concat([store.get(key) ?? Buffer.alloc(0), body]));
      } else {
        counts.put += 1;
        if (dropEvery && counts.put % dropEvery === 0) counts.dropped += 1;
        else store.set(key, body);
      }
      response.writeHead(204);
      return response.end();
    }
    request.resume();
    return fail(response, 405, 'METHOD_NOT_ALLOWED', { allow: action ? 'POST' : 'GET, PUT, DELETE' });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => fail(response, 500, 'INTERNAL'));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  });
  t?.after(close);
  return { url: `http://127.0.0.1:${server.address().port}`, data, counts, close };
}
