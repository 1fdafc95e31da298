// A study's conclusions judged against our measured tables. Each conclusion carries a
// declarative check; only orderings and ratios are compared, never absolute times, since the
// study ran on other hardware. A check whose cells are missing (a store was down, the run was
// interrupted) cannot be judged: it says so instead of guessing.

import { directChecks } from './checks-direct.js';
import { columnChecks } from './checks-columns.js';

export const HOLDS = 'holds here';
export const FAILS = 'does not hold here';
export const NOT_RUNNABLE = 'not runnable here';

// Latency columns are better low; everything else (rps) better high, unless the check says.
const lowerIsBetter = (column) => column.unit === 'ms';
const ratioText = (value) => `${value >= 10 ? value.toFixed(0) : value.toFixed(2)}x`;

class MissingCells extends Error {}

function tableOf(measured, id) {
  const table = id ? measured.find((candidate) => candidate.id === id) : measured[0];
  if (!table) throw new MissingCells(`no table "${id}" was measured`);
  return table;
}

function columnOf(table, id) {
  const column = table.columns.find((candidate) => candidate.id === id);
  if (!column) throw new MissingCells(`table "${table.id}" has no column "${id}"`);
  return column;
}

function cell(table, row, column) {
  const value = table.cells[row]?.[column];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new MissingCells(`no figure for ${row}, ${column}`);
  return value;
}

// A check's rows: a list of labels, or { prefix, from?, to? }: the table's rows starting with
// prefix whose number after it is within [from, to] (e.g. 'cloudant/key1 c=' from 15).
function rowsOf(table, rows) {
  if (Array.isArray(rows)) return rows;
  const matching = table.rows.filter((row) => {
    if (!row.startsWith(rows.prefix)) return false;
    const load = Number(row.slice(rows.prefix.length));
    return (rows.from === undefined || load >= rows.from) && (rows.to === undefined || load <= rows.to);
  });
  if (matching.length < 2) throw new MissingCells(`fewer than two rows ${rows.prefix}${rows.from ?? ''}..${rows.to ?? ''} were measured`);
  return matching;
}

// "a is better than b" in column's direction, as a ratio > 1 when it is.
function advantage(a, b, column, direction) {
  const lower = direction ? direction === 'lower' : lowerIsBetter(column);
  return lower ? b / a : a / b;
}

