// The summary a sweep ends with, as text: one table of the stores in order of their own time,
// one line per key (the level shown, what limited it), and what would tell the stores apart
// better where it applies. The claims are result/summary.js's; nothing here is computed anew.
import { formatRps, renderTable } from './table.js';
import { formatStoreMs } from './store-time.js';

const TIERS = {
  app: 'the app',
  driver: 'the driver',
  machine: 'the machine, its other processes or steal',
  latency: 'latency, the clients waiting on the store or the network',
};

const plural = (count, noun) => `${count} ${noun}${count === 1 ? '' : 's'}`;

const levelName = (model, load) => (model === 'open' ? `${load} rps` : `concurrency ${load}`);

/** "the app (48 of 52 steps)", "a store's server, redis (3 of 4 steps)". */
function limiterText(limiter) {
  if (!limiter) return 'nothing told (a tier could not be measured)';
  const who = limiter.tier === 'server' ? `a store's server, ${limiter.servers.join(', ')}` : TIERS[limiter.tier];
  return `${who} (${limiter.steps} of ${limiter.of} steps)`;
}

function rankCell(entry, stores, by) {
  if (entry.failed) return '-';
  const rank = by === 'store-time' ? entry.storeRank : entry.rank;
  if (rank === null) return '-';
  const shared = stores.some((other) => other !== entry && !other.failed &&
    (by === 'store-time' ? other.storeRank : other.rank) === rank);
  return shared ? `${rank}=` : String(rank);
}

function keyLine(summary) {
  const { apart } = summary;
  const level = levelName(summary.model, summary.load);
  let told;
  if (apart.ranked < 2) told = 'one store ranked: nothing to tell apart';
  else {
    const storeRanks = summary.by === 'store-time' ? `, ${apart.storeRanks} by store time` : '';
    told = `${plural(apart.rpsRanks, 'rps rank')}${storeRanks} among ${apart.ranked} stores`;
  }
  const changes = summary.storeRankChanges;
  let order = '';
  if (summary.by === 'store-time' && summary.loads.length > 1 && apart.ranked > 1) {
    order = changes.length
      ? `; storeRank differs at ${changes.map((load) => levelName(summary.model, load)).join(', ')}`
      : '; storeRank the same at every level';
  }
  const limited = summary.limiter
    ? `most steps limited by ${limiterText(summary.limiter)}`
    : 'what limited the steps not told (a tier could not be measured)';
  return `${summary.key}: rps at ${level} (${told})${order}; ${limited}`;
}

function hintText(hint) {
  if (hint.flag === '--app-workers auto') {
    return `--app-workers auto (the app limited ${hint.limiter.steps} of ${hint.limiter.of} steps: its rps ranked ` +
      'the app\'s cost per request, not the stores)';
  }
  if (hint.flag === '--framework') {
    return `--framework (the app limited ${hint.limiter.steps} of ${hint.limiter.of} steps under ${hint.framework}: ` +
      'another framework costs the app less or more per request)';
  }
  if (hint.flag === '--repeat 3') {
    const why = [];
    if (hint.busy) why.push(`${hint.busy} of ${hint.of} steps ran on a busy machine`);
    if (hint.drift !== null) why.push(`the control drifted ${Math.round(hint.drift * 100)}%`);
    return `--repeat 3 (${why.join('; ')}: repeats interleave and give each store a range)`;
  }
  const limited = hint.limiter?.tier === 'machine'
    ? `the machine limited ${hint.limiter.steps} of ${hint.limiter.of} steps`
    : `${hint.busy} of ${hint.of} steps ran on a busy machine, repeats and all`;
  return `a quieter machine (${limited})`;
}

const ratioText = (value) => `${value.toFixed(2)}x`;

function switchingLines(switching) {
  return switching.others.map((other) => {
    const change = other.ratio === null
      ? `no store, key and level ran under both ${switching.baseline} and ${other.framework}`
      : `${other.framework}'s rps was ${ratioText(other.ratio)} ${switching.baseline}'s (the median over the ` +
        `${plural(other.cells, 'store, key and level')} both ran: ${ratioText(other.low)}-${ratioText(other.high)})`;
    return `switching framework: ${change}; most steps limited by ${limiterText(switching.limiter)} under ` +
      `${switching.baseline}, by ${limiterText(other.limiter)} under ${other.framework}`;
  });
}

