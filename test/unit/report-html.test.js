// The HTML report as text (test/cli/html-report.test.js loads it in Chromium): one file, nothing
// loaded from anywhere, the data in the page as JSON, made from the Result as its file holds it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fromJson, toJson } from '../../result/format.js';
import { htmlReport, renderHtml } from '../../report/html.js';
import { buildCharts, mergedHistogram, PERCENTILE_POSITIONS } from '../../report/html-charts.js';
import { fixedResult, fixedStep, fixedWarning } from '../helpers/driver-fixtures.js';
import { honestyWarnings } from '../../result/honesty.js';

const before = async () => fromJson(await readFile(new URL('../fixtures/runs/before.json', import.meta.url), 'utf8'));
const jsonIn = (html, id) =>
  JSON.parse(new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`, 's').exec(html)[1]);

test('one self-contained file: uPlot and the page\'s script inlined, no URL to load anything from', async () => {
  const html = htmlReport(await before());
  assert.match(html, /^<!doctype html>\n<html lang="en">/);
  assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">/);
  assert.match(html, /\/\*! https:\/\/github\.com\/leeoniya\/uPlot \(v1\.6\.32\) \*\/\nvar uPlot=function/, 'uPlot inlined');
  assert.match(html, /\.uplot, \.uplot \*/, 'its stylesheet too');
  assert.match(html, /Permission is hereby granted, free of charge/, 'and its licence');
  assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+rel="stylesheet"|<img |@import|url\(/i, 'nothing to fetch');
  const links = [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((match) => match[1]);
  assert.ok(
    links.every((link) => link.startsWith('#') || link.startsWith('data:')),
    `only in-page links: ${links.filter((link) => !link.startsWith('#'))}`,
  );
  assert.match(html, /@media \(max-width: 600px\)/, 'a phone layout');
  assert.match(html, /@media print/, 'a print layout');
});

test('the page holds its data as JSON: the charts, and the Result as its file holds it', async () => {
  const result = await before();
  const html = htmlReport(result);
  assert.deepEqual(jsonIn(html, 'storebench-result'), JSON.parse(toJson(result)));
  assert.equal(
    htmlReport(result),
    renderHtml(fromJson(toJson(result))),
    'htmlReport renders the Result read back from its JSON',
  );
  const { charts } = jsonIn(html, 'storebench-charts');
  // key1: rps, mean, p99 against concurrency, then a percentile chart per level (2, 4); key2 the same.
  assert.deepEqual(charts.map((chart) => chart.id), [
    'chart-0-rps', 'chart-0-mean', 'chart-0-p99', 'chart-0-percentiles-2', 'chart-0-percentiles-4',
    'chart-1-rps', 'chart-1-mean', 'chart-1-p99', 'chart-1-percentiles-2', 'chart-1-percentiles-4',
    // and a timeline per URL: the fixture's steps are 0.3 s, each within one second.
    'timeline-0', 'timeline-1', 'timeline-2', 'timeline-3',
  ]);
  assert.deepEqual(charts[0].series.map((series) => series.label), ['memory', 'fast', 'slow'], 'one line per store');
  assert.deepEqual(charts[0].x, [2, 4]);
  for (const chart of charts) {
    assert.ok(html.includes(`<div id="${chart.id}"`), `${chart.id} has its place in the page`);
  }
  const rpsOfSlow = result.comparison
    .filter((group) => group.key === 'key1')
    .map((group) => group.rows.find((row) => row.store === 'slow').rps);
  assert.deepEqual(
    charts[0].series[2].values,
    rpsOfSlow.map((rps) => Number(rps.toPrecision(4))),
    'the medians the comparison holds',
  );
});

test('a percentile line comes from the repeats\' histograms added together, ' +
  '50% to 99.999% on the 1/(1-p) axis', async () => {
  const result = await before();
  const charts = buildCharts(result);
  const chart = charts.find((candidate) => candidate.id === 'chart-0-percentiles-2');
  assert.equal(PERCENTILE_POSITIONS[0], 2);
  assert.ok(Math.abs(PERCENTILE_POSITIONS.at(-1) - 100_000) < 1e-6);
  const slowSteps = result.steps.filter((step) => step.store === 'slow' && step.concurrency === 2);
  assert.equal(slowSteps.length, 3);
  const merged = mergedHistogram(slowSteps);
  assert.equal(
    merged.totalCount,
    slowSteps.reduce((sum, step) => sum + step.latency.count, 0),
    'every repeat\'s every latency',
  );
  const line = chart.series.find((series) => series.label === 'slow').values;
  assert.equal(
    line[0],
    Number((merged.getValueAtPercentile(50) / 1000).toPrecision(4)),
    'its first point is the p50 of all the repeats together',
  );
  assert.ok(line[0] >= 8, 'the slow server held each request 8 ms');
  const known = line.filter((value) => value !== null);
  assert.ok(
    known.every((value, index) => index === 0 || value >= known[index - 1]),
    'latency never falls as the percentile rises',
  );
  assert.ok(
    line.at(-1) === null,
    `past 1 in ${merged.totalCount} requests the sample says nothing more: the line ends`,
  );
  merged.destroy();
});

test('warnings are in the header and their rows are marked; text is escaped', () => {
  const steps = [
    fixedStep({ store: 'memory', rps: 1000 }),
    fixedStep({
      store: '<b>x</b>',
      rps: 2000,
      warnings: [fixedWarning('CPU_STEAL', 'steal <20%>', { stealPercent: 20, threshold: 10 })],
    }),
  ];
  const html = renderHtml(fromJson(toJson(fixedResult({ steps }))));
  assert.doesNotMatch(html, /<b>x<\/b>/);
  assert.match(html, /&lt;b&gt;x&lt;\/b&gt; !/);
  assert.match(html, /<b>CPU_STEAL<\/b> on 1 of 2 steps/);
  assert.match(html, /<b>FASTER_THAN_BASELINE<\/b> in the comparison: &lt;b&gt;x&lt;\/b&gt; \(key1, concurrency 5\)/);
  assert.match(html, /<tr class="warned"[^>]*><td>5<\/td><td>1<\/td><td class="text">&lt;b&gt;x&lt;\/b&gt; !<\/td>/, 'the comparison row is marked, with its rank');
  assert.match(html, /steal &lt;20%&gt;/);
});

test('"Each step": a failed step shows failed, not figures, and each error kind\'s first answer is said once', () => {
  const reason = 'VALUE_TOO_LARGE: the memcached server refused <1048576> bytes';
  const failedFigures = fixedStep({
    store: 'memcached',
    rps: 4321.4,
    errors: { total: 2000, byKind: { 'http 413': 2000 }, samples: { 'http 413': reason } },
  });
  const steps = [
    fixedStep({ store: 'memory', rps: 8000 }),
    { ...failedFigures, warnings: honestyWarnings(failedFigures) },
    // Errors without a warning quoting them (as a file may hold them): the line under the table says why.
    fixedStep({
      store: 'redis', rps: 6000, errors: { total: 2, byKind: { timeout: 2 }, samples: { timeout: 'no answer' } },
    }),
  ];
  const html = renderHtml(fromJson(toJson(fixedResult({ steps }))));
  const escaped = 'VALUE_TOO_LARGE: the memcached server refused &lt;1048576&gt; bytes';
  const section = (store) => html.slice(html.indexOf(`<summary>http://127.0.0.1:40123/${store}/key1</summary>`));
  const memcached = section('memcached').slice(0, section('memcached').indexOf('</details>'));
  assert.match(memcached, /<td class="text">concurrency 5<\/td><td>1<\/td><td>2000<\/td><td class="text">failed<\/td>(<td>-<\/td>){7}<td class="text">2000 \(http 413: 2000\)<\/td>/);
  assert.doesNotMatch(memcached, /<td>4321<\/td>/, 'no rps for a step that had no success');
  assert.equal(memcached.split(`<li>concurrency 5: no request succeeded: http 413: 2000 (${escaped})</li>`).length, 2);
  assert.doesNotMatch(memcached, /each kind with its first answer/, 'its warning said it already');
  const redis = section('redis').slice(0, section('redis').indexOf('</details>'));
  assert.match(redis, /<li>errors, each kind with its first answer: timeout: 2 \(no answer\)<\/li>/);
  assert.match(section('memory'), /<td>8000<\/td>/, 'a step with answers keeps its figures');
});

