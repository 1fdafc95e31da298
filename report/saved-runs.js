// node test runs: the runs kept in storebench-results/, one line each: when, which stores, at
// which levels, and the fastest store by its own time (the summary's first, result/summary.js).
import { summarizeRun } from '../result/summary.js';
import { storesOf } from '../result/against-last.js';

const SHOWN_STORES = 4;

function storesText(result) {
  const stores = storesOf(result);
  if (stores.length <= SHOWN_STORES) return stores.join(', ');
  return `${stores.length} stores (${stores.slice(0, SHOWN_STORES).join(', ')}, ...)`;
}

function levelsText({ concurrency, rps }) {
  return rps ? `${rps.join(', ')} rps` : `concurrency ${concurrency.join(', ')}`;
}

/** "fastest by store time: memory", over every key's first (a store per key when they differ). */
function fastestText(result) {
  const summary = summarizeRun(result);
  if (!summary.keys.length) return 'no step finished';
  const by = summary.keys.every((key) => key.by === 'store-time') ? 'store time' : 'rps';
  const firsts = summary.keys.map((key) => ({
    key: key.key,
    stores: key.stores.filter((entry) => !entry.failed &&
      (key.by === 'store-time' ? entry.storeRank : entry.rank) === 1).map((entry) => entry.store),
  }));
  const same = firsts.every((first) => first.stores.join() === firsts[0].stores.join());
  const named = (stores) => stores.join(' = ') || '-';
  return same
    ? `fastest by ${by}: ${named(firsts[0].stores)}`
    : `fastest by ${by}: ${firsts.map((first) => `${named(first.stores)} (${first.key})`).join(', ')}`;
}

/**
 * One line per saved run: `runs` is [{ name, folder, result, problem }], oldest first, each
 * with its Result or the reason it could not be read. `shown(folder)` words the folder.
 */
export function renderRunsList(runs, { dir, shown = (folder) => folder }) {
  if (!runs.length) return `no saved runs in ${dir}/ (a run keeps itself there unless --no-save)\n`;
  const lines = runs.map(({ folder, result, problem }) => {
    if (!result) return `${shown(folder)}  cannot be read: ${problem}`;
    const state = result.interrupted ? '  [interrupted]' : /-failed$/.test(folder) ? '  [failed]' : '';
    const when = result.system.date.replace(/\.\d+Z$/, 'Z');
    return `${when}  ${storesText(result)}  ${levelsText(result.settings)}  ${fastestText(result)}  ` +
      `${shown(folder)}${state}`;
  });
  return `${lines.join('\n')}\n`;
}
