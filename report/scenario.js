// A scenario's text: the study, our System line, each table with the published figure beside
// every cell (`ours | published`), the warnings behind them, notes, and a verdict per conclusion.
import { renderTable } from './table.js';
import { renderSystemLine } from './system.js';
import { FAILS, HOLDS, formatFigure } from '../result/scenarios/verdicts.js';
import { verdictDoubts } from '../result/scenarios/doubts.js';

const LABEL = 12;
const labelled = (label, text) => `${`${label}:`.padEnd(LABEL)} ${text}`;

// One formatter for the tables' figures and the verdicts' (driver/ may not import report/).
export { formatFigure, verdictDoubts };

const unitText = (column) => (column.unit ? `${column.label} (${column.unit})` : column.label);

/**
 * [headers, rows] of a measured table with the published one beside it. pad: so that,
 * right-aligned, every `|` of a column is in one place.
 */
export function tableCells(measured, published, { pad = false } = {}) {
  // Our rows only: a smaller scale runs fewer of the study's rows (the caller says how many not).
  const rows = measured.rows;
  const headers = [measured.rowHeader, ...measured.columns.map(unitText)];
  const pairs = rows.map((row) => measured.columns.map((column) => [
    formatFigure(measured.cells[row]?.[column.id]),
    published ? formatFigure(published.cells[row]?.[column.id]) : null,
  ]));
  const widest = (column, side) => Math.max(...pairs.map((cells) => cells[column][side].length));
  const body = rows.map((row, r) => [row, ...pairs[r].map(([ours, theirs], c) => {
    if (theirs === null) return ours;
    if (!pad) return `${ours} | ${theirs}`;
    return `${ours.padStart(widest(c, 0))} | ${theirs.padStart(widest(c, 1))}`;
  })]);
  return { headers, body };
}

const verdictWord = (verdict) => verdict.split(':')[0];

const SHOWN_ROWS = 4;

const stepLabel = (step) => `${step.store}${step.key ? ` ${step.key}` : ''} c=${step.concurrency}`;

// The row that names each step: of the rows its figures went into, the one fed by the fewest
// steps (its own row before a summary row), the first table's on a tie.
function rowByStep(record) {
  const named = new Map();
  for (const table of record.measured) {
    for (const [row, indexes] of Object.entries(table.sources ?? {})) {
      for (const index of indexes) {
        const held = named.get(index);
        if (!held || indexes.length < held.feeders) named.set(index, { row, feeders: indexes.length });
      }
    }
  }
  return named;
}

/** The steps' warnings by code, first seen first, each step named once by its row. */
export function warningGroups(record, steps = []) {
  const byRow = rowByStep(record);
  const groups = new Map();
  steps.forEach((step, index) => {
    for (const code of new Set((step.warnings ?? []).map((warning) => warning.code))) {
      const group = groups.get(code) ?? {
        code,
        steps: 0,
        total: steps.length,
        rows: [],
        message: step.warnings.find((warning) => warning.code === code).message,
      };
      group.steps += 1;
      const row = byRow.get(index)?.row ?? stepLabel(step);
      if (!group.rows.includes(row)) group.rows.push(row);
      groups.set(code, group);
    }
  });
  return [...groups.values()];
}

const rowsText = (rows) =>
  `${rows.slice(0, SHOWN_ROWS).join(', ')}${rows.length > SHOWN_ROWS ? `, and ${rows.length - SHOWN_ROWS} more` : ''}`;
const groupText = (group) => {
  const rows = `${group.rows.length} row${group.rows.length === 1 ? '' : 's'}`;
  return `${group.steps} of ${group.total} steps, in ${rows}: ${rowsText(group.rows)}; first: ${group.message}`;
};
const doubtText = (doubts) => 'distrust this verdict: its figures come from steps with ' +
  doubts.map(({ code, steps, of }) => `${code} (${steps} of ${of})`).join(', ');

function reasonOf({ verdict, explanation }) {
  const word = verdictWord(verdict);
  if (!verdict.includes(':')) return explanation;
  const reason = verdict.slice(word.length + 2);
  return explanation?.startsWith(reason) ? explanation : reason;
}

// A study of other clients than ours (client-libraries) shares no columns: shown `apart`, whole.
function publishedFor(record, table) {
  const published = record.published.find((candidate) => candidate.id === table.id);
  if (!published) return {};
  const shared = published.columns.some((column) => table.columns.some((ours) => ours.id === column.id));
  return shared ? { published } : { apart: published };
}

