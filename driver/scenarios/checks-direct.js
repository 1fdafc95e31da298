// Check types for the direct-mode scenarios' conclusions (client-libraries, redis-vs-memory),
// over whole tables rather than one column: added to verdicts.js's own. Like those, they
// compare orderings and ratios only. `helpers` are verdicts.js's table readers, so a missing
// cell is reported the same way (MissingCells: "not runnable here").

/**
 * @param {{ figure, tableOf, columnOf, cell, ratioText, MissingCells, marginOf, standing, levelText }} helpers
 * @returns {Object<string, (check, measured) => { holds: boolean, explanation: string }>}
 */
export function directChecks({ figure, tableOf, columnOf, cell, ratioText, MissingCells, marginOf, standing, levelText }) {
  // The row pairs a check compares: each row holding `from`, with that text replaced by each of `to`.
  const pairsOf = (table, from, to) => table.rows
    .filter((row) => row.includes(from))
    .flatMap((row) => to.map((other) => [row, row.replace(from, other)]))
    .filter(([, other]) => table.rows.includes(other));
  const percent = (value) => `${value.toFixed(0)}%`;

  return {
    // Every cell (of `columns`, default all) at least `atLeast`.
    'all-at-least'(check, measured) {
      const table = tableOf(measured, check.table);
      const columns = (check.columns ?? table.columns.map((column) => column.id)).map((id) => columnOf(table, id));
      const values = table.rows.flatMap((row) => columns.map((column) => ({ row, column, value: cell(table, row, column.id) })));
      const below = values.filter(({ value }) => value < check.atLeast);
      const shown = (value) => (columns[0].unit === '%' ? percent(value) : String(value));
      const lowest = values.reduce((low, entry) => (entry.value < low.value ? entry : low));
      return {
        holds: below.length === 0,
        explanation: `${values.length - below.length} of ${values.length} at ${shown(check.atLeast)} or more; lowest ${shown(lowest.value)} (${lowest.column.label}, ${lowest.row})`,
      };
    },

    // One of `columns` is the best (lowest ms) on every row but `except`, and not the best there:
    // the study's shape, "faster everywhere but at the huge value".
    'best-except'(check, measured) {
      const table = tableOf(measured, check.table);
      const columns = check.columns.map((id) => columnOf(table, id));
      const margin = marginOf(check);
      // The fastest column of a row, and whether it leads the next by more than the margin.
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
        : `no one client clearly fastest on ${rows.join(', ')} (${rows.map((row, i) => `${row}: ${named(winners[i])}`).join(', ')})`;
      const at = reversed.map(({ row, best, runnerUp, lead: by, clear }) => `${row}: ${best.label} fastest, ${ratioText(by)} ahead of ${runnerUp.label}${clear ? '' : ' (not distinguishable here)'}`).join('; ');
      return { holds, explanation: `${lead}; ${at}` };
    },

    // Rows holding `faster` take less time than their counterparts (that text replaced by each
    // of `slower`), in every column: in all comparisons, or in most (`in: 'most'`).
    beats(check, measured) {
      const table = tableOf(measured, check.table);
      const pairs = pairsOf(table, check.faster, check.slower);
      if (!pairs.length) throw new MissingCells(`no rows with "${check.faster.trim()}" and a counterpart to compare`);
      const compared = pairs.flatMap(([a, b]) => table.columns.map((column) => ({ a, b, column, ratio: cell(table, b, column.id) / cell(table, a, column.id) })));
      const margin = marginOf(check);
      const ahead = compared.filter(({ ratio }) => standing(ratio, margin) === 'ahead');
      const behind = compared.filter(({ ratio }) => standing(ratio, margin) !== 'ahead');
      const level = behind.filter(({ ratio }) => standing(ratio, margin) === 'level').length;
      const holds = check.in === 'most' ? ahead.length * 2 > compared.length : behind.length === 0;
      const ratios = compared.map(({ ratio }) => ratio);
      const spread = `${ratioText(Math.min(...ratios))} to ${ratioText(Math.max(...ratios))} as fast`;
      const exceptions = behind.slice(0, 3).map(({ a, b, column }) => `${a} ${figure(cell(table, a, column.id))} vs ${b} ${figure(cell(table, b, column.id))} ms at ${column.label}`);
      return {
        holds,
        explanation: `"${check.faster.trim()}" faster in ${ahead.length} of ${compared.length} comparisons${levelText(level, margin)} (${spread})${exceptions.length ? `; not: ${exceptions.join('; ')}${behind.length > 3 ? `, and ${behind.length - 3} more` : ''}` : ''}`,
      };
    },

    // The ratio numerator-row / denominator-row is smaller in the last column than in the first,
    // for every such pair of rows (or most: `in: 'most'`).
    'ratio-shrinks'(check, measured) {
      const table = tableOf(measured, check.table);
      const first = table.columns[0];
      const last = table.columns.at(-1);
      const pairs = pairsOf(table, check.numerator, [check.denominator]);
      if (!pairs.length) throw new MissingCells(`no rows with "${check.numerator.trim()}" and a counterpart to compare`);
      const ratios = pairs.map(([a, b]) => ({
        a,
        from: cell(table, a, first.id) / cell(table, b, first.id),
        to: cell(table, a, last.id) / cell(table, b, last.id),
      }));
      const margin = marginOf(check);
      const shrinking = ratios.filter(({ from, to }) => standing(from / to, margin) === 'ahead').length;
      const level = ratios.filter(({ from, to }) => standing(from / to, margin) === 'level').length;
      const holds = check.in === 'most' ? shrinking * 2 > ratios.length : shrinking === ratios.length;
      const shown = ratios.map(({ a, from, to }) => `${a.replace(check.numerator, '')} ${ratioText(from)} -> ${ratioText(to)}`).join(', ');
      return { holds, explanation: `${check.numerator.trim()}/${check.denominator.trim()} from ${first.label} to ${last.label} shrinks in ${shrinking} of ${ratios.length}${levelText(level, margin)}: ${shown}` };
    },
  };
}
