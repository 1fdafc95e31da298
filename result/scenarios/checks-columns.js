// Check types comparing a row's own columns, or a row's figure with another table's: orderings
// only, missing cells reported as verdicts.js's own.

/**
 * @param {{ figure, tableOf, columnOf, cell, ratioText, marginOf, standing }} helpers
 * @returns {Object<string, (check, measured) => { holds: boolean, explanation: string }>}
 */
export function columnChecks({
  figure, tableOf, columnOf, cell, ratioText, marginOf, standing, tooSmall, tooSmallText, MissingCells,
}) {
  return {
    // In every row `column` is above `over` (the probe under load slower than idle). `where`: only
    // the rows a server was the limit of; the others are named.
    'column-above'(check, measured) {
      const table = tableOf(measured, check.table);
      const [column, over] = [columnOf(table, check.column), columnOf(table, check.over)];
      const listed = check.rows ?? table.rows;
      const kept = check.where
        ? listed.filter((row) => (table.cells[row]?.[check.where.column] ?? -Infinity) >= check.where.atLeast)
        : listed;
      if (!kept.length) {
        throw new MissingCells(`no row with ${columnOf(table, check.where.column).label} at least ` +
          `${figure(check.where.atLeast)}${check.where.why ? ` (${check.where.why})` : ''}`);
      }
      const rows = kept;
      const left = listed.filter((row) => !kept.includes(row));
      const ratios = rows.map((row) => ({ row, ratio: cell(table, row, column.id) / cell(table, row, over.id) }));
      // By more than the margin (a probe 5% slower under load is noise) and the figures' own noise.
      const pairOf = (row) =>
        [[row, column.id, cell(table, row, column.id)], [row, over.id, cell(table, row, over.id)]];
      const small = rows.filter((row) => tooSmall(table, ...pairOf(row)));
      const below = ratios.filter(({ row, ratio }) =>
        small.includes(row) || standing(ratio, marginOf(check)) !== 'ahead');
      const low = ratios.reduce((min, entry) => (entry.ratio < min.ratio ? entry : min));
      const high = ratios.reduce((max, entry) => (entry.ratio > max.ratio ? entry : max));
      const notAbove = below.length
        ? `; not above in ${below.map(({ row }) => row).join(', ')} ` +
          `(by more than the ${(marginOf(check) * 100).toFixed(0)}% margin)`
        : '';
      const tooSmallNote = small.map((row) => `; ${row}: ${tooSmallText(table, ...pairOf(row))}`).join('');
      const whyLeft = check.where?.why ?? `${check.where?.column} under ${check.where?.atLeast}`;
      const leftNote = left.length ? `; not judged: ${left.join(', ')} (${whyLeft})` : '';
      return {
        holds: below.length === 0,
        explanation: `${column.label} over ${over.label}: ${ratioText(low.ratio)} (${low.row}) to ` +
          `${ratioText(high.ratio)} (${high.row}) in ${rows.length} rows${notAbove}${tooSmallNote}${leftNote}`,
      };
    },

    // Each row's figure under `below` of another table's (JSON.parse against its request).
    // Rows with no counterpart measured are left out; none at all is MissingCells.
    'share-below'(check, measured) {
      const table = tableOf(measured, check.table);
      const column = columnOf(table, check.column);
      const whole = tableOf(measured, check.of.table);
      const wholeColumn = columnOf(whole, check.of.column);
      const pairs = (check.rows ?? table.rows)
        .map((row) => ({ row, other: check.of.row.replaceAll('{row}', row) }))
        .filter(({ other }) => whole.rows.includes(other));
      if (!pairs.length) throw new MissingCells(`no row of ${whole.id} matches ${check.of.row}`, { notMeasured: true });
      const shares = pairs.map(({ row, other }) => {
        const [part, of] = [cell(table, row, column.id), cell(whole, other, wholeColumn.id)];
        return { row, other, part, of, share: part / of };
      });
      const over = shares.filter(({ share }) => !(share < check.below));
      const percent = (share) => `${(share * 100).toPrecision(2)}%`;
      const shown = shares.map(({ row, other, part, of, share }) =>
        `${row} ${figure(part)} of ${other} ${figure(of)} ${wholeColumn.unit} (${percent(share)})`).join(', ');
      const not = over.length ? `; not: ${over.map(({ row }) => row).join(', ')}` : '';
      return {
        holds: !over.length,
        explanation: `${column.label}: ${shown} (the claim needs each under ${percent(check.below)}${not})`,
      };
    },
  };
}
