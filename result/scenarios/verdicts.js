// A study's conclusions judged against our measured tables: only orderings and ratios, never
// absolute times (the study ran on other hardware). Two figures within the margin (10% by default)
// are "not distinguishable here", so one run's noise cannot flip a verdict; missing cells cannot
// be judged and say so (docs/scenarios.md).

import { directChecks } from './checks-direct.js';
import { columnChecks } from './checks-columns.js';

export const HOLDS = 'holds here';
export const FAILS = 'does not hold here';
export const NOT_RUNNABLE = 'not runnable here';
// A verdict no change of the system under test can flip: what the emulation was set to decides
// it (the conclusion's `setBy` names the constant), so it is never printed as holding.
export const SET_BY = 'set by the emulation';
// A verdict no change of the system here can turn the other way (the conclusion's `noCounter` says
// why): it cannot be proven by a counter-run, so it is never printed as holding or not. What was
// measured stays beside it, as `outcome`.
export const NOT_PROVEN = 'not proven here';

/** A figure as tables show it: whole numbers as they are, others to one decimal (under 1: two significant digits). */
export function formatFigure(value) {
  if (value === null || value === undefined) return '-';
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  if (Math.abs(value) < 1) return value.toLocaleString('en-US', { maximumSignificantDigits: 2 });
  return value.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}
const figure = formatFigure;

// Latency columns are better low; everything else (rps) better high, unless the check says.
const lowerIsBetter = (column) => column.unit === 'ms';
const ratioText = (value) => `${value >= 10 ? value.toFixed(0) : value.toFixed(2)}x`;

const DEFAULT_MARGIN = 0.1;
const marginOf = (check) => check.margin ?? DEFAULT_MARGIN;
/** An advantage (a ratio, > 1 when ahead) as 'ahead', 'behind' or 'level' (within the margin). */
function standing(ratio, margin) {
  if (ratio > 1 + margin) return 'ahead';
  if (ratio < 1 / (1 + margin)) return 'behind';
  return 'level';
}
// Two figures no further apart than their noises together (a table's `noise`) are too small to judge.
const noiseOf = (table, row, column) => table.noise?.[row]?.[column] ?? 0;
const tooSmall = (table, [rowA, columnA, a], [rowB, columnB, b]) =>
  table.noise !== undefined && Math.abs(a - b) <= noiseOf(table, rowA, columnA) + noiseOf(table, rowB, columnB);
const tooSmallText = (table, [rowA, columnA], [rowB, columnB]) => {
  const unit = columnOf(table, columnA).unit;
  return `apart by no more than their own noise here (± ${figure(noiseOf(table, rowA, columnA))} and ` +
    `± ${figure(noiseOf(table, rowB, columnB))} ${unit}): too small to judge here`;
};
const levelText = (count, margin) =>
  (count ? `, ${count} within ${(margin * 100).toFixed(0)}% (not distinguishable here)` : '');

// notMeasured: the row is not in the table at all (the scale does not run it), rather than a
// cell left empty (a store down, a failed step, an interrupted run).
class MissingCells extends Error {
  constructor(message, { notMeasured = false } = {}) {
    super(message);
    this.notMeasured = notMeasured;
  }
}

// The cells the check being judged read, so its verdict can name the steps behind it.
let reading = null;

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
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new MissingCells(`no figure for ${row}, ${column}`, { notMeasured: !table.rows.includes(row) });
  }
  reading?.add(`${table.id}\u0000${row}`);
  return value;
}

// A check's rows: a list of labels, or { prefix, from?, to?, last? }.
function rowsOf(table, rows, least = 2) {
  if (Array.isArray(rows)) return rows;
  const matching = table.rows.filter((row) => {
    if (!row.startsWith(rows.prefix)) return false;
    const load = Number(row.slice(rows.prefix.length));
    return (rows.from === undefined || load >= rows.from) && (rows.to === undefined || load <= rows.to);
  });
  // `last: n`: the n highest loads measured, whatever the scale's steps.
  if (rows.last) matching.splice(0, Math.max(0, matching.length - rows.last));
  if (matching.length < least) {
    const wanted = least === 1 ? 'one row' : 'two rows';
    throw new MissingCells(`fewer than ${wanted} ${rows.prefix}${rows.from ?? ''}..${rows.to ?? ''} were measured`);
  }
  return matching;
}

