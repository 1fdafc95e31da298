// --start-at: prepare, then wait for one instant shared by every part. Also reads the target's
// clock (its Date header) so merge can say how far apart the parts' clocks were.
import { setTimeout as sleep } from 'node:timers/promises';
import { httpRequest } from './http-request.js';
import { joinUrl } from './targets.js';
import { NotReadyError } from '../util/errors.js';
import { StepAborted } from './step.js';

// The Date header counts whole seconds: polled this often until its second ticks, the tick
// places the target's clock to within the poll and one round trip.
const CLOCK_POLL_MS = 10;
const CLOCK_MAX_MS = 1500;
// The last stretch before the start is waited for by polling the clock, not by one timer:
// a timer may fire a few ms late on a busy machine.
const SPIN_MS = 15;

/**
 * The target's clock against ours from its Date header: { offsetMs, uncertaintyMs, source }
 * (positive: the target is ahead), or null. Polls until the header's second ticks.
 */
export async function readTargetClock(url, { timeoutMs = 2000 } = {}) {
  let previous = null;
  let previousSent = null;
  const deadline = Date.now() + CLOCK_MAX_MS;
  while (Date.now() < deadline) {
    const sent = Date.now();
    let date;
    try {
      const { headers } = await httpRequest(url, { timeoutMs, maxBodyBytes: 1024 * 1024 });
      date = Date.parse(headers.date ?? '');
    } catch {
      return null;
    }
    const received = Date.now();
    if (Number.isNaN(date)) return null;
    if (previous !== null && date > previous) {
      // The second ticked between our previous send and this answer: `date` was read then.
      const middle = (previousSent + received) / 2;
      return {
        offsetMs: Math.round(date - middle),
        uncertaintyMs: Math.round((received - previousSent) / 2),
        source: 'date-header',
      };
    }
    previous = date;
    previousSent = sent;
    await sleep(CLOCK_POLL_MS);
  }
  return null;
}

export function clockUrl(options, targets) {
  if (options.direct) return null;
  if (options.target) return joinUrl(options.target, 'healthz');
  return targets[0]?.url ?? null;
}

/**
 * Waits until `startAt`; rejects with NotReadyError when ready only after it (a late part would
 * skew the merge), StepAborted on abort. Resolves to { readyAt, began, lateMs }.
 */
export async function waitForStart(startAt, { signal, now = () => Date.now() } = {}) {
  const readyAt = now();
  const target = startAt.getTime();
  if (readyAt > target) {
    const lateSeconds = ((readyAt - target) / 1000).toFixed(3);
    throw new NotReadyError(`not ready in time for --start-at ${startAt.toISOString()}: ` +
      `ready ${lateSeconds} s after it (give the parts more time to prepare)`);
  }
  const coarse = target - now() - SPIN_MS;
  if (coarse > 0) {
    try {
      await sleep(coarse, undefined, { signal });
    } catch {
      throw new StepAborted();
    }
  }
  while (now() < target) {
    if (signal?.aborted) throw new StepAborted();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const began = now();
  return { readyAt: new Date(readyAt).toISOString(), began: new Date(began).toISOString(), lateMs: began - target };
}
