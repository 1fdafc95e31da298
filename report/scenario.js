// A scenario's text: the study it re-runs (their hardware and date, labelled as published), our
// System line, each measured table with the published figure beside every cell (`ours | published`),
// the notes, and one verdict line per conclusion. Returns a string; the caller prints it.
// scenarioHtml is the same as an HTML section for the report page.
import { renderTable } from './table.js';
import { renderSystemLine } from './system.js';

const LABEL = 12;
const labelled = (label, text) => `${`${label}:`.padEnd(LABEL)} ${text}`;

/** A figure as the tables show it: whole numbers as they are, others to one decimal (under 1: two significant digits, so 0.017 ms is not 0.0); '-' for none. */
export function formatFigure(value) {
  if (value === null || value === undefined) return '-';
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  if (Math.abs(value) < 1) return value.toLocaleString('en-US', { maximumSignificantDigits: 2 });
  return value.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

const unitText = (column) => (column.unit ? `${column.label} (${column.unit})` : column.label);

/** [headers, rows] of a measured table with the published one beside it (cells "ours | published"). */
export function tableCells(measured, published) {
  // Our rows only: a smaller scale runs fewer of the study's rows (the caller says how many not).
  const rows = measured.rows;
  const headers = [measured.rowHeader, ...measured.columns.map(unitText)];
  const body = rows.map((row) => [row, ...measured.columns.map((column) => {
    const ours = formatFigure(measured.cells[row]?.[column.id]);
    return published ? `${ours} | ${formatFigure(published.cells[row]?.[column.id])}` : ours;
  })]);
  return { headers, body };
}

const verdictWord = (verdict) => verdict.split(':')[0];

// The published table of a measured one: beside its cells when they share columns, else (a
// study of other clients than ours, as in client-libraries) `apart`, shown after it whole.
function publishedFor(record, table) {
  const published = record.published.find((candidate) => candidate.id === table.id);
  if (!published) return {};
  const shared = published.columns.some((column) => table.columns.some((ours) => ours.id === column.id));
  return shared ? { published } : { apart: published };
}

/** The whole text of a scenario record (driver/scenarios/index.js), with our System line from `system`. */
export function renderScenario(record, { system } = {}) {
  const { study } = record;
  const lines = [
    `# Scenario ${record.name}: ${record.title}`,
    labelled('Scale', `${record.scale}${record.scaleNote ? ` (${record.scaleNote})` : ''}`),
    labelled('Study', `${study.file}${study.author ? ` by ${study.author}` : ''}${study.source ? ` · ${study.source}` : ''}`),
    labelled('Published', `on their hardware, not ours: ${study.hardware} · date: ${study.date}`),
  ];
  if (record.cloudantPlan) lines.push(labelled('Cloudant', record.cloudantPlan === 'lite' ? 'Lite plan emulated: 20 lookups/s, 10 writes/s, 5 queries/s; a 429 is retried after 0.5 s' : 'no plan limits emulated'));
  if (system) lines.push(renderSystemLine(system, { labelWidth: LABEL }));
  const align = (headers) => headers.map((_, i) => (i === 0 ? 'left' : 'right'));
  for (const table of record.measured) {
    const { published, apart } = publishedFor(record, table);
    const { headers, body } = tableCells(table, published);
    lines.push('', `## ${table.title}${published ? ': ours | published' : ''}`, renderTable(headers, body, { align: align(headers) }));
    const notRun = (published?.rows ?? []).filter((row) => !table.rows.includes(row)).length;
    if (published?.title) lines.push(`(${published.title})`);
    if (notRun) lines.push(`(${notRun} of the study's ${published.rows.length} rows have no figure of ours: scale ${record.scale} does not run them, or a store was down)`);
    if (apart) {
      const own = tableCells(apart);
      lines.push('', `## ${apart.title}`, renderTable(own.headers, own.body, { align: align(own.headers) }));
    }
  }
  if (record.notes.length) lines.push('', 'Notes:', ...record.notes.map((note) => `  - ${note}`));
  lines.push('', 'Verdicts (orderings and ratios only: absolute times differ between machines):');
  const width = Math.max(...record.verdicts.map(({ verdict }) => verdictWord(verdict).length));
  for (const { id, claim, verdict, explanation } of record.verdicts) {
    const reason = verdict.includes(':') ? verdict : `${verdict}: ${explanation}`;
    lines.push(`  ${verdictWord(verdict).padEnd(width)}  ${id}: ${claim} -- ${reason.slice(verdictWord(verdict).length + 2)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The scenario as an HTML section (escape: the page's escapeHtml). */
export function scenarioHtml(record, escape) {
  const htmlTable = (title, { headers, body }) => {
    const head = `<tr>${headers.map((header) => `<th>${escape(header)}</th>`).join('')}</tr>`;
    const rows = body.map((row) => `<tr>${row.map((cell, i) => (i === 0 ? `<td class="text">${escape(cell)}</td>` : `<td>${escape(cell)}</td>`)).join('')}</tr>`).join('');
    return `<h3>${escape(title)}</h3><div class="scroll"><table><thead>${head}</thead><tbody>${rows}</tbody></table></div>`;
  };
  const tables = record.measured.map((table) => {
    const { published, apart } = publishedFor(record, table);
    const ours = htmlTable(`${table.title}${published ? ': ours | published' : ''}`, tableCells(table, published));
    return apart ? ours + htmlTable(apart.title, tableCells(apart)) : ours;
  }).join('');
  const verdicts = record.verdicts.map(({ id, claim, verdict, explanation }) => `<li><strong>${escape(verdictWord(verdict))}</strong> ${escape(id)}: ${escape(claim)}<br><span class="note">${escape(verdict.includes(':') ? verdict.slice(verdict.indexOf(':') + 2) : explanation)}</span></li>`).join('');
  const notes = record.notes.length ? `<ul>${record.notes.map((note) => `<li>${escape(note)}</li>`).join('')}</ul>` : '';
  return `<section id="scenario"><h2>Scenario ${escape(record.name)} (${escape(record.scale)})</h2>` +
    `<p>${escape(record.title)}</p><p class="note">Study ${escape(record.study.file)}; published figures were measured on their hardware, not ours: ${escape(record.study.hardware)} · date: ${escape(record.study.date)}. Scale ${escape(record.scale)}${record.scaleNote ? `: ${escape(record.scaleNote)}` : ''}.</p>` +
    `${tables}${notes}<h3>Verdicts</h3><ul>${verdicts}</ul></section>`;
}
