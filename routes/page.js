// GET /: a page linking every store x key, each store's status and lifecycle mark, with the key2 image
// fetched through each store. Everything is inline: the page loads nothing from outside the app.
import { keys } from '../stores/payloads.js';
import { redactDeep } from '../util/redact.js';
import { HTML_TYPE, bodyAnswer } from './answers.js';

const escapeHtml = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

const style = `
  body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 64rem; padding: 0 1rem; color: #1b1f24; }
  table { border-collapse: collapse; margin: 1rem 0 2rem; }
  th, td { border: 1px solid #d0d7de; padding: .35rem .7rem; text-align: left; vertical-align: top; }
  th { background: #f6f8fa; }
  .up { color: #1a7f37; } .down, .unavailable { color: #cf222e; }
  .lifecycle { color: #9a6700; font-weight: 600; } .lifecycle::before { content: "⚠ "; }
  .images { display: flex; flex-wrap: wrap; gap: 1rem; }
  figure { margin: 0; } figure img { width: 160px; height: 120px; object-fit: cover; border: 1px solid #d0d7de; }
  figcaption { font-size: .85em; }
  code { background: #f6f8fa; padding: 0 .25em; }`;

// (A backslash at a line's end continues it, without a line break in the page's script.)
const script = `
  for (const figure of document.querySelectorAll('figure[data-store]')) {
    const store = figure.dataset.store;
    const caption = figure.querySelector('figcaption');
    fetch('/' + encodeURIComponent(store) + '/key2')
      .then((response) => response.ok ? response.json() : \
response.json().then((body) => Promise.reject(new Error(body.error))))
      .then((payload) => {
        figure.querySelector('img').src = payload.image;
        caption.textContent = store + ': ' + payload.message;
      })
      .catch((error) => { caption.textContent = store + ': ' + error.message; figure.classList.add('down'); });
  }`;

function renderPage(list) {
  const rows = list
    .map((store) => {
      const links = keys
        .map((key) => (store.status === 'up'
          ? `<td><a href="/${encodeURIComponent(store.name)}/${key}">/${escapeHtml(store.name)}/${key}</a></td>`
          : `<td>/${escapeHtml(store.name)}/${key}</td>`))
        .join('');
      const status = store.reason ? `${store.status}: ${store.reason}` : store.status;
      const lifecycle = store.lifecycle ? ` <strong class="lifecycle">${escapeHtml(store.lifecycle)}</strong>` : '';
      return `<tr><th>${escapeHtml(store.name)}</th>${links}` +
        `<td class="${escapeHtml(store.status)}">${escapeHtml(status)}</td>` +
        `<td>${escapeHtml(store.description)}${lifecycle}</td></tr>`;
    })
    .join('\n');
  const figures = list
    .filter((store) => store.status === 'up')
    .map((store) => `<figure data-store="${escapeHtml(store.name)}">` +
      `<img alt="key2 image from ${escapeHtml(store.name)}">` +
      `<figcaption>${escapeHtml(store.name)}: loading…</figcaption></figure>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>storebench</title><style>${style}</style></head>
<body>
<h1>storebench</h1>
<p>Each link is a <code>GET /&lt;store&gt;/&lt;key&gt;</code> the driver benchmarks: <code>key1</code> is text,
<code>key2</code> text and a 20 KB JPEG, <code>key3</code> text and a 200 KB JPEG.
Status: <a href="/stores">/stores</a>, <a href="/healthz">/healthz</a>.</p>
<table>
<thead><tr><th>store</th>${keys.map((key) => `<th>${key}</th>`).join('')}<th>status</th><th>what it is</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<h2>key2's image, read through each store</h2>
<div class="images">
${figures || '<p>No store is up.</p>'}
</div>
<script>${script}</script>
</body>
</html>`;
}

export function pageRoute(stores) {
  return async () => bodyAnswer(200, HTML_TYPE, renderPage(redactDeep(await stores.status())));
}
