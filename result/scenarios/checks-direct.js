// Check types for the direct-mode scenarios' conclusions, over whole tables: orderings and ratios
// only, missing cells reported as verdicts.js's own (MissingCells).

const pairsOf = (table, from, to) => table.rows
  .filter((row) => row.includes(from))
  .flatMap((row) => to.map((other) => [row, row.replace(from, other)]))
  .filter(([, other]) => table.rows.includes(other));
const percent = (value) => `${value.toFixed(0)}%`;

// Every cell of `columns` (all of them by default) is at least `atLeast`.
function allAtLeast({ tableOf, columnOf, cell }, check, measured) {
  const table = tableOf(measured, check.table);
  const columns = (check.columns ?? table.columns.map((column) => column.id)).map((id) => columnOf(table, id));
  const values = table.rows.flatMap((row) =>
    columns.map((column) => ({ row, column, value: cell(table, row, column.id) })));
  const below = values.filter(({ value }) => value < check.atLeast);
  const shown = (value) => (columns[0].unit === '%' ? percent(value) : String(value));
  const lowest = values.reduce((low, entry) => (entry.value < low.value ? entry : low));
  return {
    holds: below.length === 0,
    explanation: `${values.length - below.length} of ${values.length} at ${shown(check.atLeast)} or more; ` +
      `lowest ${shown(lowest.value)} (${lowest.column.label}, ${lowest.row})`,
  };
}

// One of `columns` is the best on every row but `except`, and not there ("faster everywhere
// but at the huge value").
function bestExcept({ tableOf, columnOf, cell, ratioText, marginOf, standing }, check, measured) {
  const table = tableOf(measured, check.table);
  const columns = check.columns.map((id) => columnOf(table, id));
  const margin = marginOf(check);
  const placesOf = (row) => {
    const [best, runnerUp] = [...columns].sort((a, b) => cell(table, row, a.id) - cell(table, row, b.id));
    const lead = cell(table, row, runnerUp.id) / cell(table, row, best.id);
    return { best, runnerUp, lead, clear: standing(lead, margin) === 'ahead' };
  };
  const rows = table.rows.filter((row) => !check.except.includes(row));
  const winners = rows.map(placesOf);
  const leader = winners[0].best;
  const ledAll = winners.every(({ best, clear }) => clear && best === leader);
  const reversed = check.except.map((row) => ({ row, ...placesOf(row) }));
  const holds = ledAll && reversed.every(({ best, clear }) => clear && best !== leader);
  const named = ({ best, clear }) => (clear ? best.label : `${best.label}, within ${(margin * 100).toFixed(0)}%`);
  const lead = ledAll
    ? `${leader.label} fastest on all of ${rows.join(', ')}`
    : `no one client clearly fastest on ${rows.join(', ')} ` +
      `(${rows.map((row, i) => `${row}: ${named(winners[i])}`).join(', ')})`;
  const placed = ({ row, best, runnerUp, lead: by, clear }) =>
    `${row}: ${best.label} fastest, ${ratioText(by)} ahead of ${runnerUp.label}` +
    (clear ? '' : ' (not distinguishable here)');
  const at = reversed.map(placed).join('; ');
  return { holds, explanation: `${lead}; ${at}` };
}

// Rows holding `faster` take less time than their `slower` counterparts in every column (or
// most). `among`: only rows holding one of these texts.
function beats({ figure, tableOf, cell, ratioText, MissingCells, marginOf, standing, levelText }, check, measured) {
  const table = tableOf(measured, check.table);
  const claimed = (row) => !check.among || check.among.some((text) => row.includes(text));
  const pairs = pairsOf(table, check.faster, check.slower).filter(([row]) => claimed(row));
  if (!pairs.length) {
    throw new MissingCells(`no rows with "${check.faster.trim()}" and a counterpart to compare`);
  }
  const compared = pairs.flatMap(([a, b]) => table.columns.map((column) =>
    ({ a, b, column, ratio: cell(table, b, column.id) / cell(table, a, column.id) })));
  const margin = marginOf(check);
  const ahead = compared.filter(({ ratio }) => standing(ratio, margin) === 'ahead');
  const behind = compared.filter(({ ratio }) => standing(ratio, margin) !== 'ahead');
  const level = behind.filter(({ ratio }) => standing(ratio, margin) === 'level').length;
  const holds = check.in === 'most' ? ahead.length * 2 > compared.length : behind.length === 0;
  const ratios = compared.map(({ ratio }) => ratio);
  const spread = `${ratioText(Math.min(...ratios))} to ${ratioText(Math.max(...ratios))} as fast`;
  const exceptions = behind.slice(0, 3).map(({ a, b, column }) =>
    `${a} ${figure(cell(table, a, column.id))} vs ${b} ${figure(cell(table, b, column.id))} ms at ${column.label}`);
  const more = behind.length > 3 ? `, and ${behind.length - 3} more` : '';
  const not = exceptions.length ? `; not: ${exceptions.join('; ')}${more}` : '';
  return {
    holds,
    explanation: `"${check.faster.trim()}" faster in ${ahead.length} of ${compared.length} comparisons` +
      `${levelText(level, margin)} (${spread})${not}`,
  };
}