function advantage(a, b, column, direction) {
  const lower = direction ? direction === 'lower' : lowerIsBetter(column);
  return lower ? b / a : a / b;
}

const checks = {
  faster(check, measured) {
    const table = tableOf(measured, check.table);
    const column = columnOf(table, check.column);
    const prefix = `${check.faster}`;
    const pairs = table.rows
      .filter((row) => row.startsWith(prefix))
      .map((row) => [row, `${check.slower}${row.slice(prefix.length)}`])
      .filter(([, other]) => table.rows.includes(other));
    if (!pairs.length) throw new MissingCells(`no rows of ${check.faster} with a ${check.slower} counterpart`);
    const ratios = pairs.map(([a, b]) =>
      advantage(cell(table, a, check.column), cell(table, b, check.column), column, check.direction));
    const margin = marginOf(check);
    const standings = ratios.map((ratio) => standing(ratio, margin));
    const ahead = standings.filter((place) => place === 'ahead').length;
    const level = standings.filter((place) => place === 'level').length;
    const holds = check.in === 'most' ? ahead * 2 > pairs.length : ahead === pairs.length;
    const spread = `${ratioText(Math.min(...ratios))} to ${ratioText(Math.max(...ratios))}`;
    return {
      holds,
      explanation: `${check.faster.replace(/\W+$/, '')} ahead on ${column.label} in ${ahead} of ${pairs.length} pairs` +
        `${levelText(level, margin)} (its advantage ${spread})`,
    };
  },

  // A flat stretch within `tolerance` of its median; with `before`, each lower row below it by more,
  // so "rises, then levels off" and "flat from the start" are told apart.
  plateau(check, measured) {
    const table = tableOf(measured, check.table);
    const column = columnOf(table, check.column);
    const rows = rowsOf(table, check.rows);
    const values = rows.map((row) => cell(table, row, check.column));
    const sorted = [...values].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    const worst = Math.max(...values.map((value) => Math.abs(value - median) / median));
    const flat = worst <= check.tolerance;
    const explanation = `${column.label} over ${rows[0]} .. ${rows.at(-1)}: ` +
      `${figure(sorted[0])} to ${figure(sorted.at(-1))}, at most ${(worst * 100).toFixed(0)}% from its median ` +
      `(flat means within ${(check.tolerance * 100).toFixed(0)}%)`;
    if (!check.before) return { holds: flat, explanation };
    const before = rowsOf(table, check.before, 1).map((row) => ({ row, value: cell(table, row, check.column) }));
    const notBelow = before.filter(({ value }) => value >= median * (1 - check.tolerance));
    const rise = `; before it ${before.map(({ row, value }) => `${row} ${figure(value)}`).join(', ')}`;
    const why = notBelow.length
      ? ` (${notBelow.map(({ row }) => row).join(', ')} not below the plateau by more than ` +
        `${(check.tolerance * 100).toFixed(0)}%: flat from the start, not a rise that levels off)`
      : '';
    return { holds: flat && !notBelow.length, explanation: `${explanation}${rise}${why}` };
  },

  level(check, measured) {
    const table = tableOf(measured, check.table);
    const column = columnOf(table, check.column);
    const [a, b] = [cell(table, check.row, check.column), cell(table, check.other, check.column)];
    const margin = marginOf(check);
    const place = standing(a / b, margin);
    return {
      holds: place === 'level',
      explanation: `${column.label}: ${check.row} ${figure(a)}, ${check.other} ${figure(b)}: ${ratioText(a / b)} ` +
        `(level means within ${(margin * 100).toFixed(0)}%)`,
    };
  },

  'all-of'(check, measured) {
    const outcomes = check.checks.map((sub) => checks[sub.type](sub, measured));
    return {
      holds: outcomes.every(({ holds }) => holds),
      explanation: outcomes.map(({ holds, explanation }) => `${holds ? 'yes' : 'no'}: ${explanation}`).join('; '),
    };
  },

  rises(check, measured) {
    const table = tableOf(measured, check.table);
    const column = columnOf(table, check.column);
    const rows = rowsOf(table, check.rows);
    const [from, to] = [rows[0], rows.at(-1)];
    const ratio = cell(table, to, check.column) / cell(table, from, check.column);
    return {
      holds: ratio >= check.atLeast,
      explanation: `${column.label} at ${to} is ${ratioText(ratio)} that at ${from} ` +
        `(rising means at least ${ratioText(check.atLeast)})`,
    };
  },

  'at-least'(check, measured) {
    const table = tableOf(measured, check.table);
    const column = columnOf(table, check.column);
    const rows = rowsOf(table, check.rows, 1);
    const values = rows.map((row) => ({ row, value: cell(table, row, check.column) }));
    const under = values.filter(({ value }) => !(value >= check.atLeast));
    const shown = values.map(({ row, value }) => `${row} ${figure(value)}`).join(', ');
    const means = check.means ? `: ${check.means}` : '';
    const not = under.length ? `; not: ${under.map(({ row }) => row).join(', ')}` : '';
    return {
      holds: !under.length,
      explanation: `${column.label}: ${shown} (the claim needs each at least ${figure(check.atLeast)}${means}${not})`,
    };
  },

  ratio(check, measured) {
    const table = tableOf(measured, check.table);
    const column = columnOf(table, check.column);
    const overColumn = check.overColumn ?? check.column;
    if (check.overColumn) columnOf(table, overColumn);
    const ratio = cell(table, check.row, check.column) / cell(table, check.over, overColumn);
    const holds = (check.atLeast === undefined || ratio >= check.atLeast) &&
      (check.atMost === undefined || ratio <= check.atMost);
    const range = [
      check.atLeast !== undefined && `at least ${ratioText(check.atLeast)}`,
      check.atMost !== undefined && `at most ${ratioText(check.atMost)}`,
    ].filter(Boolean).join(' and ');
    const over = check.overColumn ? `${check.over}'s ${columnOf(table, overColumn).label}` : check.over;
    return {
      holds,
      explanation: `${column.label}: ${check.row} is ${ratioText(ratio)} ${over} (the claim needs ${range})`,
    };
  },

  order(check, measured) {
    const table = tableOf(measured, check.table);
    const column = columnOf(table, check.column);
    const values = check.rows.map((row) => cell(table, row, check.column));
    const margin = marginOf(check);
    const wrong = [];
    for (let i = 1; i < values.length; i += 1) {
      const pair = [[check.rows[i - 1], check.column, values[i - 1]], [check.rows[i], check.column, values[i]]];
      if (tooSmall(table, ...pair)) {
        wrong.push(`${check.rows[i]} and ${check.rows[i - 1]} ${tooSmallText(table, ...pair)}`);
        continue;
      }
      const place = standing(advantage(values[i - 1], values[i], column, check.direction), margin);
      if (place === 'level') {
        const within = `within ${(margin * 100).toFixed(0)}%`;
        wrong.push(`${check.rows[i]} and ${check.rows[i - 1]} ${within}: not distinguishable here`);
      }
      if (place === 'behind') wrong.push(`${check.rows[i]} is not behind ${check.rows[i - 1]}`);
    }
    const shown = check.rows.map((row, i) => `${row} ${figure(values[i])}`).join(', ');
    const why = wrong.length ? ` (${wrong.join('; ')})` : '';
    return { holds: !wrong.length, explanation: `${column.label}: ${shown}${why}` };
  },

  last(check, measured) {
    const table = tableOf(measured, check.table);
    const column = columnOf(table, check.column);
    const margin = marginOf(check);
    const value = cell(table, check.row, check.column);
    const others = check.others.map((row) => ({ row, value: cell(table, row, check.column) }));
    const notBehind = others.filter((other) =>
      standing(advantage(other.value, value, column, check.direction), margin) !== 'ahead');
    const shown = [{ row: check.row, value }, ...others]
      .map((entry) => `${entry.row} ${figure(entry.value)}`)
      .join(', ');
    const why = notBehind
      .map((other) => `${check.row} not behind ${other.row} by more than ${(margin * 100).toFixed(0)}%`)
      .join('; ');
    return { holds: !notBehind.length, explanation: `${column.label}: ${shown}${why ? ` (${why})` : ''}` };
  },

  'ratio-falls'(check, measured) {
    const table = tableOf(measured, check.table);
    const column = columnOf(table, check.column);
    const [[a, b], [c, d]] = check.pairs;
    const first = cell(table, a, check.column) / cell(table, b, check.column);
    const second = cell(table, c, check.column) / cell(table, d, check.column);
    const place = standing(first / second, marginOf(check));
    const why = place === 'level'
      ? ` (within ${(marginOf(check) * 100).toFixed(0)}%: not distinguishable here)`
      : '';
    return {
      holds: place === 'ahead',
      explanation: `${column.label}: ${a} / ${b} = ${ratioText(first)}, ${c} / ${d} = ${ratioText(second)}${why}`,
    };
  },
};