const checks = {
  // Rows starting with `faster` beat their counterparts starting with `slower` (the rest of the
  // label equal): in every pair (`in: 'all'`, the default) or in most of them (`in: 'most'`).
  faster(check, measured) {
    const table = tableOf(measured, check.table);
    const column = columnOf(table, check.column);
    const prefix = `${check.faster}`;
    const pairs = table.rows.filter((row) => row.startsWith(prefix)).map((row) => [row, `${check.slower}${row.slice(prefix.length)}`]).filter(([, other]) => table.rows.includes(other));
    if (!pairs.length) throw new MissingCells(`no rows of ${check.faster} with a ${check.slower} counterpart`);
    const ratios = pairs.map(([a, b]) => advantage(cell(table, a, check.column), cell(table, b, check.column), column, check.direction));
    const ahead = ratios.filter((ratio) => ratio > 1).length;
    const holds = check.in === 'most' ? ahead * 2 > pairs.length : ahead === pairs.length;
    const spread = `${ratioText(Math.min(...ratios))} to ${ratioText(Math.max(...ratios))}`;
    return { holds, explanation: `${check.faster.replace(/\W+$/, '')} ahead on ${column.label} in ${ahead} of ${pairs.length} pairs (its advantage ${spread})` };
  },

  // A flat stretch: every value in `rows` within `tolerance` (a fraction) of their median.
  plateau(check, measured) {
    const table = tableOf(measured, check.table);
    const column = columnOf(table, check.column);
    const rows = rowsOf(table, check.rows);
    const values = rows.map((row) => cell(table, row, check.column));
    const sorted = [...values].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    const worst = Math.max(...values.map((value) => Math.abs(value - median) / median));
    const holds = worst <= check.tolerance;
    return { holds, explanation: `${column.label} over ${rows[0]} .. ${rows.at(-1)}: ${sorted[0].toFixed(1)} to ${sorted.at(-1).toFixed(1)}, at most ${(worst * 100).toFixed(0)}% from its median (flat means within ${(check.tolerance * 100).toFixed(0)}%)` };
  },

  // A rise: over `rows` (in load order) the last value is at least `atLeast` times the first.
  rises(check, measured) {
    const table = tableOf(measured, check.table);
    const column = columnOf(table, check.column);
    const rows = rowsOf(table, check.rows);
    const [from, to] = [rows[0], rows.at(-1)];
    const ratio = cell(table, to, check.column) / cell(table, from, check.column);
    return { holds: ratio >= check.atLeast, explanation: `${column.label} at ${to} is ${ratioText(ratio)} that at ${from} (rising means at least ${ratioText(check.atLeast)})` };
  },

  // row / over in column (over's cell from overColumn when given: a store's reads over its
  // writes), within [atLeast, atMost] (either may be left out).
  ratio(check, measured) {
    const table = tableOf(measured, check.table);
    const column = columnOf(table, check.column);
    const overColumn = check.overColumn ?? check.column;
    if (check.overColumn) columnOf(table, overColumn);
    const ratio = cell(table, check.row, check.column) / cell(table, check.over, overColumn);
    const holds = (check.atLeast === undefined || ratio >= check.atLeast) && (check.atMost === undefined || ratio <= check.atMost);
    const range = [check.atLeast !== undefined && `at least ${ratioText(check.atLeast)}`, check.atMost !== undefined && `at most ${ratioText(check.atMost)}`].filter(Boolean).join(' and ');
    const over = check.overColumn ? `${check.over}'s ${columnOf(table, overColumn).label}` : check.over;
    return { holds, explanation: `${column.label}: ${check.row} is ${ratioText(ratio)} ${over} (the claim needs ${range})` };
  },

  // `rows` listed best first are in that order on column (better = higher, or lower for ms).
  order(check, measured) {
    const table = tableOf(measured, check.table);
    const column = columnOf(table, check.column);
    const values = check.rows.map((row) => cell(table, row, check.column));
    const wrong = [];
    for (let i = 1; i < values.length; i += 1) {
      if (advantage(values[i - 1], values[i], column, check.direction) <= 1) wrong.push(`${check.rows[i]} is not behind ${check.rows[i - 1]}`);
    }
    // Under 1 (a probe's 0.21 ms): two significant digits, so 0.21 and 0.24 do not both read 0.2.
    const shown = check.rows.map((row, i) => `${row} ${values[i] < 1 ? values[i].toPrecision(2) : values[i].toFixed(1)}`).join(', ');
    return { holds: !wrong.length, explanation: `${column.label}: ${shown}${wrong.length ? ` (${wrong.join('; ')})` : ''}` };
  },

  // A ratio that falls: a/b (the first pair) is larger than c/d (the second), e.g. an
  // advantage that shrinks as the data grows.
  'ratio-falls'(check, measured) {
    const table = tableOf(measured, check.table);
    const column = columnOf(table, check.column);
    const [[a, b], [c, d]] = check.pairs;
    const first = cell(table, a, check.column) / cell(table, b, check.column);
    const second = cell(table, c, check.column) / cell(table, d, check.column);
    return { holds: first > second, explanation: `${column.label}: ${a} / ${b} = ${ratioText(first)}, ${c} / ${d} = ${ratioText(second)}` };
  },
};

// The direct-mode scenarios' whole-table checks (driver/scenarios/checks-direct.js).
Object.assign(checks, directChecks({ tableOf, columnOf, cell, ratioText }));
// A row's own columns compared, and a cell against a figure (driver/scenarios/checks-columns.js).
Object.assign(checks, columnChecks({ tableOf, columnOf, cell, ratioText }));

export const CHECK_TYPES = Object.keys(checks);

/**
 * One verdict per conclusion: { id, claim, verdict, explanation } where verdict is HOLDS,
 * FAILS or `not runnable here: <reason>`. measured: the tables a scenario's kind built.
 */
export function judge(conclusions, measured) {
  return conclusions.map(({ id, claim, check, notRunnable }) => {
    if (notRunnable) return { id, claim, verdict: `${NOT_RUNNABLE}: ${notRunnable}`, explanation: notRunnable };
    const evaluate = checks[check?.type];
    if (!evaluate) return { id, claim, verdict: `${NOT_RUNNABLE}: unknown check type "${check?.type}"`, explanation: `the check types are ${CHECK_TYPES.join(', ')}` };
    try {
      const { holds, explanation } = evaluate(check, measured);
      return { id, claim, verdict: holds ? HOLDS : FAILS, explanation };
    } catch (error) {
      if (!(error instanceof MissingCells)) throw error;
      return { id, claim, verdict: `${NOT_RUNNABLE}: ${error.message}`, explanation: `${error.message} (a store was down or the run stopped early)` };
    }
  });
}
