// Check types comparing a row's own columns (cluster-vs-document), or a row's figure with another
// table's (cloudant-vs-redis's JSON.parse against its request):
// added to verdicts.js's own. Like those, orderings only; a missing cell is reported the same
// way (MissingCells through `cell`: "not runnable here").

/**
 * @param {{ figure, tableOf, columnOf, cell, ratioText, marginOf, standing }} helpers
 * @returns {Object<string, (check, measured) => { holds: boolean, explanation: string }>}
 */
export function columnChecks({
  figure, tableOf, columnOf, cell, ratioText, marginOf, standing, tooSmall, tooSmallText, MissingCells,
}) {
  return {
    // In every row (or those listed in `rows`), `column` is above `over` (the probe under load
    // slower than idle). `where: { column, atLeast }`: only the rows whose `column` is at least
    // that (the rows a server was the limit of); the others are named, and none is MissingCells.
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
      // Above by more than the margin: a probe 5% slower under load is noise, not a finding; and
      // by more than the two figures' own noise, where the table has it.
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

    // Each row's figure a small share of another table's figure for that row (`of: { table,
    // column, row }`, row a template with {row} for the row's label): under `below` (a fraction).
    // JSON.parse of a document against the request that carried it. Rows with no counterpart
    // measured (a scale that does not run that document) are left out; none at all is MissingCells.
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
