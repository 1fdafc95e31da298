// The field tables of docs/results-format.md, generated from fields.js and the warning codes
// in warnings.js; test/unit/results-format-doc.test.js fails when the document differs.
// `node result/fields-doc.js` rewrites the generated part of the document.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { WARNING_CODES } from './warnings.js';
import { isMain } from '../util/is-main.js';
import {
  COMPARISON_FIELDS, CSV_OPERATION_COLUMN, CSV_RESULT_COLUMNS, LOAD_FIELDS, RESULT_FIELDS, STEP_FIELDS,
  VERIFICATION_FIELDS, WARNING_DATA,
} from './fields.js';

export const DOC_PATH = fileURLToPath(new URL('../docs/results-format.md', import.meta.url));
const BEGIN = '<!-- generated from result/fields.js by `node result/fields-doc.js`: edit there -->';
const END = '<!-- end of generated part -->';

const cell = (text) => text.replaceAll('|', '\\|');

function table(fields, prefix, { csv = false } = {}) {
  const header = csv
    ? '| field | type | CSV column | meaning |\n| --- | --- | --- | --- |'
    : '| field | type | meaning |\n| --- | --- | --- |';
  const rows = fields.map((field) => {
    const name = `\`${prefix}${field.path}${field.type === 'list' ? '[]' : ''}\``;
    const type = cell(field.optional ? `${field.type}, optional` : field.type);
    const cells = csv
      ? [name, type, field.csv ? `\`${field.csv}\`` : '', cell(field.description)]
      : [name, type, cell(field.description)];
    return `| ${cells.join(' | ')} |`;
  });
  return [header, ...rows].join('\n');
}

// What the CSV file's rows and columns are, above the step fields' table; its last columns are the run's own.
const RUN_COLUMN_NAMES = CSV_RESULT_COLUMNS.map((column) => `\`${column.name}\``).join(', ');
const CSV_TEXT = 'The CSV file has one row per step and these columns, in this order, with ' +
  `\`${CSV_OPERATION_COLUMN.name}\` after \`${CSV_OPERATION_COLUMN.after}\`: \`all\` on a step's row; a step of ` +
  'several operations is followed by a row per operation, its own figures in the columns it has (requests, ' +
  'responses, rps, latency, store time, errors), the step\'s in the others. After the step\'s columns come the ' +
  `run's own, the same on every row: ${RUN_COLUMN_NAMES} (\`true\` when the run stopped early, as the JSON's ` +
  '`interrupted`).';

const listOf = (fields, path) => fields.find((field) => field.path === path).of;

// Every optional field's full path ("peakRss.app", "targets[].servers"), in the tables' order.
function optionalFields(roots) {
  const paths = [];
  const walk = (fields, prefix) => {
    for (const field of fields) {
      if (field.optional) paths.push(`${prefix}${field.path}`);
      if (field.of) walk(field.of, `${prefix}${field.path}${field.type.startsWith('list') ? '[]' : ''}.`);
    }
  };
  for (const [prefix, fields] of roots) walk(fields, prefix);
  return [...new Set(paths)];
}

/** The generated part of docs/results-format.md, between BEGIN and END. */
export function renderFieldTables() {
  const optional = optionalFields([['', RESULT_FIELDS], ['steps[].', STEP_FIELDS], ['loads[].', LOAD_FIELDS],
    ['verifications[].', VERIFICATION_FIELDS], ['comparison[].', COMPARISON_FIELDS]]);
  const dataOf = (code) => Object.entries(WARNING_DATA[code] ?? {})
    .map(([key, what]) => `\`${key}\`: ${what}`)
    .join('; ');
  const warningCodes = Object.entries(WARNING_CODES)
    .map(([code, { meaning }]) => `| \`${code}\` | ${cell(meaning)} | ${cell(dataOf(code))} |`);
  return [
    '### Fields that may be absent',
    'Every field below is present in every Result except these, marked `optional` in the tables (each one\'s ' +
    'meaning says when it is left out); `fromJson` and the JSON Schema accept a Result without them:',
    optional.map((path) => `- \`${path}\``).join('\n'),
    '### The Result',
    table(RESULT_FIELDS, ''),
    '### Each target and skipped store',
    table(listOf(RESULT_FIELDS, 'targets'), 'targets[].'),
    table(listOf(RESULT_FIELDS, 'skipped'), 'skipped[].'),
    '### Each step',
    CSV_TEXT,
    table(STEP_FIELDS, 'steps[].', { csv: true }),
    '### Each warning (of a step, a load or a verification)',
    table(listOf(STEP_FIELDS, 'warnings'), 'steps[].warnings[].'),
    `| warning code | meaning | data |\n| --- | --- | --- |\n${warningCodes.join('\n')}`,
    '### The store\'s own time (a step\'s, an operation\'s)',
    'A step\'s `storeTime`, and each operation\'s, when the target said how long its store took (`Server-Timing`), ' +
    'or in direct mode, where it is the latency. The CSV columns are the step\'s (an operation\'s on its rows):',
    table(listOf(STEP_FIELDS, 'storeTime'), 'steps[].storeTime.', { csv: true }),
    '### Each second of a step (its timeline)',
    'A step\'s `timeline`, and each operation\'s of a step with several, holds one entry per second of the step:',
    table(listOf(STEP_FIELDS, 'timeline'), 'steps[].timeline[].'),
    table(listOf(listOf(STEP_FIELDS, 'timeline'), 'storeTime'), 'steps[].timeline[].storeTime.'),
    '### Each operation of a step',
    table(listOf(STEP_FIELDS, 'operations'), 'steps[].operations[].'),
    '### Each load phase',
    table(LOAD_FIELDS, 'loads[].'),
    '### Each verification',
    table(VERIFICATION_FIELDS, 'verifications[].'),
    table(listOf(VERIFICATION_FIELDS, 'examples'), 'verifications[].examples[].'),
    '### The comparison',
    table(COMPARISON_FIELDS, 'comparison[].'),
    table(listOf(COMPARISON_FIELDS, 'rows'), 'comparison[].rows[].'),
    table(listOf(listOf(COMPARISON_FIELDS, 'rows'), 'storeTime'), 'comparison[].rows[].storeTime.'),
    // --workers and node test merge
    '### Each worker thread of a step (--workers)',
    table(listOf(STEP_FIELDS, 'workers'), 'steps[].workers[].'),
    '### Each machine of a merged step (node test merge)',
    table(listOf(STEP_FIELDS, 'machines'), 'steps[].machines[].'),
    '### Each file a merged Result adds up',
    table(listOf(RESULT_FIELDS, 'merged'), 'merged[].'),
  ].join('\n\n');
}

/** The document with its generated part replaced by the current tables. */
export function withFieldTables(document) {
  const start = document.indexOf(BEGIN);
  const end = document.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${DOC_PATH} has lost its markers ${BEGIN} ... ${END}`);
  return `${document.slice(0, start + BEGIN.length)}\n\n${renderFieldTables()}\n\n${document.slice(end)}`;
}

if (isMain(import.meta.url)) {
  await writeFile(DOC_PATH, withFieldTables(await readFile(DOC_PATH, 'utf8')));
}
