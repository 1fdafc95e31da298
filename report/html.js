// The HTML report: one self-contained page (uPlot inlined, the data as JSON in the page, no
// network request) rendered from a saved Result. htmlReport always goes through the
// results file's own writer and reader (toJson, fromJson), so the page shows exactly what the
// file holds, never a live run's objects; renderHtml(result) renders a Result as given.
import { scenarioHtml } from './scenario.js';
import { WARNING_CODES } from '../result/warnings.js';
import { groupRepeats, summarizeCell } from '../result/repeat.js';
import { parseThresholds } from '../config/thresholds.js';
import { BASELINE_STORE } from '../result/comparison.js';
import { fromJson, toJson } from '../result/format.js';
import { buildCharts, loadText } from './html-charts.js';
import { buildTimelineCharts } from './html-timeline.js';
import { htmlAssets } from './html-assets.js';
import {
  appWorkersText, displayUrl, firstAnswersLine, formatErrors, formatMs, formatRps, orderText, warmupText,
} from './table.js';
import { formatRange, loadName, rankText, tiedRanks } from './comparison-table.js';
import { renderControl } from './run-text.js';
import { errorsText } from '../result/honesty.js';
import { failedStep } from '../result/ranking.js';
import { renderMachineLoad } from './machine-summary.js';
import { renderSystemLine } from './system.js';
import { sharedBottleneckLine, showsStoreRank, storeP50Text, storeRankText, storeTimeLegend } from './tiers-text.js';
import { bottleneckText } from '../result/bottleneck.js';
import { checkThresholds } from '../result/threshold-check.js';
import { STORE_TIME_HEADERS, hasServerStoreTime, storeTimeCells, storeTimeNote } from './store-time.js';
import { profileSection } from './html-profile.js';

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value) => String(value).replace(/[&<>"']/g, (char) => ESCAPES[char]);
// JSON inside <script>: nothing in it may close the element or open a comment.
const scriptJson = (value) => JSON.stringify(value)
  .replace(/</g, '\\u003c')
  .replace(/\u2028/g, '\\u2028')
  .replace(/\u2029/g, '\\u2029');

const NUMERIC = /^[-+]?[\d.,]+(-[\d.,]+)?(\s*(ms|%|rps))?$|^-$/;

/** A table: headers, rows of cells (strings, escaped here), and per row an optional class and title. */
function htmlTable(headers, rows, { classes = [], titles = [] } = {}) {
  const cell = (tag, text) => `<${tag}${NUMERIC.test(text) ? '' : ' class="text"'}>${escapeHtml(text)}</${tag}>`;
  const head = `<tr>${headers.map((header) => cell('th', header)).join('')}</tr>`;
  const body = rows.map((row, index) => {
    const className = classes[index] ? ` class="${classes[index]}"` : '';
    const title = titles[index] ? ` title="${escapeHtml(titles[index])}"` : '';
    const attributes = `${className}${title}`;
    return `<tr${attributes}>${row.map((text) => cell('td', text)).join('')}</tr>`;
  });
  return `<div class="scroll"><table><thead>${head}</thead><tbody>${body.join('')}</tbody></table></div>`;
}

const list = (items, className = '') => {
  if (!items.length) return '';
  const attribute = className ? ` class="${className}"` : '';
  return `<ul${attribute}>${items.map((item) => `<li>${item}</li>`).join('')}</ul>`;
};
const slug = (text) => String(text).toLowerCase().replace(/[^a-z0-9]+/g, '-');

function settingsText(settings) {
  const load = settings.rps
    ? `open model at ${settings.rps.join(', ')} rps`
    : `concurrency ${settings.concurrency.join(', ')}`;
  const size = settings.duration ? `${settings.duration} s per step` : `${settings.requests} requests per step`;
  const keepAlive = settings.keepAlive ? 'on' : 'off';
  return `${load}; ${size}; ${warmupText(settings)}; keep-alive ${keepAlive}; timeout ${settings.timeoutMs} ms` +
    appWorkersText(settings);
}

/** Every warning code in the run, how many steps carry it, and what it means. */
function warningSummary(result) {
  const counts = new Map();
  for (const step of result.steps) {
    for (const code of new Set(step.warnings.map((warning) => warning.code))) {
      counts.set(code, (counts.get(code) ?? 0) + 1);
    }
  }
  const meaning = (code) => (WARNING_CODES[code]?.meaning ?? '').replaceAll('`', '');
  const items = [...counts].map(([code, n]) =>
    `<b>${escapeHtml(code)}</b> on ${n} of ${result.steps.length} steps: ${escapeHtml(meaning(code))}`);
  const baseline = result.comparison.flatMap((group) => group.rows
    .filter((row) => row.warnings.includes('FASTER_THAN_BASELINE'))
    .map((row) => `${row.store} (${group.key}, ${loadName(group)})`));
  if (baseline.length) {
    items.push(`<b>FASTER_THAN_BASELINE</b> in the comparison: ${escapeHtml(baseline.join(', '))} ` +
      `measured faster than ${BASELINE_STORE}, the in-process map, beyond the noise: ` +
      'nothing behind the app can be, so something other than the store decided those steps');
  }
  for (const warning of result.control?.warnings ?? []) {
    items.push(`<b>${escapeHtml(warning.code)}</b> on the run: ${escapeHtml(warning.message)}`);
  }
  if (!items.length) return '';
  return `<div class="notice"><b>Warnings</b> (rows marked <span class="mark">!</span> below)${list(items)}</div>`;
}

function header(result) {
  const { system, settings } = result;
  const rows = [
    ['System', renderSystemLine(system, { date: false, engine: settings.engine, choice: settings.engineChoice }).replace(/^System:\s*/, '')],
    ['Target', system.target],
    ['Date', system.date],
    ['Settings', settingsText(settings)],
    ['Order', orderText(settings)],
  ];
  if (result.control) rows.push(['Control', renderControl({ ...result.control, warnings: [] }).replace(/^control: /, '')]);
  if (settings.repeat > 1) {
    rows.push(['Repeats', `each step ${settings.repeat} times, interleaved across the URLs at each load level`]);
  }
  if (settings.assert.length) rows.push(['Assert', settings.assert.join(', ')]);
  const machine = renderMachineLoad(result.steps, { label: '', peakRss: result.peakRss }).trim();
  if (machine) rows.push(['Machine', machine]);
  for (const skip of result.skipped) {
    rows.push(['Skipped', `${skip.store}: ${skip.status}${skip.reason ? ` (${skip.reason})` : ''}`]);
  }
  const terms = rows.map(([label, text]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(text)}</dd>`);
  const meta = `<dl class="meta">${terms.join('')}</dl>`;
  const stopped = result.appExit ? `app.js exited (${result.appExit}) during the sweep` : 'Interrupted';
  const ended = result.interrupted
    ? `<div class="notice"><b>${escapeHtml(stopped)}</b>: ${result.steps.length} step(s) finished; ` +
      'the step in progress was dropped.</div>'
    : '';
  return `<header><h1>storebench report</h1>${meta}${ended}${warningSummary(result)}</header>`;
}

function comparisonSection(groups, title = 'Comparison') {
  if (!groups.some((group) => group.rows.length > 1)) return '';
  const repeated = groups.some((group) => group.rows.some((row) => row.repeats > 1));
  const headers = [groups[0].model === 'open' ? 'targetRps' : 'concurrency', 'rank', 'store', 'rps'];
  if (repeated) headers.push('rps min-max');
  headers.push('meanLatencyMs', 'p99', 'rps/fastest', 'errors', 'warnings');
  const limited = groups.some((group) => group.rows.some((row) => row.bottleneck));
  const storeRanked = groups.some(showsStoreRank);
  if (limited) headers.push('bottleneck');
  if (storeRanked) headers.push('storeP50', 'storeRank');
  const rows = [];
  const classes = [];
  const notes = [];
  for (const group of groups) {
    const baseline = group.rows.find((row) => row.store === BASELINE_STORE);
    group.rows.forEach((row, index) => {
      const store = row.warnings.length ? `${row.store} !` : row.store;
      const cells = [
        index === 0 ? String(group.load) : '',
        rankText(group, row),
        store,
        row.failed ? 'failed' : formatRps(row.rps),
      ];
      if (repeated) cells.push(row.failed ? '-' : formatRange(row.spread.rps.min, row.spread.rps.max, formatRps));
      const latency = row.failed ? ['-', '-'] : [formatMs(row.latency.meanMs), formatMs(row.latency.p99Ms)];
      const ratio = row.ratio === null ? '-' : row.ratio.toFixed(2);
      cells.push(...latency, ratio, String(row.errors.total), row.warnings.join(', '));
      if (limited) cells.push(bottleneckText(row.bottleneck));
      if (storeRanked) {
        cells.push(storeP50Text(row), showsStoreRank(group) ? storeRankText(group, row) : '-');
      }
      if (row.failed) {
        notes.push(`${row.store} at ${loadName(group)}: failed, not ranked: ` +
          `no request succeeded (${errorsText(row.errors)})`);
      }
      rows.push(cells);
      classes.push(row.warnings.length ? 'warned' : '');
      if (baseline && row.warnings.includes('FASTER_THAN_BASELINE')) {
        const faster = Math.round((row.rps / baseline.rps - 1) * 100);
        notes.push(`${row.store} at ${loadName(group)}: ${faster}% faster than ${BASELINE_STORE}, ` +
          'the in-process map, beyond the noise: nothing behind the app can be');
      }
    });
    for (const [rank, stores] of tiedRanks(group)) {
      notes.push(`${loadName(group)}: ${stores.join(', ')} share rank ${rank}: not told apart here`);
    }
    const shared = sharedBottleneckLine(group, loadName(group));
    if (shared) notes.push(shared);
  }
  const medians = repeated ? '<p class="note">Figures are the medians of each store\'s repeats.</p>' : '';
  const legend = medians + (storeRanked ? `<p class="note">${escapeHtml(storeTimeLegend())}</p>` : '');
  const noted = notes.length ? list(notes.map(escapeHtml), 'warnings') : '';
  return `<h3>${escapeHtml(title)}</h3>${htmlTable(headers, rows, { classes })}${legend}${noted}`;
}

function figure(chart) {
  return `<figure class="chart" data-kind="${chart.kind}">` +
    `<div id="${chart.id}" role="img" aria-label="${escapeHtml(chart.title)}"></div></figure>`;
}

/** Leaf values of a record, by dotted path, for records whose shape this page does not know. */
function leaves(record, prefix = '', out = []) {
  for (const [name, value] of Object.entries(record ?? {})) {
    if (name === 'histogram' || name === 'histograms') continue;
    const path = prefix ? `${prefix}.${name}` : name;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) leaves(value, path, out);
    else out.push([path, Array.isArray(value) ? value.join(', ') : value]);
  }
  return out;
}
const shownValue = (value) => {
  if (typeof value === 'number') return String(Number(value.toPrecision(6)));
  return value === null || value === undefined ? '-' : String(value);
};

/**
 * A step's per-operation breakdown (mixed workloads) and its probe's figures, when the Result
 * has them: rendered field by field, since their shape is the workloads' and the probe's to
 * define.
 */
function extrasOf(steps) {
  const parts = [];
  // A step of one operation (the seeded reads) has nothing to break down.
  const withOperations = steps.filter((step) =>
    (Array.isArray(step.operations) ? step.operations.length > 1 : Boolean(step.operations)));
  if (withOperations.length) {
    const rows = [];
    const nameOf = (operation, index) => operation.operation ?? operation.name ?? operation.kind ?? String(index + 1);
    for (const step of withOperations) {
      const entries = Array.isArray(step.operations)
        ? step.operations.map((operation, index) => [nameOf(operation, index), operation])
        : Object.entries(step.operations);
      for (const [name, operation] of entries) {
        const values = new Map(leaves(operation).filter(([path]) => !['operation', 'name', 'kind'].includes(path)));
        rows.push({ step, name, values });
      }
    }
    const columns = [...new Set(rows.flatMap((row) => [...row.values.keys()]))];
    const cells = rows.map((row) => [
      loadText(row.step),
      String(row.step.repeat ?? 1),
      row.name,
      ...columns.map((column) => shownValue(row.values.get(column))),
    ]);
    parts.push(`<h4>Per operation</h4>${htmlTable(['load', 'repeat', 'operation', ...columns], cells)}`);
  }
  const withProbe = steps.filter((step) => step.probe);
  if (withProbe.length) {
    const values = withProbe.map((step) => new Map(leaves(step.probe)));
    const columns = [...new Set(values.flatMap((map) => [...map.keys()]))];
    const cells = withProbe.map((step, index) => [
      loadText(step),
      String(step.repeat ?? 1),
      ...columns.map((column) => shownValue(values[index].get(column))),
    ]);
    parts.push(`<h4>Probe</h4>${htmlTable(['load', 'repeat', ...columns], cells)}`);
  }
  return parts.join('');
}

// A step's figures in the "Each step" table; a step with no success shows `failed`, as the
// text table does (its figures are the failures', not the store's; its warning says why).
const figureCells = (step) => (failedStep(step)
  ? ['failed', '-', '-', '-', '-', '-', '-', '-']
  : [
      formatRps(step.rps), formatMs(step.latency.meanMs), formatMs(step.latency.minMs), formatMs(step.latency.p50Ms),
      formatMs(step.latency.p90Ms), formatMs(step.latency.p99Ms), formatMs(step.latency.p999Ms),
      formatMs(step.latency.maxMs),
    ]);

// Where each step's time went: its bottleneck and evidence, each tier's CPU (result/bottleneck.js).
function tiersTable(steps) {
  const withTiers = steps.filter((step) => step.tiers);
  if (!withTiers.length) return '';
  const names = [...new Set(withTiers.flatMap((step) => step.tiers.servers.map((server) => server.name)))];
  const hasApp = withTiers.some((step) => step.tiers.app);
  const cpu = (tier) => {
    if (!tier || tier.cpuPercent === null) return '-';
    const of = tier.cores ? ` of ${tier.cores}` : '';
    const micros = tier.microsPerResponse === null ? '-' : Math.round(tier.microsPerResponse);
    return `${Math.round(tier.cpuPercent)}%${of} · ${micros} µs`;
  };
  const headers = ['load', 'repeat', 'bottleneck', 'driver', ...(hasApp ? ['app'] : []), ...names, 'evidence'];
  const rows = withTiers.map((step) => [
    loadText(step), String(step.repeat ?? 1), bottleneckText(step.bottleneck), cpu(step.tiers.driver),
    ...(hasApp ? [cpu(step.tiers.app)] : []),
    ...names.map((name) => cpu(step.tiers.servers.find((server) => server.name === name))),
    step.bottleneck?.evidence ?? '-',
  ]);
  return '<h4>Where the time went</h4>' + htmlTable(headers, rows) +
    '<p class="note">Each tier\'s CPU during the step in % of one core (of the cores it can use) · its CPU µs per ' +
    'response; the bottleneck by the rule of docs/measurement.md ("Where the time goes").</p>';
}

function stepsSection(result) {
  const parts = [];
  for (const target of result.targets) {
    const steps = result.steps.filter((step) => step.url === target.url);
    if (!steps.length) continue;
    // The store's own time beside the latency, where the target said it (Server-Timing).
    const stored = hasServerStoreTime(steps);
    const headers = [
      'load', 'repeat', 'requests', 'rps', 'meanLatencyMs', 'minLatencyMs', 'p50', 'p90', 'p99', 'p999',
      'maxLatencyMs', ...(stored ? STORE_TIME_HEADERS : []), 'errors', 'driver CPU', 'steal', 'others CPU', 'warnings',
    ];
    const percent = (value) => (value === null ? '-' : `${Math.round(value)}%`);
    const rows = steps.map((step) => [
      loadText(step), String(step.repeat), String(step.requests), ...figureCells(step),
      ...(stored ? storeTimeCells(step) : []), formatErrors(step.errors),
      percent(step.cpuPercent), percent(step.machine.stealPercent), percent(step.machine.othersCpuPercent),
      step.warnings.length ? `! ${step.warnings.map((warning) => warning.code).join(', ')}` : '',
    ]);
    const classes = steps.map((step) => (step.warnings.length ? 'warned' : ''));
    const titles = steps.map((step) => step.warnings.map((warning) => warning.message).join('\n'));
    const repeatText = (step) => (result.settings.repeat > 1 ? `, repeat ${step.repeat}` : '');
    const messages = steps.flatMap((step) => step.warnings.map((warning) =>
      `${escapeHtml(loadText(step))}${repeatText(step)}: ${escapeHtml(warning.message)}`));
    const answers = firstAnswersLine(steps.map((step) => step.errors),
      steps.flatMap((step) => step.warnings.map((warning) => warning.message)));
    if (answers) messages.push(escapeHtml(answers));
    let summary = '';
    if (steps.some((step) => step.repeat > 1)) {
      const cells = groupRepeats(steps).map((cell) => [cell, summarizeCell(cell)]);
      const interval = cells.some(([, s]) => s.rps.ciLow !== null);
      const figureCells = (spread, format) => [
        spread.median === null ? '-' : format(spread.median),
        formatRange(spread.min, spread.max, format),
        ...(interval ? [formatRange(spread.ciLow, spread.ciHigh, format)] : []),
      ];
      const heads = (name) => [name, `${name} min-max`, ...(interval ? [`${name} 95% CI`] : [])];
      const summaryHeaders = ['load', 'repeats', ...heads('rps'), ...heads('mean'), ...heads('p99'), 'errors'];
      const summaryRows = cells.map(([cell, s]) => [
        loadText(cell.steps[0]),
        String(s.repeats),
        ...figureCells(s.rps, formatRps),
        ...figureCells(s.latency.meanMs, formatMs),
        ...figureCells(s.latency.p99Ms, formatMs),
        String(s.errors.total),
      ]);
      const ci = interval ? '; 95% CI: of the mean of the repeats (Student\'s t)' : '';
      summary = `<h4>Repeats together</h4>${htmlTable(summaryHeaders, summaryRows)}` +
        `<p class="note">Median of the repeats; min-max: the range they spanned${ci}.</p>`;
    }
    const warned = messages.length ? list(messages, 'warnings') : '';
    const storeLine = storeTimeNote(steps);
    const storeNote = storeLine ? `<p class="note">${escapeHtml(storeLine)}</p>` : '';
    parts.push(`<details open><summary>${escapeHtml(displayUrl(target.url))}</summary>${summary}` +
      `<h4>Each step</h4>${htmlTable(headers, rows, { classes, titles })}${storeNote}${warned}${tiersTable(steps)}` +
      `${extrasOf(steps)}</details>`);
  }
  return parts.length ? `<section id="steps"><h2>Every step</h2>${parts.join('')}</section>` : '';
}

function thresholdsSection(result, thresholds) {
  const checks = checkThresholds(result, thresholds);
  if (!checks.length) return '';
  const worstText = ({ value, key, model, load }) => {
    const shown = value === null ? 'no response' : Number(value.toPrecision(4));
    return `${shown} at ${key} ${model === 'open' ? `${load} rps` : `c${load}`}`;
  };
  const rows = checks.map((row) => [
    row.threshold.text, row.store, String(row.checked), String(row.failed),
    row.worst ? worstText(row.worst) : 'not measured',
    row.pass ? 'pass' : 'FAIL',
  ]);
  const classes = checks.map((row) => (row.pass ? '' : 'warned'));
  const table = htmlTable(['threshold', 'store', 'steps', 'failed', 'worst', 'result'], rows, { classes })
    .replace(/<td class="text">pass<\/td>/g, '<td class="text pass">pass</td>')
    .replace(/<td class="text">FAIL<\/td>/g, '<td class="text fail">FAIL</td>');
  return `<section id="thresholds"><h2>Thresholds</h2>${table}` +
    '<p class="note">Each threshold per store, against every step of that store (with repeats, the medians).</p>' +
    '</section>';
}

// What a reader without JavaScript sees instead of each key's charts (uPlot draws them in the
// browser).
const NO_SCRIPT_CHARTS = '<noscript><p class="notice no-script">The charts (rps, mean and p99 against load; ' +
  'latency by percentile) need JavaScript, which is off here. The tables hold their figures: the comparison below, ' +
  'and every step with p50 to p999 under <a href="#steps">Every step</a>.</p></noscript>';

/**
 * The page for a Result (as given: htmlReport is the caller that reads it back from JSON
 * first).
 */
export function renderHtml(result, { thresholds } = {}) {
  const assets = htmlAssets();
  const charts = [...buildCharts(result), ...buildTimelineCharts(result)];
  const keys = [...new Set(charts.map((chart) => chart.key))];
  const checks = thresholds ?? parseThresholds(result.settings.assert).thresholds;
  const sections = keys.map((key) => {
    const mine = charts.filter((chart) => chart.key === key);
    const loadCharts = mine.filter((chart) => chart.kind === 'load').map(figure).join('');
    const percentileCharts = mine.filter((chart) => chart.kind === 'percentiles').map(figure).join('');
    const groups = result.comparison.filter((group) => group.key === key);
    // The totals, then (for a workload of several operations) each operation compared alone.
    const operations = [...new Set(groups.map((group) => group.operation ?? null))];
    const compared = operations.map((operation) => comparisonSection(
      groups.filter((group) => (group.operation ?? null) === operation),
      operation ? `Comparison: ${operation}` : 'Comparison',
    )).join('');
    // Without JavaScript the charts would be empty frames: they are hidden (the <style> in
    // <noscript>) and a note says where their figures are.
    const percentileNote = '<p class="note">From each step\'s HDR histogram (with repeats, their histograms added), ' +
      '50% to 99.999% on a log scale; a line ends where its sample says no more (past 1 in N requests it is the ' +
      'maximum).</p>';
    const percentiles = `<h3>Latency by percentile</h3>${percentileNote}<div class="charts">${percentileCharts}</div>`;
    const timelineCharts = mine.filter((chart) => chart.kind === 'timeline').map(figure).join('');
    const timelineNote = '<p class="note">Each target across the whole run: rps (left axis) and p99 (right axis) of ' +
      'each second, from that second\'s own histogram, and, where the app said it (Server-Timing), the store\'s own ' +
      'p99 (right axis); a line marks where each step began, gaps are the warm-ups and the other targets\' steps.</p>';
    const timelines = timelineCharts
      ? '<div class="needs-js"><h3>Second by second</h3>' +
        `${timelineNote}<div class="charts">${timelineCharts}</div></div>`
      : '';
    return `<section id="key-${slug(key)}"><h2>${escapeHtml(key)}</h2>${NO_SCRIPT_CHARTS}` +
      `<div class="charts needs-js">${loadCharts}</div>${compared}` +
      `<div class="needs-js">${percentiles}</div>${timelines}</section>`;
  });
  const profile = profileSection(result, escapeHtml);
  const keyLinks = keys.map((key) => `<li><a href="#key-${slug(key)}">${escapeHtml(key)}</a></li>`).join('');
  const thresholdsLink = checks.length ? '<li><a href="#thresholds">thresholds</a></li>' : '';
  const profileLink = profile ? '<li><a href="#profile">where the app\'s CPU went</a></li>' : '';
  const nav = `<nav><ul>${keyLinks}${thresholdsLink}${profileLink}<li><a href="#steps">every step</a></li></ul></nav>`;
  const csp = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";
  const footerText = `Made by storebench from a ${escapeHtml(result.format)} results file. ` +
    `Charts by uPlot ${escapeHtml(assets.uplotVersion)}, inlined under its MIT licence:`;
  const licence = '<details class="licence"><summary>uPlot\'s licence</summary>' +
    `<pre>${escapeHtml(assets.uplotLicense)}</pre></details>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<link rel="icon" href="data:,">
<title>storebench: ${escapeHtml(result.system.target)} · ${escapeHtml(result.system.date)}</title>
<style>${assets.uplotCss}</style>
<style>${assets.pageCss}</style>
${profile ? `<style>${profile.css}</style>` : ''}
<noscript><style>.needs-js { display: none; }</style></noscript>
</head>
<body>
${header(result)}
${nav}
<main>
${result.scenario ? scenarioHtml(result.scenario, escapeHtml, result.steps) : ''}
${sections.join('\n')}
${thresholdsSection(result, checks)}
${profile?.html ?? ''}
${stepsSection(result)}
</main>
<footer>${footerText}${profile ? ` ${escapeHtml(profile.credit)}` : ''}
${licence}</footer>
<script type="application/json" id="storebench-charts">${scriptJson({ charts })}</script>
<script type="application/json" id="storebench-result">${scriptJson(result)}</script>
<script>${assets.uplotJs.replace(/<\/script/gi, '<\\/script')}</script>
<script>${assets.clientJs.replace(/<\/script/gi, '<\\/script')}</script>
${profile ? profileScripts(profile, assets) : ''}
</body>
</html>
`;
}

// The flame graphs' trees, then d3 and d3-flame-graph, then the page's script that draws them.
const profileScripts = (profile, assets) =>
  '<script type="application/json" id="storebench-flames" ' +
  `data-colours="${escapeHtml(JSON.stringify(profile.colours))}">` +
  `${scriptJson(profile.flames)}</script>\n` +
  `<script>${profile.js.replace(/<\/script/gi, '<\\/script')}</script>\n` +
  `<script>${assets.flameClientJs.replace(/<\/script/gi, '<\\/script')}</script>`;

/** The page for a Result as its results file holds it: rendered from fromJson(toJson(result)). */
export function htmlReport(result, options) {
  return renderHtml(fromJson(toJson(result)), options);
}