// Two ways of doing one job, each a mix of methods weighed by how often: for every store the
// first takes less time by more than the margin.
function mixBeats({ figure, tableOf, columnOf, cell, ratioText, MissingCells, marginOf, standing }, check, measured) {
  const table = tableOf(measured, check.table);
  const column = columnOf(table, check.column ?? table.columns.at(-1).id);
  const [first] = Object.keys(check.faster);
  const stores = table.rows.filter((row) => row.endsWith(first)).map((row) => row.slice(0, -first.length));
  if (!stores.length) throw new MissingCells(`no rows with "${first.trim()}" to compare`);
  const cost = (store, mix) => Object.entries(mix)
    .reduce((sum, [method, times]) => sum + times * cell(table, `${store}${method}`, column.id), 0);
  const margin = marginOf(check);
  const compared = stores.map((store) => {
    const [fast, slow] = [cost(store, check.faster), cost(store, check.slower)];
    return { store, fast, slow, place: standing(slow / fast, margin) };
  });
  const mixText = (mix) => Object.entries(mix).map(([method, times]) => `${times} x ${method.trim()}`).join(' + ');
  const shown = compared.map(({ store, fast, slow }) =>
    `${store}: ${figure(fast)} vs ${figure(slow)} ${column.unit} (${ratioText(slow / fast)})`).join('; ');
  const not = compared.filter(({ place }) => place !== 'ahead');
  const why = not.length
    ? `; not ahead by more than ${(margin * 100).toFixed(0)}%: ${not.map(({ store }) => store.trim()).join(', ')}`
    : '';
  return {
    holds: !not.length,
    explanation: `at ${column.label}, ${mixText(check.faster)} against ${mixText(check.slower)}: ${shown}${why}`,
  };
}

// A ratio that shrinks from each column to the next. Each pair's shape is printed, so a rise
// then fall is seen as that, not as a shrink between its ends.
function ratioShrinks({ tableOf, cell, ratioText, MissingCells, marginOf, standing }, check, measured) {
  const table = tableOf(measured, check.table);
  const pairs = pairsOf(table, check.numerator, [check.denominator]);
  if (!pairs.length) {
    throw new MissingCells(`no rows with "${check.numerator.trim()}" and a counterpart to compare`);
  }
  const margin = marginOf(check);
  const shapes = pairs.map(([a, b]) => {
    const ratios = table.columns.map((column) => cell(table, a, column.id) / cell(table, b, column.id));
    const moves = ratios.slice(1).map((ratio, i) => standing(ratios[i] / ratio, margin));
    return { a, ratios, moves, shrinks: moves.every((move) => move === 'ahead') };
  });
  const shrinking = shapes.filter(({ shrinks }) => shrinks).length;
  const holds = check.in === 'most' ? shrinking * 2 > shapes.length : shrinking === shapes.length;
  const word = { ahead: 'falls', behind: 'rises', level: 'level' };
  const shown = shapes.map(({ a, ratios, moves }) =>
    `${a.replace(check.numerator, '')} ${ratios.map(ratioText).join(' -> ')} ` +
    `(${moves.map((move) => word[move]).join(', ')})`).join('; ');
  const columns = `${table.columns[0].label} to ${table.columns.at(-1).label}`;
  return {
    holds,
    explanation: `${check.numerator.trim()}/${check.denominator.trim()} from ${columns} falls at every step ` +
      `in ${shrinking} of ${shapes.length} (a step within ${(margin * 100).toFixed(0)}% is level, not a fall): ` +
      shown,
  };
}

/**
 * @param {{ figure, tableOf, columnOf, cell, ratioText, MissingCells, marginOf, standing, levelText }} helpers
 * @returns {Object<string, (check, measured) => { holds: boolean, explanation: string }>}
 */
export function directChecks(helpers) {
  return {
    'all-at-least': (check, measured) => allAtLeast(helpers, check, measured),
    'best-except': (check, measured) => bestExcept(helpers, check, measured),
    beats: (check, measured) => beats(helpers, check, measured),
    'mix-beats': (check, measured) => mixBeats(helpers, check, measured),
    'ratio-shrinks': (check, measured) => ratioShrinks(helpers, check, measured),
  };
}