const FIGURE_NAMES = { rps: 'rps', 'latency.meanMs': 'mean', 'latency.p50Ms': 'p50', 'latency.p99Ms': 'p99' };
const signedPercent = (value) => `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(Math.round(value))}%`;
const SHOWN_CHANGES = 4;

/** The lines that set a run against the last saved ones (result/against-last.js); [] without any. */
function renderAgainstLast(against) {
  if (!against) return [];
  const lines = [];
  const { last, differing } = against;
  if (last) lines.push(...changeLines(last));
  if (differing) {
    const which = last ? 'a later run of these stores' : 'the last run of these stores';
    lines.push(`${which} (${differing.date}) is not compared: its settings differ: ${differing.settings.join('; ')}`);
  }
  return lines;
}

function changeLines(last) {
  const head = `against the last run (${last.date})`;
  if (!last.compared) return [`${head}: no step of it matches one of this run (same store, key and level)`];
  const spread = last.changes
    ? `; rps ${signedPercent(last.changes.low)} to ${signedPercent(last.changes.high)} ` +
      `(median ${signedPercent(last.changes.median)})`
    : '';
  let noise;
  if (!last.judged) {
    noise = 'no change judged against noise: one run per step (--repeat 3 on both runs judges them)';
  } else if (!last.beyond.length) {
    noise = `every figure within noise in the ${last.judged} step(s) with repeats on both sides`;
  } else {
    const shown = last.beyond.slice(0, SHOWN_CHANGES).map((change) =>
      `${change.store} ${change.key} ${levelName(change.model, change.load)} ${FIGURE_NAMES[change.name]} ` +
      `${signedPercent(change.changePercent)}`);
    const more = last.beyond.length > SHOWN_CHANGES
      ? ` and ${last.beyond.length - SHOWN_CHANGES} more (node test compare)`
      : '';
    noise = `beyond noise: ${shown.join(', ')}${more}`;
  }
  const moved = last.moves.length
    ? `the summary's ranks moved since: ${last.moves.map((move) =>
      `${move.key} ${move.store} ${move.from} -> ${move.to}`).join(', ')}`
    : 'the summary\'s ranks are the same as then';
  return [`${head}: ${last.compared} step(s) compared${spread}; ${noise}`, moved];
}

/**
 * The summary as text (at most about 30 lines), or '' for a Result with no compared key;
 * `against`: the last saved run's comparison (result/against-last.js), its lines last.
 */
export function renderSummary(summary, { against = null } = {}) {
  if (!summary.keys.length) return '';
  const timed = summary.keys.some((key) => key.by === 'store-time');
  const storeOrder = [...new Set(summary.keys.flatMap((key) => key.stores.map((entry) => entry.store)))];
  const headers = ['store'];
  for (const key of summary.keys) {
    headers.push(`${key.key} rank`);
    if (timed) headers.push('storeP50');
    headers.push('rps');
  }
  const rows = storeOrder.map((store) => {
    const cells = [store];
    for (const key of summary.keys) {
      const entry = key.stores.find((candidate) => candidate.store === store);
      if (!entry) {
        cells.push('-', ...(timed ? ['-'] : []), '-');
        continue;
      }
      cells.push(rankCell(entry, key.stores, key.by));
      if (timed) cells.push(entry.failed ? '-' : formatStoreMs(entry.storeP50Ms));
      cells.push(entry.failed ? 'failed' : formatRps(entry.rps));
    }
    return cells;
  });
  const first = summary.keys[0];
  const rankedBy = timed
    ? 'ranked by their own time inside the app (storeP50: Server-Timing p50, ms)'
    : 'ranked by rps (the target sent no store time)';
  const under = summary.frameworks.length > 1 ? `, under ${summary.framework}` : '';
  const order = summary.keys.length > 1 ? `; in ${first.key}'s order` : '';
  const lines = [
    `## Summary: the stores ${rankedBy}${under}; rps at the level that told them apart best${order}; ` +
      '= a shared rank: not told apart',
    renderTable(headers, rows, { align: headers.map((header) => (header === 'store' ? 'left' : 'right')) }),
    ...summary.keys.map(keyLine),
  ];
  if (summary.switching) lines.push(...switchingLines(summary.switching));
  if (summary.hints.length) lines.push(`to tell the stores apart better: ${summary.hints.map(hintText).join('; ')}`);
  lines.push(...renderAgainstLast(against));
  return lines.join('\n');
}
