// The HTML report in a real browser: `node test report FILE --html OUT` as a user runs it, then
// Debian's Chromium (driven by playwright-core, a fresh profile) opens the file with JavaScript
// on. No console error, no request but the file itself, every chart drawn with every series,
// a screenshot that shows something, a phone's width without sideways scrolling, and print.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { which } from '../../util/which.js';
import { unavailable } from '../helpers/services.js';
import { runDriverCli } from '../helpers/driver-cli.js';
import { colourCount, decodePng } from '../helpers/png.js';
import { createIntervalHistogram, encodeHistogram } from '../../result/recorder.js';

const chromium = which('chromium');
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
let dir;
let page;
let context;
let fileUrl;
const requests = [];
const problems = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'storebench-html-'));
  if (!chromium) return;
  const { chromium: launcher } = await import('playwright-core');
  context = await launcher.launchPersistentContext(join(dir, 'profile'), {
    executablePath: chromium, headless: true, args: ARGS, viewport: { width: 1200, height: 900 },
  });
});
after(async () => {
  await context?.close();
  await rm(dir, { recursive: true, force: true });
});

// The saved run with seconds in every step (the fixture predates them): three seconds each, the
// responses spread over them, the middle second of the first step stalled; the first target's
// seconds also say their store time, as the app's Server-Timing gives it.
async function withSeconds(file) {
  const run = JSON.parse(await readFile('test/fixtures/runs/before.json', 'utf8'));
  run.steps.forEach((step, index) => {
    const shares = [0.45, 0.45, 0.1];
    step.timeline = shares.map((share, second) => {
      const histogram = createIntervalHistogram();
      const responses = Math.round(step.responses * share);
      const stall = index === 0 && second === 1 ? 50 : 1;
      const latencyUs = Math.max(1, Math.round((step.latency.p50Ms ?? 1) * 1000)) * stall;
      if (responses) histogram.recordValueWithCount(latencyUs, responses);
      const ms = responses ? latencyUs / 1000 : null;
      const sample = {
        second,
        seconds: second === 2 ? 0.3 : 1,
        responses,
        errors: {},
        latency: { p50Ms: ms, p90Ms: ms, p99Ms: ms, maxMs: ms },
        histogram: encodeHistogram(histogram),
      };
      if (step.url === run.steps[0].url && responses) {
        sample.storeTime = { p50Ms: ms / 4, p99Ms: ms / 2, histogram: sample.histogram };
      }
      histogram.destroy();
      return sample;
    });
  });
  await writeFile(file, JSON.stringify(run));
}

test('node test report FILE --html OUT writes the page', async () => {
  const out = join(dir, 'report.html');
  const saved = join(dir, 'before-with-seconds.json');
  await withSeconds(saved);
  const result = await runDriverCli(['report', saved, '--html', out]);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, '', 'the page, not the tables');
  assert.equal(result.stderr, `wrote ${out}: 24 step(s) as a page\n`);
  assert.ok((await stat(out)).size > 50_000);
  fileUrl = pathToFileURL(out).href;
});

