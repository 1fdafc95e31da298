// --profile on the HTML page: the parts of each profiled step as one stacked bar (drawn by the page
// itself, no script needed), and a flame graph per step drawn in the browser by d3-flame-graph from
// the tree the Result keeps (step.profile.flame). Its scripts are inlined only on a page with a
// profile: d3's modules that d3-flame-graph needs, in the order they build on each other.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PARTS } from '../result/profile-parts.js';
import { loadText } from './html-charts.js';
import { partLabel, profileLine } from './profile-text.js';

const require = createRequire(import.meta.url);
const D3_MODULES = [
  'd3-array', 'd3-dispatch', 'd3-ease', 'd3-format', 'd3-hierarchy', 'd3-color', 'd3-interpolate', 'd3-timer',
  'd3-selection', 'd3-transition', 'd3-time', 'd3-time-format', 'd3-scale',
];
const COLOURS = {
  framework: '#d62728',
  client: '#1f77b4',
  node: '#2ca02c',
  json: '#9467bd',
  gc: '#8c564b',
  storebench: '#ff7f0e',
  other: '#7f7f7f',
  threads: '#bcbd22',
};
const CSS = `
.parts { display: grid; grid-template-columns: max-content 1fr max-content; gap: 4px 10px; align-items: center; \
font-size: 0.88rem; }
.parts .bar { display: flex; height: 16px; border: 1px solid var(--line); min-width: 0; }
.parts .bar span { display: block; height: 100%; }
.legend span { display: inline-block; margin-right: 12px; font-size: 0.85rem; }
.legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: middle; }
.flame { width: 100%; min-height: 40px; overflow: hidden; }
`;

let cached = null;

/** d3's modules and d3-flame-graph (scripts, stylesheet, licences), read once. */
function flameAssets() {
  if (cached) return cached;
  const flameJs = require.resolve('d3-flame-graph'); // its UMD build, dist/d3-flamegraph.umd.js
  const fromFlame = createRequire(flameJs);
  const dist = (name) => dirname(fromFlame.resolve(name));
  const scripts = D3_MODULES.map((name) => readFileSync(join(dist(name), `${name}.min.js`), 'utf8'));
  scripts.push(readFileSync(join(dirname(flameJs), 'd3-flamegraph.umd.min.js'), 'utf8'));
  cached = {
    js: scripts.join('\n;\n'),
    css: readFileSync(join(dirname(flameJs), 'd3-flamegraph.css'), 'utf8'),
    version: JSON.parse(readFileSync(join(dirname(flameJs), '..', 'package.json'), 'utf8')).version,
    licences: `d3 (ISC): ${D3_MODULES.join(', ')}; d3-flame-graph (Apache-2.0)`,
  };
  return cached;
}

const profiled = (result) => result.steps.filter((step) => step.profile);
const stepName = (step) => [step.store, step.framework, step.key, loadText(step)].filter(Boolean).join(' · ');

/**
 * The page's profile section, its flame trees (for the page's JSON), and what it inlines; null
 * when no step was profiled.
 */
export function profileSection(result, escapeHtml) {
  const steps = profiled(result);
  if (!steps.length) return null;
  const widest = Math.max(...steps.map((step) => step.profile.microsPerResponse ?? 0)) || 1;
  const bars = steps.map((step) => {
    const { profile } = step;
    const spans = PARTS.filter((part) => (profile.parts[part] ?? 0) > 0).map((part) => {
      const micros = profile.parts[part];
      const title = `${partLabel(part, step)} ${Math.round(micros)} µs`;
      return `<span title="${escapeHtml(title)}" data-part="${part}" ` +
        `style="width:${((100 * micros) / widest).toFixed(2)}%;background:${COLOURS[part]}"></span>`;
    }).join('');
    return `<span class="text">${escapeHtml(stepName(step))}</span><div class="bar">${spans}</div>` +
      `<span>${Math.round(profile.microsPerResponse ?? 0)} µs</span>`;
  }).join('');
  const legend = PARTS.map((part) => `<span><i style="background:${COLOURS[part]}"></i>${part}</span>`).join('');
  const flames = steps.map((step, i) => `<details><summary>${escapeHtml(stepName(step))}</summary>` +
    `<p class="note">${escapeHtml(profileLine(step))}</p>` +
    `<div class="flame" id="flame-${i}" data-step="${i}"></div></details>`).join('');
  const html = '<section id="profile"><h2>Where the app\'s CPU went</h2>' +
    '<p class="note">Each profiled step run again with the app profiled (--profile): CPU µs per response by part ' +
    '(docs/measurement.md, "What the app costs"); the step\'s own figures are never the profiled ones.</p>' +
    `<div class="legend">${legend}</div><div class="parts">${bars}</div>` +
    '<h3>Flame graphs</h3><p class="note needs-js">Each step\'s profiles, every app process under one root; a ' +
    'frame\'s width is its CPU time with what it called. Click a frame to zoom.</p>' +
    `<div class="needs-js">${flames}</div></section>`;
  const assets = flameAssets();
  return {
    html,
    flames: steps.map((step) => step.profile.flame),
    colours: COLOURS,
    css: `${assets.css}\n${CSS}`,
    js: assets.js,
    credit: `Flame graphs by d3-flame-graph ${assets.version} with ${assets.licences}, inlined.`,
  };
}