/** The whole text of a scenario record (studies/index.js). */
export function renderScenario(record, { system, engine, choice, steps = [] } = {}) {
  const { study } = record;
  const by = study.author ? ` by ${study.author}` : '';
  const source = study.source ? ` · ${study.source}` : '';
  const lines = [
    `# Scenario ${record.name}: ${record.title}`,
    labelled('Scale', `${record.scale}${record.scaleNote ? ` (${record.scaleNote})` : ''}`),
    labelled('Study', `${study.file}${by}${source}`),
    labelled('Published', `on their hardware, not ours: ${study.hardware} · date: ${study.date}`),
  ];
  if (record.cloudantPlan) {
    const plan = record.cloudantPlan === 'lite'
      ? 'Lite plan emulated: 20 lookups/s, 10 writes/s, 5 queries/s; a 429 is retried after 0.5 s'
      : 'no plan limits emulated';
    lines.push(labelled('Cloudant', plan));
  }
  if (system) lines.push(renderSystemLine(system, { labelWidth: LABEL, engine, choice }));
  const align = (headers) => headers.map((_, i) => (i === 0 ? 'left' : 'right'));
  for (const table of record.measured) {
    const { published, apart } = publishedFor(record, table);
    const { headers, body } = tableCells(table, published, { pad: true });
    lines.push(
      '',
      `## ${table.title}${published ? ': ours | published' : ''}`,
      renderTable(headers, body, { align: align(headers) }),
    );
    const notRun = (published?.rows ?? []).filter((row) => !table.rows.includes(row)).length;
    if (published?.title) lines.push(`(${published.title})`);
    if (notRun) {
      lines.push(`(${notRun} of the study's ${published.rows.length} rows have no figure of ours: ` +
        `scale ${record.scale} does not run them, or a store was down)`);
    }
    if (apart) {
      const own = tableCells(apart);
      lines.push('', `## ${apart.title}`, renderTable(own.headers, own.body, { align: align(own.headers) }));
    }
  }
  const groups = warningGroups(record, steps);
  if (groups.length) {
    const codeWidth = Math.max(...groups.map(({ code }) => code.length));
    lines.push(
      '',
      'Warnings of the steps behind these tables (docs/errors.md):',
      ...groups.map((group) => `  ${group.code.padEnd(codeWidth)}  ${groupText(group)}`),
    );
  }
  if (record.notes.length) lines.push('', 'Notes:', ...record.notes.map((note) => `  - ${note}`));
  lines.push(...verdictLines(record, steps));
  if (record.counterRuns?.length) lines.push(...counterRunLines(record));
  return `${lines.join('\n')}\n`;
}

// With counter-runs, each verdict's two outcomes side by side, then what each counter-run changed.
function verdictLines(record, steps) {
  const doubted = record.verdicts.map((entry) => verdictDoubts(record, steps, entry));
  const countered = Boolean(record.counterRuns);
  const marked = doubted.some((doubts) => doubts.length) ||
    record.verdicts.some((entry) => entry.counter?.doubts?.length);
  const distrust = marked ? '; ! marks one to distrust' : '';
  const lines = ['', `Verdicts (orderings and ratios only: absolute times differ between machines${distrust}):`];
  const width = Math.max(...record.verdicts.map(({ verdict }) => verdictWord(verdict).length));
  if (countered) {
    const counterWidth = Math.max('counter-run'.length, ...record.verdicts.map((entry) => counterWord(entry).length));
    lines.push(`  ${'this run'.padEnd(width)} | ${'counter-run'.padEnd(counterWidth)}`);
    for (const [i, entry] of record.verdicts.entries()) {
      const doubts = [...doubted[i], ...(entry.counter?.doubts ?? [])];
      const mark = doubts.length ? '!' : ' ';
      lines.push(`${mark} ${verdictWord(entry.verdict).padEnd(width)} | ${counterWord(entry).padEnd(counterWidth)}  ` +
        `${entry.id}: ${entry.claim} -- ${reasonOf(entry)}`);
      if (doubted[i].length) lines.push(`    ${doubtText(doubted[i])}`);
      if (entry.counter) {
        lines.push(`    counter-run, ${changeText(entry.counter)}: ${entry.counter.explanation}`);
        if (entry.counter.doubts.length) lines.push(`    in the counter-run: ${doubtText(entry.counter.doubts)}`);
        if (notFlipped(entry)) lines.push(`    ${NOT_FLIPPED}`);
      }
      if (entry.noCounter && !entry.outcome) lines.push(`    no counter-run: ${entry.noCounter}`);
    }
    return lines;
  }
  for (const [i, entry] of record.verdicts.entries()) {
    const doubts = doubted[i];
    const mark = doubts.length ? '!' : ' ';
    const word = verdictWord(entry.verdict).padEnd(width);
    lines.push(`${mark} ${word}  ${entry.id}: ${entry.claim} -- ${reasonOf(entry)}`);
    if (doubts.length) lines.push(`    ${doubtText(doubts)}`);
  }
  return lines;
}