test('in Chromium: no console error, no request but the file, every chart drawn with all its series', async (t) => {
  if (!context) return unavailable(t, 'Chromium is not installed (apt-get install chromium)');
  assert.ok(fileUrl, 'the page was written');
  page = await context.newPage();
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    const type = message.type();
    if (type === 'error' || type === 'warning') problems.push(`${type}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.goto(fileUrl);
  await page.waitForFunction(() => window.storebenchPlots?.length > 0);

  const specs = JSON.parse(await page.locator('#storebench-charts').textContent()).charts;
  const charts = await page.evaluate(() => window.storebenchPlots.map((plot) => ({
    id: plot.root.parentElement.id,
    series: plot.series.length - 1,
    drawn: Number(plot.root.parentElement.dataset.drawnSeries),
    // Pixels that are not background on its canvas: the lines, axes and text it drew.
    inked: (() => {
      const canvas = plot.root.querySelector('canvas');
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let count = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) count += 1;
      return count;
    })(),
  })));
  assert.equal(charts.length, specs.length, 'one uPlot per chart in the data');
  assert.equal(charts.length, 14, '5 per key, and one timeline per target (4)');
  for (const [index, chart] of charts.entries()) {
    assert.equal(chart.id, specs[index].id);
    assert.equal(chart.series, specs[index].series.length, `${chart.id}: every store is a series`);
    assert.equal(chart.drawn, chart.series, `${chart.id}: every series was drawn`);
    assert.ok(chart.inked > 1000, `${chart.id}: its canvas has ink (${chart.inked} pixels)`);
  }
  assert.equal(charts.reduce((sum, chart) => sum + chart.series, 0), 3 * 3 + 2 * 3 + 3 * 1 + 2 * 1 + 4 * 2 + 1,
    'key1: 3 stores on 5 charts; key2: 1 store on 5; rps and p99 on each timeline, and the store\'s p99 on one');
  const timelines = specs.filter((spec) => spec.kind === 'timeline');
  assert.deepEqual(timelines.map((spec) => spec.marks.length), [6, 6, 6, 6],
    'each target\'s 6 steps marked where they began');
  const stalled = timelines.find((spec) => {
    const p99 = spec.series[1].values;
    return Math.max(...p99) > 10 * Math.min(...p99.filter((v) => v !== null));
  });
  assert.ok(stalled, 'the stalled second stands out in one target\'s p99 line');
  assert.deepEqual(problems, [], 'no console error or warning');
  assert.deepEqual(requests, [fileUrl], 'nothing loaded but the file itself');
  assert.equal(await page.locator('tr.warned').count() > 0, true, 'rows with warnings are marked');
});

test('a screenshot shows the page: a PNG of some size, and not one colour', async (t) => {
  if (!context) return unavailable(t, 'Chromium is not installed (apt-get install chromium)');
  assert.ok(page, 'the page was loaded');
  const file = join(dir, 'report.png');
  await page.screenshot({ path: file, fullPage: true });
  const bytes = await readFile(file);
  assert.ok(bytes.length > 100_000, `${bytes.length} bytes`);
  const image = decodePng(bytes);
  assert.equal(image.width, 1200);
  assert.ok(image.height > 2000, 'the whole page, charts and tables');
  assert.ok(colourCount(image) > 50, 'lines in several colours, text, shading: not a blank page');
});

test('on a phone\'s width nothing scrolls sideways and the charts fit; in print the navigation goes', async (t) => {
  if (!context) return unavailable(t, 'Chromium is not installed (apt-get install chromium)');
  assert.ok(fileUrl);
  const phone = await context.newPage();
  t.after(() => phone.close());
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(fileUrl);
  await phone.waitForFunction(() => window.storebenchPlots?.length > 0);
  const layout = await phone.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    widest: Math.max(...window.storebenchPlots.map((plot) => plot.root.getBoundingClientRect().right)),
  }));
  assert.ok(layout.page <= 390, `the page is ${layout.page} px wide`);
  assert.ok(layout.widest <= 390, `every chart fits (rightmost edge ${layout.widest} px)`);
  await phone.emulateMedia({ media: 'print' });
  assert.equal(await phone.locator('nav').evaluate((nav) => window.getComputedStyle(nav).display), 'none');
  const pdf = await phone.pdf({ format: 'A4' });
  assert.ok(pdf.length > 50_000, `the page prints (${pdf.length} bytes of PDF)`);
});

// Without JavaScript the page showed five empty chart frames per key and no word why.
test('with JavaScript off: a note where the charts would be, no empty chart frame, the tables readable', async (t) => {
  if (!chromium) return unavailable(t, 'Chromium is not installed (apt-get install chromium)');
  assert.ok(fileUrl, 'the page was written');
  const { chromium: launcher } = await import('playwright-core');
  const noScript = await launcher.launchPersistentContext(join(dir, 'profile-no-js'), {
    executablePath: chromium,
    headless: true,
    args: ARGS,
    viewport: { width: 1200, height: 900 },
    javaScriptEnabled: false,
  });
  t.after(() => noScript.close());
  const plain = await noScript.newPage();
  await plain.goto(fileUrl);
  const notes = plain.locator('.no-script');
  assert.equal(await notes.count(), 2, 'one note per key (key1, key2)');
  for (const note of await notes.all()) {
    assert.equal(await note.isVisible(), true);
    assert.match(await note.textContent(), /^The charts \(rps, mean and p99 against load; latency by percentile\) /);
    assert.match(await note.textContent(), /need JavaScript, /);
    assert.match(await note.textContent(), /which is off here\. The tables hold their figures/);
  }
  const shown = (all) => all.map((element) => element.getClientRects().length > 0);
  const frames = await plain.locator('figure.chart').evaluateAll(shown);
  assert.ok(frames.length === 14 && frames.every((visible) => !visible), 'no empty chart frame is shown');
  const headings = await plain.locator('h3', { hasText: /Latency by percentile|Second by second/ }).evaluateAll(shown);
  assert.deepEqual(headings, [false, false, false, false], 'nor the headings of charts that are not there');
  const tables = await plain.locator('table').evaluateAll((all) => all.map((table) => ({
    visible: table.getClientRects().length > 0, rows: table.rows.length, width: table.getBoundingClientRect().width,
  })));
  const readable = tables.every((table) => table.visible && table.rows > 1 && table.width > 200);
  assert.ok(tables.length >= 5 && readable, JSON.stringify(tables));
  assert.equal(await plain.locator('#steps tr.warned').first().isVisible(), true, 'every step, warnings marked');
  // With JavaScript on, the note is not there at all.
  assert.ok(page, 'the page was loaded with JavaScript');
  assert.equal(await page.locator('.no-script').count(), 0);
  assert.equal(await page.getByText('Latency by percentile').first().isVisible(), true);
});

// test/fixtures/runs/profiled.json: a real `node test --stores memory,redis --keys key1 -c 10 -t 1
// --profile` (express), each step with its profile and flame tree.
test('a profiled run\'s page: the parts as one bar a step, a flame graph per step drawn in the browser', async (t) => {
  if (!context) return unavailable(t, 'Chromium is not installed (apt-get install chromium)');
  const out = join(dir, 'profiled.html');
  const result = await runDriverCli(['report', 'test/fixtures/runs/profiled.json', '--html', out]);
  assert.equal(result.status, 0, result.stderr);
  const saved = JSON.parse(await readFile('test/fixtures/runs/profiled.json', 'utf8'));
  const profiled = saved.steps.filter((step) => step.profile);
  const seen = [];
  const errors = [];
  const profilePage = await context.newPage();
  t.after(() => profilePage.close());
  profilePage.on('request', (request) => seen.push(request.url()));
  profilePage.on('pageerror', (error) => errors.push(error.message));
  profilePage.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  await profilePage.goto(pathToFileURL(out).href);
  const bars = await profilePage.locator('#profile .parts .bar').evaluateAll((all) => all.map((bar) =>
    [...bar.querySelectorAll('span')].map((span) => span.dataset.part)));
  assert.equal(bars.length, profiled.length, 'one bar per profiled step');
  for (const [i, parts] of bars.entries()) {
    const expected = Object.entries(profiled[i].profile.parts).filter(([, micros]) => micros > 0).map(([part]) => part);
    assert.deepEqual(parts, expected, 'each part with time is a piece of its bar, in order');
  }
  // Each flame graph draws when its step is opened.
  await profilePage.locator('#profile details summary').evaluateAll((all) => all.forEach((s) => s.click()));
  await profilePage.waitForFunction((n) => document.querySelectorAll('.flame[data-drawn]').length === n,
    profiled.length);
  const flames = await profilePage.locator('.flame').evaluateAll((all) => all.map((flame) => ({
    frames: Number(flame.dataset.drawn), rects: flame.querySelectorAll('rect').length,
  })));
  for (const flame of flames) {
    assert.ok(flame.frames > 10, `${flame.frames} frames in the tree`);
    assert.ok(flame.rects >= flame.frames * 0.5, `${flame.rects} frames drawn of ${flame.frames}`);
  }
  assert.deepEqual(errors, []);
  assert.deepEqual(seen, [pathToFileURL(out).href], 'nothing loaded but the file itself');
});
