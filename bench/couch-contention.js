// npm run perf:couch-contention: many writers of one key on the CouchDB stores. For each of
// cloudant, cloudant-legacy and couchdb-nano behind app.js, against the embedded CouchDB
// stand-in: ROUNDS rounds of WRITERS concurrent PUTs of one fresh key, each on its own
// connection. Per round: the answers by status, the PUTs' latency, what the stand-in served
// per PUT (its own counts, GET /_storebench/limits), and whether the value read back came
// from a PUT answered 204. A benchmark, not a test: it reports, never fails on speed.
//
//   npm run perf:couch-contention   (WRITERS, default 200; ROUNDS, default 3)
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { startAppProcess } from '../driver/app-process.js';
import { startCouchServer } from '../embedded/couchdb.js';
import { systemInfo } from '../util/system-info.js';
import { renderSystemLine } from '../report/system.js';

const STORES = ['cloudant', 'cloudant-legacy', 'couchdb-nano'];
const writers = Number(process.env.WRITERS ?? 200);
const rounds = Number(process.env.ROUNDS ?? 3);

/** One PUT on a connection of its own: { status, ms }. */
function put(url, body) {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { method: 'PUT', agent: false, headers: { 'Content-Length': body.length } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({
        status: res.statusCode, ms: performance.now() - started, body: Buffer.concat(chunks).toString(),
      }));
    });
    req.on('error', (error) => resolve({ status: error.code, ms: performance.now() - started }));
    req.end(body);
  });
}

const served = async (couch) => {
  const { accepted } = await (await fetch(`${couch.url}/_storebench/limits`)).json();
  return accepted.lookup + accepted.write;
};
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

const couch = await startCouchServer();
const env = { ...process.env, COUCHDB_URL: couch.url, CLOUDANT_DB: `contention-${randomUUID()}` };
const app = await startAppProcess({ stores: STORES, args: ['--no-embedded'], env });
try {
  console.log(renderSystemLine(systemInfo()));
  console.log(`${writers} concurrent PUTs of one key, ${rounds} rounds per store, through app.js to the embedded ` +
    'CouchDB stand-in; operation deadline STOREBENCH_OP_TIMEOUT_MS ' +
    `${process.env.STOREBENCH_OP_TIMEOUT_MS ?? 2000} ms\n`);
  for (const store of STORES) {
    for (let round = 1; round <= rounds; round++) {
      const key = `contended-${randomUUID()}`;
      const before = await served(couch);
      const started = performance.now();
      const answers = await Promise.all(Array.from({ length: writers }, (_, writer) =>
        put(`${app.url}/${store}/${key}`, Buffer.from(JSON.stringify({ writer })))));
      const wallMs = performance.now() - started;
      const requests = (await served(couch)) - before;
      const counts = {};
      for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
      const ms = answers.map((answer) => answer.ms).sort((a, b) => a - b);
      // A PUT answered 503 may still land after its answer: give it time before reading back.
      await new Promise((resolve) => { setTimeout(resolve, 3000); });
      const read = await fetch(`${app.url}/${store}/${key}`);
      const final = read.ok ? answers[JSON.parse(await read.text()).writer]?.status : `read ${read.status}`;
      console.log(`${store.padEnd(16)} round ${round}: ${JSON.stringify(counts)} in ${wallMs.toFixed(0)} ms; ` +
        `latency p50 ${percentile(ms, 0.5).toFixed(0)} ms, max ${ms.at(-1).toFixed(0)} ms; ` +
        `stand-in requests per PUT ${(requests / writers).toFixed(2)}; final value from a PUT answered ${final}`);
      const failed = answers.find((answer) => answer.status >= 500);
      if (failed) console.log(`  first ${failed.status}: ${failed.body}`);
    }
  }
} finally {
  await app.stop();
  await couch.stop();
}
