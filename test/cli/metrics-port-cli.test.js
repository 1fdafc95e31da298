// node test --metrics-port: the port it serves on is printed, a scrape mid-run and the last
// one after the run answer, and the last one carries exactly the run's requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from '../../app/start-app.js';
import { runDriverCli } from '../helpers/driver-cli.js';

test('--metrics-port with a bad value is one line and exit 2, before any load', async () => {
  const { status, stderr } = await runDriverCli(['--metrics-port', 'nine', '--url', 'http://127.0.0.1:9/x']);
  assert.equal(status, 2);
  assert.match(stderr, /--metrics-port must be a port from 0 to 65535, not "nine"/);
  assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
});

test('--metrics-port 0 prints its URL on stderr; the scrape after the run counts every request in it', async (t) => {
  const app = await startApp({ port: 0, host: '127.0.0.1', stores: ['memory'], env: {} });
  t.after(() => app.close());
  let url;
  const scrapes = [];
  const scrapeLoop = (child) => {
    let buffered = '';
    child.stderr.on('data', (chunk) => {
      buffered += chunk;
      url ??= buffered.match(/metrics: (http:\/\/127\.0\.0\.1:\d+\/metrics)/)?.[1];
    });
    // Scrape like Prometheus would, every 200 ms, until the driver has gone.
    const timer = setInterval(async () => {
      if (!url) return;
      const text = await fetch(url).then((res) => res.text(), () => null);
      if (text) scrapes.push(text);
    }, 200);
    child.once('close', () => clearInterval(timer));
  };
  const { status, stdout } = await runDriverCli([
    '--url', `${app.url}/memory/key1`, '-c', '1', '-n', '300', '--warmup', '0', '--metrics-port', '0', '--json', '-',
  ], { onSpawn: scrapeLoop });
  assert.equal(status, 0);
  assert.ok(url, 'the metrics URL was printed');
  const result = JSON.parse(stdout);
  const controlRequests = result.control?.step.requests ?? 0;
  const requests = result.steps.reduce((total, step) => total + step.requests, 0) + controlRequests;
  const last = scrapes.at(-1);
  assert.ok(last, 'at least one scrape answered');
  const target = result.steps[0].url;
  const labels = `store="memory",key="key1",operation="read",step="c1",target="${target}"`;
  const series = `storebench_driver_requests_total{${labels}}`;
  const line = last.split('\n').find((row) => row.startsWith(series));
  assert.equal(Number(line?.split(' ').pop()), requests, `the last scrape has the run's ${requests} requests: ${line}`);
  assert.match(last, /^# TYPE storebench_driver_latency_seconds histogram$/m);
});
