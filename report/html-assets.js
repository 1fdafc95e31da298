// What the HTML report inlines, so the page is one file that loads nothing: uPlot's script
// and stylesheet from node_modules (MIT, its licence kept in the page), the page's own script
// (html-client.js) and its stylesheet, readable on a phone and in print.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

let cached = null;

/** { uplotJs, uplotCss, uplotLicense, uplotVersion, clientJs, flameClientJs, pageCss } (read once). */
export function htmlAssets() {
  if (cached) return cached;
  const uplotJsPath = require.resolve('uplot/dist/uPlot.iife.min.js');
  const uplotDir = dirname(dirname(uplotJsPath));
  cached = {
    uplotJs: readFileSync(uplotJsPath, 'utf8'),
    uplotCss: readFileSync(join(uplotDir, 'dist', 'uPlot.min.css'), 'utf8'),
    uplotLicense: readFileSync(join(uplotDir, 'LICENSE'), 'utf8'),
    uplotVersion: JSON.parse(readFileSync(join(uplotDir, 'package.json'), 'utf8')).version,
    clientJs: readFileSync(new URL('./html-client.js', import.meta.url), 'utf8'),
    flameClientJs: readFileSync(new URL('./html-flame-client.js', import.meta.url), 'utf8'),
    pageCss: PAGE_CSS,
  };
  return cached;
}

// A backslash at the end of a line continues the rule on the next one, without a line break in
// the stylesheet.
const PAGE_CSS = `
:root { --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --warn: #9a6700; \
--warn-bg: #fff8c5; --bad: #cf222e; --good: #1a7f37; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); \
margin: 0 auto; max-width: 1200px; padding: 12px 16px 40px; }
h1 { font-size: 1.5rem; margin: 0.4em 0; }
h2 { font-size: 1.25rem; margin: 1.6em 0 0.5em; border-bottom: 1px solid var(--line); padding-bottom: 0.2em; }
h3 { font-size: 1.05rem; margin: 1.2em 0 0.4em; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0.5em 0; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; overflow-wrap: anywhere; }
nav ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 6px 14px; }
.notice { background: var(--warn-bg); border-left: 4px solid var(--warn); padding: 6px 10px; margin: 0.6em 0; }
.notice ul { margin: 0.2em 0; padding-left: 1.2em; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(290px, 1fr)); gap: 12px; }
figure.chart[data-kind="load"] .u-legend .u-series:first-child { display: none; }
figure.chart { margin: 0; min-width: 0; border: 1px solid var(--line); border-radius: 6px; padding: 6px; \
break-inside: avoid; }
figure.chart > div { width: 100%; min-width: 0; overflow: hidden; }
.uplot .u-title { font-size: 14px; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 0.9rem; margin: 0.3em 0; }
th, td { padding: 3px 8px; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
th { background: #f6f8fa; position: sticky; top: 0; }
td.text, th.text { text-align: left; }
tr.warned td { background: var(--warn-bg); }
.mark { color: var(--warn); font-weight: bold; }
.pass { color: var(--good); font-weight: bold; }
.fail { color: var(--bad); font-weight: bold; }
.note { color: var(--muted); font-size: 0.88rem; margin: 0.2em 0; }
ul.warnings { font-size: 0.88rem; margin: 0.2em 0 0.8em; padding-left: 1.2em; }
details { margin: 0.5em 0; }
summary { cursor: pointer; font-weight: 600; }
footer { margin-top: 3em; color: var(--muted); font-size: 0.8rem; }
@media (max-width: 600px) {
  body { font-size: 14px; padding: 8px; }
  .charts { grid-template-columns: 1fr; }
  dl.meta { grid-template-columns: 1fr; }
  dl.meta dt { margin-top: 4px; }
}
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  nav, summary { display: none; }
  .charts { grid-template-columns: 1fr 1fr; }
  .scroll { overflow: visible; }
  th { position: static; }
  h2 { break-after: avoid; }
  table, figure.chart, .notice { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
`;
