// Run inside a Cloud Foundry task, after its part of the run (npm run load:cf builds the task's
// command): puts the part's results file, or word that the part failed, into the app's results
// area, PUT <app>/_results/<run>/<part>, where the command that started the tasks reads it.
//   node scripts/cf/send-result.js URL RUN PART GUID FILE CODE LOG
// The write token comes from the task's environment (a task has its app's: STOREBENCH_WRITE_TOKEN),
// never from its command line. X-Cf-App-Instance sends it to instance 0 of the app, the one the
// command reads from: the results live in one instance's memory.
import { readFile } from 'node:fs/promises';
import { redactText } from '../../util/redact.js';

const [url, run, part, guid, file, code, log] = process.argv.slice(2);
const lastLine = (text) => text.trim().split('\n').filter(Boolean).at(-1) ?? '';

let body;
if (code === '0') body = await readFile(file).catch(() => null);
if (!body) {
  const logText = await readFile(log, 'utf8').catch(() => '');
  const why = code === '0' ? 'no results file' : `exit ${code}`;
  const line = redactText(`${why}: ${lastLine(logText)}`).slice(0, 500);
  body = Buffer.from(JSON.stringify({ partFailed: { exitCode: Number(code), line } }));
}
const headers = { 'content-type': 'application/json', 'x-cf-app-instance': `${guid}:0` };
if (process.env.STOREBENCH_WRITE_TOKEN) headers.authorization = `Bearer ${process.env.STOREBENCH_WRITE_TOKEN}`;
for (let attempt = 1; ; attempt += 1) {
  const response = await fetch(`${url.replace(/\/+$/, '')}/_results/${run}/${part}`, { method: 'PUT', headers, body })
    .catch((error) => ({ error }));
  if (response.status === 204) break;
  const why = response.error ? response.error.message : `HTTP ${response.status}`;
  if (attempt >= 5) {
    process.stderr.write(`send-result: could not put part ${part}'s result: ${why}\n`);
    process.exit(1);
  }
  await new Promise((resolve) => { setTimeout(resolve, 1000 * attempt); });
}
