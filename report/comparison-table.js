// The comparison as text: one table per key, stores fastest first with their ranks (ties share
// one: result/ranking.js); with --repeat, medians with the repeats' range.
import { BASELINE_STORE, BASELINE_TOLERANCE, rowNamer } from '../result/comparison.js';
import { NOISE_FLOOR } from '../result/ranking.js';
import { errorsText } from '../result/honesty.js';
import { WARNING_MARK, formatMs, formatRps, renderTable } from './table.js';
import { sharedBottleneckLine, showsStoreRank, storeP50Text, storeRankText, storeTimeLegend } from './tiers-text.js';
import { bottleneckText } from '../result/bottleneck.js';

/** "6900-7400" from a spread's min and max (or its ciLow and ciHigh), each shown by `format`. */
export function formatRange(low, high, format) {
  return low === null || high === null ? '-' : `${format(low)}-${format(high)}`;
}

export const loadName = (group) => (group.model === 'open' ? `${group.load} rps` : `concurrency ${group.load}`);

export function rankText(group, row) {
  if (row.rank === null) return '-';
  return group.rows.some((other) => other !== row && other.rank === row.rank) ? `${row.rank}=` : String(row.rank);
}

/** The stores of a group that share a rank with another, by rank: [[rank, [name...]]] (nameOf: a row's name). */
export function tiedRanks(group, nameOf = (row) => row.store) {
  const byRank = new Map();
  for (const row of group.rows) {
    if (row.rank === null) continue;
    if (!byRank.has(row.rank)) byRank.set(row.rank, []);
    byRank.get(row.rank).push(nameOf(row));
  }
  return [...byRank].filter(([, stores]) => stores.length > 1);
}

/** The note lines under a key's table: failed stores, baseline violations, then stores not told apart. */
function notes(keyGroups, { drift }) {
  const lines = [];
  const nameOf = rowNamer(keyGroups.flatMap((group) => group.rows));
  for (const group of keyGroups) {
    for (const row of group.rows.filter((candidate) => candidate.failed)) {
      lines.push(`${nameOf(row)} at ${loadName(group)}: failed, not ranked: ` +
        `no request succeeded (${errorsText(row.errors)})`);
    }
  }
  for (const group of keyGroups) {
    for (const row of group.rows) {
      const baseline = group.rows.find((other) => other.store === BASELINE_STORE && other.framework === row.framework);
      if (!baseline || !row.warnings.includes('FASTER_THAN_BASELINE')) continue;
      const faster = Math.round((row.rps / baseline.rps - 1) * 100);
      lines.push(`${WARNING_MARK} ${nameOf(row)} at ${loadName(group)}: ${faster}% faster than ${BASELINE_STORE}, ` +
        'the in-process map, beyond the noise: ' +
        'nothing behind the app can be, so something other than the store decided this step ' +
        `(more than ${BASELINE_TOLERANCE * 100}% flags it)`);
    }
  }
  const repeated = keyGroups.some((group) => group.rows.some((row) => row.repeats > 1));
  for (const group of keyGroups) {
    for (const [rank, stores] of tiedRanks(group, nameOf)) {
      lines.push(`${loadName(group)}: ${stores.join(', ')} share rank ${rank}: not told apart here`);
    }
  }
  if (keyGroups.some((group) => tiedRanks(group).length)) {
    const drifted = drift === null ? '' : `the control's drift (${Math.round(Math.abs(drift) * 100)}%), `;
    lines.push(repeated
      ? 'not told apart: their rps ranges over the repeats overlap'
      : `not told apart: their rps differ by less than the noise: ${NOISE_FLOOR * 100}%, ${drifted}` +
        'or twice their steps\' combined standard error, whichever is largest');
  }
  return lines;
}

/**
 * The comparison's groups by key (and operation of a mixed workload): Map title -> its groups, one
 * per load, leaving out a group of one row, which compares nothing.
 */