const helpers = {
  figure, tableOf, columnOf, cell, ratioText, MissingCells, marginOf, standing, levelText, tooSmall, tooSmallText,
};
Object.assign(checks, directChecks(helpers));
Object.assign(checks, columnChecks(helpers));

export const CHECK_TYPES = Object.keys(checks);

/**
 * One verdict per conclusion: { id, claim, verdict, explanation, figures }; verdict HOLDS, FAILS,
 * `not runnable here: <reason>`, SET_BY, or NOT_PROVEN (with `outcome`, HOLDS or FAILS). measured: the
 * tables a scenario's kind built.
 */
export function judge(conclusions, measured) {
  return conclusions.map((conclusion) => {
    const judged = judgeOne(conclusion, measured);
    if (conclusion.noCounter) return notProven(judged, conclusion.noCounter);
    if (!conclusion.setBy) return judged;
    const measuredText = judged.verdict.startsWith(NOT_RUNNABLE) ? '' : `; measured: ${judged.explanation}`;
    return { ...judged, verdict: SET_BY, setBy: conclusion.setBy, explanation: `${conclusion.setBy}${measuredText}` };
  });
}

function notProven(judged, noCounter) {
  if (judged.verdict !== HOLDS && judged.verdict !== FAILS) return { ...judged, noCounter };
  return {
    ...judged,
    verdict: NOT_PROVEN,
    outcome: judged.verdict,
    noCounter,
    explanation: `no counter-run can turn it: ${noCounter}; measured: ${judged.verdict} (${judged.explanation})`,
  };
}

