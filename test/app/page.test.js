import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startApp } from '../../app/start-app.js';
import { which } from '../../util/which.js';
import { unavailable } from '../helpers/services.js';

// The index page in a real browser: Debian's Chromium, driven by playwright-core.
const chromium = which('chromium');
let app;
let browser;

before(async () => {
  app = await startApp({
    port: 0, host: '127.0.0.1', stores: ['memory', 'cloudant', 'redis'], env: { PATH: process.env.PATH },
  });
  if (!chromium) return;
  const { chromium: launcher } = await import('playwright-core');
  browser = await launcher.launch({
    executablePath: chromium,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
});
after(async () => {
  await browser?.close();
  await app?.close();
});

test('the index page shows key2\'s 320x240 JPEG decoded through every store that is up', async (t) => {
  if (!browser) return unavailable(t, 'Chromium is not installed (apt-get install chromium)');
  const page = await browser.newPage();
  const outside = [];
  page.on('request', (request) => { if (!request.url().startsWith(app.url)) outside.push(request.url()); });
  await page.goto(`${app.url}/`);

  const { stores } = await (await fetch(`${app.url}/stores`)).json();
  const up = stores.filter((s) => s.status === 'up').map((s) => s.name);
  assert.ok(up.includes('memory') && up.includes('cloudant'));
  for (const name of up) {
    const image = page.locator(`figure[data-store="${name}"] img`);
    await page.waitForFunction((img) => img.complete && img.naturalWidth > 0, await image.elementHandle());
    const size = await image.evaluate((img) => [img.naturalWidth, img.naturalHeight]);
    assert.deepEqual(size, [320, 240], `${name}: the decoded image is the 320x240 JPEG`);
    const caption = await page.locator(`figure[data-store="${name}"] figcaption`).textContent();
    assert.equal(caption, `${name}: Text and 20kb jpg data`);
  }
  assert.deepEqual(outside, [], 'the page loads nothing from outside the app');
});

test('the index page links every store x key, and a link opens the JSON payload', async (t) => {
  if (!browser) return unavailable(t, 'Chromium is not installed (apt-get install chromium)');
  const page = await browser.newPage();
  await page.goto(`${app.url}/`);
  const links = await page.locator('tbody a').evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')));
  for (const store of ['memory', 'cloudant']) {
    for (const key of ['key1', 'key2', 'key3']) assert.ok(links.includes(`/${store}/${key}`), `/${store}/${key}`);
  }
  await page.click('a[href="/memory/key1"]');
  assert.deepEqual(JSON.parse(await page.locator('body').innerText()), { message: 'Text data' });
});

test('the page marks cloudant-legacy end-of-life, as /stores does, whether or not it is up', async (t) => {
  // Pins #9.14: /stores said "end-of-life client (@cloudant/cloudant)"; the page did not.
  const own = await startApp({
    port: 0, host: '127.0.0.1', stores: ['memory', 'cloudant-legacy'], embedded: false, env: { PATH: process.env.PATH },
  });
  t.after(() => own.close());
  const { stores } = await (await fetch(`${own.url}/stores`)).json();
  const { lifecycle } = stores.find((store) => store.name === 'cloudant-legacy');
  assert.equal(lifecycle, 'end-of-life client (@cloudant/cloudant)');
  const html = await (await fetch(`${own.url}/`)).text();
  const row = html.split('\n').find((line) => line.startsWith('<tr><th>cloudant-legacy</th>'));
  assert.ok(row.includes(`<strong class="lifecycle">${lifecycle}</strong>`), row);
  assert.ok(!html.split('\n').find((line) => line.startsWith('<tr><th>memory</th>')).includes('lifecycle'));
});
