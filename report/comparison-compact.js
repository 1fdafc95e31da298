// The comparison as node test prints it by default: per key one row per store and one column per
// level (its rps and rank there, then its store time and storeRank at each), so a rank that moves
// from level to level reads along a row. The same groups, ranks and figures as the full table
// (comparison-table.js, --verbose: a row per store and level, with latency and notes).
import { BASELINE_STORE, BASELINE_TOLERANCE, rowNamer } from '../result/comparison.js';
import { NOISE_FLOOR, STORE_TIME_FLOOR_MS, STORE_TIME_NOISE } from '../result/ranking.js';
import { errorsText } from '../result/honesty.js';
import { bottleneckText } from '../result/bottleneck.js';
import { bestGroup, orderRows } from '../result/summary.js';
import { WARNING_MARK, formatRps, renderTable } from './table.js';
import { groupsByKey, loadName, rankText } from './comparison-table.js';
import { showsStoreRank, storeP50Text, storeRankText } from './tiers-text.js';

const shortLoad = (group) => (group.model === 'open' ? `${group.load}rps` : String(group.load));

// Cells of one column padded to one width per part, so figures and ranks line up under a header.
function joinParts(parts) {
  const widths = [0, 1, 2].map((index) => Math.max(0, ...parts.filter(Boolean).map((cell) => cell[index].length)));
  return parts.map((cell) => (cell
    ? `${cell[0].padStart(widths[0])} ${cell[1].padEnd(widths[1])}${cell[2]}`.trimEnd()
    : '-'));
}

// A row's bottleneck across the levels: one word when every level says it, else each level's.
function bottlenecks(rows) {
  const words = rows.map((row) => (row ? bottleneckText(row.bottleneck) : '-'));
  return new Set(words).size === 1 ? words[0] : words.join(', ');
}

function legendLines(keyGroups, { drift, storeRanked, warned }) {
  const repeated = keyGroups.some((group) => group.rows.some((row) => row.repeats > 1));
  const drifted = drift === null ? '' : `, the control's drift (${Math.round(Math.abs(drift) * 100)}%)`;
  const apart = repeated
    ? 'their repeats\' rps ranges overlap (figures: the median of each store\'s repeats)'
    : `their rps differ by less than the noise (${NOISE_FLOOR * 100}%${drifted} or twice their steps' combined ` +
      'standard error)';
  const lines = [`rps@N: rps and its rank at that level; = a shared rank: not told apart, ${apart}`];
  if (storeRanked) {
    lines.push('store@N: storeP50 (the store\'s own time inside the app, Server-Timing, ms) and its storeRank ' +
      `(within ${STORE_TIME_NOISE * 100}% or ${STORE_TIME_FLOOR_MS} ms of the group's fastest: shared)`);
  }
  if (warned) {
    lines.push(`${WARNING_MARK} = that step carries a warning: the lines under its URL's table, the machine's in the ` +
      'Machine line; --verbose: a row per store and level with its latency');
  }
  return lines;
}

// The notes a key's full table gives one line each, gathered: failed stores, faster than memory, shared bottlenecks.
function noteLines(keyGroups) {
  const lines = [];
  const nameOf = rowNamer(keyGroups.flatMap((group) => group.rows));
  for (const group of keyGroups) {
    for (const row of group.rows.filter((candidate) => candidate.failed)) {
      lines.push(`${nameOf(row)} at ${loadName(group)}: failed, not ranked: ` +
        `no request succeeded (${errorsText(row.errors)})`);
    }
  }
  const faster = keyGroups.flatMap((group) => group.rows
    .filter((row) => row.warnings.includes('FASTER_THAN_BASELINE'))
    .map((row) => `${nameOf(row)} at ${loadName(group)}`));
  if (faster.length) {
    lines.push(`${WARNING_MARK} faster than ${BASELINE_STORE}, the in-process map, by more than ` +
      `${BASELINE_TOLERANCE * 100}% and the noise: ${faster.join(', ')}: nothing behind the app can be, so something ` +
      'other than the store decided those steps');
  }
  for (const tier of ['app', 'driver']) {
    const shared = keyGroups.filter((group) => group.bottleneck === tier);
    if (!shared.length) continue;
    const where = shared.length === keyGroups.length ? 'every level' : shared.map(loadName).join(', ');
    const storeRanked = shared.some(showsStoreRank) ? '; storeRank ranks the stores by their own time' : '';
    lines.push(`${where}: every store was limited by the ${tier}: its rps ranks the ${tier}'s cost per request, ` +
      `not the stores${storeRanked}`);
  }
  return lines;
}

/** The comparison, one compact table per key (and per operation of a mixed workload). */
export function renderCompactComparison(groups, { drift = null } = {}) {
  const sections = [];
  for (const [title, keyGroups] of groupsByKey(groups)) {
    const storeRanked = keyGroups.some(showsStoreRank);
    const best = bestGroup(keyGroups);
    // A row per store, and per framework where several served the run (--framework a,b).
    const all = keyGroups.flatMap((group) => group.rows);
    const byFramework = new Set(all.map((row) => row.framework)).size > 1;
    const idOf = (row) => `${row.store}\u0000${row.framework ?? ''}`;
    const firstOf = new Map(all.map((row) => [idOf(row), row]).reverse());
    const stores = [...new Set([...orderRows(best.rows, storeRanked ? 'store-time' : 'rps'), ...all].map(idOf))];
    const rowOf = (group, id) => group.rows.find((row) => idOf(row) === id) ?? null;
    const headers = byFramework ? ['store', 'framework'] : ['store'];
    const columns = [];
    for (const group of keyGroups) {
      headers.push(`rps@${shortLoad(group)}`);
      columns.push(joinParts(stores.map((id) => {
        const row = rowOf(group, id);
        if (!row) return null;
        const mark = row.warnings.length ? ` ${WARNING_MARK}` : '';
        return row.failed ? ['failed', '', mark] : [formatRps(row.rps), rankText(group, row), mark];
      })));
    }
    if (storeRanked) {
      for (const group of keyGroups) {
        headers.push(`store@${shortLoad(group)}`);
        columns.push(joinParts(stores.map((id) => {
          const row = rowOf(group, id);
          return row && !row.failed ? [storeP50Text(row), storeRankText(group, row), ''] : null;
        })));
      }
    }
    const limited = keyGroups.some((group) => group.rows.some((row) => row.bottleneck));
    if (limited) headers.push('bottleneck');
    const rows = stores.map((id, index) => {
      const { store, framework } = firstOf.get(id);
      const cells = [store, ...(byFramework ? [framework ?? '-'] : []), ...columns.map((column) => column[index])];
      if (limited) cells.push(bottlenecks(keyGroups.map((group) => rowOf(group, id))));
      return cells;
    });
    const warned = keyGroups.some((group) => group.rows.some((row) => row.warnings.length));
    const loads = keyGroups[0].model === 'open' ? 'target rps' : 'concurrency';
    const order = storeRanked ? 'their own time' : 'rps';
    sections.push([
      `## Comparison: ${title} (a row per store${byFramework ? ' and framework' : ''}, a column per ${loads}; ` +
        `in order of ${order} at ${loadName(best)}, ` +
        'where the stores were best told apart)',
      renderTable(headers, rows, { align: headers.map(() => 'left') }),
      ...legendLines(keyGroups, { drift, storeRanked, warned }),
      ...noteLines(keyGroups),
    ].join('\n'));
  }
  return sections.join('\n\n');
}