function judgeOne({ id, claim: stated, check, notRunnable, ours }, measured) {
  // A claim we derived (not one the study drew) says so wherever it is shown.
  const claim = ours ? `(ours, not the study's) ${stated}` : stated;
  const unjudged = (why, explanation) =>
    ({ id, claim, verdict: `${NOT_RUNNABLE}: ${why}`, explanation, figures: [] });
  if (notRunnable) return unjudged(notRunnable, notRunnable);
  const evaluate = checks[check?.type];
  if (!evaluate) {
    return unjudged(`unknown check type "${check?.type}"`, `the check types are ${CHECK_TYPES.join(', ')}`);
  }
  reading = new Set();
  try {
    const { holds, explanation } = evaluate(check, measured);
    const figures = [...reading].map((key) => ({ table: key.split('\u0000')[0], row: key.split('\u0000')[1] }));
    return { id, claim, verdict: holds ? HOLDS : FAILS, explanation, figures };
  } catch (error) {
    if (!(error instanceof MissingCells)) throw error;
    // The scale, a store that was down, or an interrupted run leaves a figure out: say which.
    const cause = error.notMeasured
      ? 'this scale does not run that row, or its store was down'
      : 'a store was down, an operation failed, or the run stopped early';
    return unjudged(error.message, `${error.message} (${cause})`);
  } finally {
    reading = null;
  }
}