// A counter-run whose verdict is the run's own has not shown the claim coming out the other way:
// the verdict is then what this machine gives both ways, not one seen to flip.
const JUDGED = new Set([HOLDS, FAILS]);
const NOT_FLIPPED = 'not flipped: the counter-run came out as this run did, so this verdict has not been seen ' +
  'to come out the other way here';
const notFlipped = (entry) => Boolean(entry.counter) && JUDGED.has(verdictWord(entry.verdict)) &&
  verdictWord(entry.counter.verdict) === verdictWord(entry.verdict);

function counterWord(entry) {
  if (entry.counter) return verdictWord(entry.counter.verdict);
  return '-';
}

const changeText = (counter) => (counter.how ? `${counter.change} (${counter.how})` : counter.change);

function counterRunLines(record) {
  const lines = ['', 'Counter-runs (each the same scenario with the system changed so that its verdicts\' claims ' +
    'come out the other way in fact; their tables are in the results file):'];
  for (const run of record.counterRuns) {
    const stopped = run.interrupted ? ' (interrupted)' : '';
    lines.push(`  - ${changeText(run)}${stopped}: ${run.verdicts.join(', ')}`);
  }
  return lines;
}

/** The scenario as an HTML section. */
export function scenarioHtml(record, escape, steps = []) {
  const htmlTable = (title, { headers, body }) => {
    const head = `<tr>${headers.map((header) => `<th>${escape(header)}</th>`).join('')}</tr>`;
    const td = (cell, i) => (i === 0 ? `<td class="text">${escape(cell)}</td>` : `<td>${escape(cell)}</td>`);
    const rows = body.map((row) => `<tr>${row.map(td).join('')}</tr>`).join('');
    return `<h3>${escape(title)}</h3>` +
      `<div class="scroll"><table><thead>${head}</thead><tbody>${rows}</tbody></table></div>`;
  };
  const tables = record.measured.map((table) => {
    const { published, apart } = publishedFor(record, table);
    const ours = htmlTable(`${table.title}${published ? ': ours | published' : ''}`, tableCells(table, published));
    return apart ? ours + htmlTable(apart.title, tableCells(apart)) : ours;
  }).join('');
  const verdicts = record.verdicts.map((entry) => {
    const doubts = verdictDoubts(record, steps, entry);
    const doubt = doubts.length ? `<br><strong>! ${escape(doubtText(doubts))}</strong>` : '';
    const reason = `<span class="note">${escape(reasonOf(entry))}</span>`;
    const counter = entry.counter
      ? `<br>counter-run, ${escape(changeText(entry.counter))}: <strong>${escape(verdictWord(entry.counter.verdict))}` +
        `</strong> <span class="note">${escape(entry.counter.explanation)}</span>` +
        (entry.counter.doubts.length ? `<br><strong>! ${escape(doubtText(entry.counter.doubts))}</strong>` : '') +
        (notFlipped(entry) ? `<br><strong>${escape(NOT_FLIPPED)}</strong>` : '')
      : '';
    const none = entry.noCounter && !entry.outcome && record.counterRuns
      ? `<br><span class="note">no counter-run: ${escape(entry.noCounter)}</span>`
      : '';
    return `<li${doubts.length ? ' class="doubt"' : ''}><strong>${escape(verdictWord(entry.verdict))}</strong> ` +
      `${escape(entry.id)}: ${escape(entry.claim)}<br>${reason}${doubt}${counter}${none}</li>`;
  }).join('');
  const groups = warningGroups(record, steps);
  const groupItems = groups.map((group) =>
    `<li><strong>${escape(group.code)}</strong> ${escape(groupText(group))}</li>`);
  const warnings = groups.length
    ? `<h3>Warnings of the steps behind these tables</h3><ul class="warnings">${groupItems.join('')}</ul>`
    : '';
  const noteItems = record.notes.map((note) => `<li>${escape(note)}</li>`);
  const notes = record.notes.length ? `<ul>${noteItems.join('')}</ul>` : '';
  const scaleNote = record.scaleNote ? `: ${escape(record.scaleNote)}` : '';
  return `<section id="scenario"><h2>Scenario ${escape(record.name)} (${escape(record.scale)})</h2>` +
    `<p>${escape(record.title)}</p><p class="note">Study ${escape(record.study.file)}; ` +
    `published figures were measured on their hardware, not ours: ${escape(record.study.hardware)} · ` +
    `date: ${escape(record.study.date)}. Scale ${escape(record.scale)}${scaleNote}.</p>` +
    `${tables}${warnings}${notes}<h3>Verdicts</h3><ul>${verdicts}</ul></section>`;
}