test('the per-operation breakdown and the probe\'s figures are shown when the Result has them', () => {
  const step = {
    ...fixedStep({ store: 'redis' }),
    operations: [
      {
        operation: 'read',
        requests: 900,
        rps: 3000,
        latency: { meanMs: 1.1, p99Ms: 4 },
        errors: { total: 0 },
        histogram: { data: 'x' },
      },
      { operation: 'update', requests: 100, rps: 333, latency: { meanMs: 2.2, p99Ms: 6 }, errors: { total: 1 } },
    ],
    probe: { idle: { p50Ms: 0.3, p99Ms: 0.9 }, underLoad: { p50Ms: 1.5, p99Ms: 7 } },
  };
  const html = renderHtml(fixedResult({ steps: [step] }));
  assert.match(html, /<h4>Per operation<\/h4>/);
  assert.match(html, /<td class="text">update<\/td><td>100<\/td><td>333<\/td><td>2\.2<\/td><td>6<\/td><td>1<\/td>/);
  assert.doesNotMatch(html, /histogram\.data/, 'histograms are data, not figures');
  assert.match(html, /<h4>Probe<\/h4>/);
  assert.match(html, /<th class="text">underLoad\.p99Ms<\/th>/);
  assert.doesNotMatch(renderHtml(fixedResult()), /Per operation|<h4>Probe/, 'absent when the Result has none');
});

test('a histogram that does not decode is named, as a results file problem (exit 2)', () => {
  const step = fixedStep();
  step.histogram = { ...step.histogram, data: 'HISTFAAAAB14nJNpmSzMwMDAxAABzFCaEUzOmQQRAAA0ZAJ5' };
  assert.throws(() => renderHtml(fixedResult({ steps: [step] })), (error) => error.code === 'BAD_RESULTS' && /^the histogram of redis key1 \(concurrency 5, repeat 1\) does not decode: Z_DATA_ERROR$/.test(error.message));
});