export function groupsByKey(groups) {
  const byKey = new Map();
  for (const group of groups) {
    if (group.rows.length < 2) continue;
    const title = group.operation ? `${group.key} · ${group.operation}` : group.key;
    if (!byKey.has(title)) byKey.set(title, []);
    byKey.get(title).push(group);
  }
  return byKey;
}

/** The comparison, one table per key (and per operation of a mixed workload). */
export function renderComparison(groups, { drift = null } = {}) {
  const sections = [];
  for (const [key, keyGroups] of groupsByKey(groups)) {
    const repeated = keyGroups.some((group) => group.rows.some((row) => row.repeats > 1));
    const interval = keyGroups.some((group) => group.rows.some((row) => row.spread.rps.ciLow !== null));
    const loadHeader = keyGroups[0].model === 'open' ? 'targetRps' : 'concurrency';
    const byFramework = new Set(keyGroups.flatMap((group) => group.rows.map((row) => row.framework))).size > 1;
    const headers = [loadHeader, 'rank', 'store', ...(byFramework ? ['framework'] : []), 'rps'];
    if (repeated) headers.push('rps min-max');
    if (interval) headers.push('rps 95% CI');
    headers.push('meanLatencyMs', 'p99', 'rps/fastest', 'errors');
    const limited = keyGroups.some((group) => group.rows.some((row) => row.bottleneck));
    const storeRanked = keyGroups.some(showsStoreRank);
    if (limited) headers.push('bottleneck');
    if (storeRanked) headers.push('storeP50', 'storeRank');
    const rows = keyGroups.flatMap((group) =>
      group.rows.map((row, index) => {
        const store = row.warnings.length ? `${row.store} ${WARNING_MARK}` : row.store;
        const cells = [
          index === 0 ? String(group.load) : '',
          rankText(group, row),
          store,
          ...(byFramework ? [row.framework ?? '-'] : []),
          row.failed ? 'failed' : formatRps(row.rps),
        ];
        const { rps } = row.spread;
        if (repeated) cells.push(row.failed ? '-' : formatRange(rps.min, rps.max, formatRps));
        if (interval) cells.push(row.failed ? '-' : formatRange(rps.ciLow, rps.ciHigh, formatRps));
        const latency = row.failed ? ['-', '-'] : [formatMs(row.latency.meanMs), formatMs(row.latency.p99Ms)];
        cells.push(...latency, row.ratio === null ? '-' : row.ratio.toFixed(2), String(row.errors.total));
        if (limited) cells.push(bottleneckText(row.bottleneck));
        if (storeRanked) {
          cells.push(storeP50Text(row), showsStoreRank(group) ? storeRankText(group, row) : '-');
        }
        return cells;
      }),
    );
    const align = headers.map((header) => (['store', 'framework', 'bottleneck'].includes(header) ? 'left' : 'right'));
    const lines = [
      `## Comparison: ${key} (rank: stores not told apart share one; ` +
        'rps/fastest = the store\'s rps divided by the fastest store\'s at that level)',
      renderTable(headers, rows, { align }),
    ];
    if (repeated) {
      const ci = interval ? '; 95% CI: of the mean of the repeats' : '';
      lines.push(`figures: the median of each store's repeats${ci}`);
    }
    const stepWarned = keyGroups.some((group) =>
      group.rows.some((row) => row.warnings.some((code) => code !== 'FASTER_THAN_BASELINE')));
    if (stepWarned) {
      lines.push(`${WARNING_MARK} = ${repeated ? 'a repeat\'s' : 'that step\'s'} figures carry a warning: ` +
        'see the warning lines under its URL\'s table');
    }
    if (storeRanked) lines.push(storeTimeLegend());
    lines.push(...notes(keyGroups, { drift }));
    lines.push(...keyGroups.map((group) => sharedBottleneckLine(group, loadName(group))).filter(Boolean));
    sections.push(lines.join('\n'));
  }
  return sections.join('\n\n');
}
