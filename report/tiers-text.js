// Where each step's time went, as text: its bottleneck and each tier's CPU µs per response.
import { bottleneckText } from '../result/bottleneck.js';
import { formatStoreMs } from './store-time.js';
import { STORE_ANSWERED_MIN, STORE_TIME_FLOOR_MS, STORE_TIME_NOISE } from '../result/ranking.js';

const loadLabel = (step) => (step.model === 'open' ? `${step.targetRps} rps` : `concurrency ${step.concurrency}`);
const micros = (value) => (value === null || value === undefined ? '-' : String(Math.round(value)));

/** "driver 150, app 310, redis 40": each tier's CPU µs per response ('-' where not measured). */
export function microsText(tiers) {
  const parts = [`driver ${micros(tiers.driver.microsPerResponse)}`];
  if (tiers.app) parts.push(`app ${micros(tiers.app.microsPerResponse)}`);
  for (const server of tiers.servers) parts.push(`${server.name} ${micros(server.microsPerResponse)}`);
  return parts.join(', ');
}

/** One line per step that has tiers; '' when none has them (an older file, a merged run). */
export function renderTierLines(steps) {
  const withTiers = steps.filter((step) => step.tiers);
  const repeated = withTiers.some((step) => step.repeat > 1);
  return withTiers.map((step) => {
    const label = `${loadLabel(step)}${repeated ? ` (repeat ${step.repeat})` : ''}`;
    const { bottleneck } = step;
    const verdict = bottleneck?.tier ? `bottleneck ${bottleneckText(bottleneck)}` : 'bottleneck not told';
    return `${label}: ${verdict} (${bottleneck?.evidence ?? 'not measured'}) · ` +
      `CPU µs per response: ${microsText(step.tiers)}`;
  }).join('\n');
}

const TIER_NAMES = { app: 'the app', driver: 'the driver' };

/** The line under a group sharing an app or driver bottleneck: its rps ranks that tier's cost, not the stores. */
export function sharedBottleneckLine(group, loadName) {
  const who = TIER_NAMES[group.bottleneck];
  if (!who) return '';
  const storeRanked = group.rows.some((row) => row.storeRank !== null && row.storeRank !== undefined);
  const instead = storeRanked ? '; storeRank ranks the stores by their own time inside the app (p50)' : '';
  return `${loadName}: every store was limited by ${who}: its rps ranks ${who}'s cost per request, ` +
    `not the stores${instead}`;
}

/**
 * Whether a group shows store times and ranks (where the app sent Server-Timing), whatever
 * limited rps, so the stores' own times are seen where something else decided the ranks.
 */
export const showsStoreRank = (group) =>
  group.rows.some((row) => row.storeRank !== null && row.storeRank !== undefined);

export const storeP50Text = (row) => formatStoreMs(row.storeTime?.p50Ms);

/** "1", or "1=" when another row shares it; "-" without one; "4 (50% answered)" for a store that failed requests. */
export function storeRankText(group, row) {
  if (row.storeRank === null || row.storeRank === undefined) return '-';
  const rank = group.rows.some((other) => other !== row && other.storeRank === row.storeRank)
    ? `${row.storeRank}=`
    : String(row.storeRank);
  const answered = row.storeAnswered;
  return Number.isFinite(answered) && answered < STORE_ANSWERED_MIN
    ? `${rank} (${Math.floor(answered * 100)}% answered)`
    : rank;
}

/** What the comparison's storeP50 and storeRank columns mean, in one line. */
export const storeTimeLegend = () => 'storeP50 = the store\'s own time inside the app (Server-Timing, ms); ' +
  `storeRank = its rank by that time (within ${STORE_TIME_NOISE * 100}% or ${STORE_TIME_FLOOR_MS} ms of the ` +
  'group\'s fastest, or within the run\'s noise: a shared rank; a store that answered under ' +
  `${STORE_ANSWERED_MIN * 100}% of its requests ranks after all others, its share beside)`;
