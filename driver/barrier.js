// --start-at: the driver prepares (target reachable, priming, load phase), then waits for one
// instant shared by every part, so that N drivers start their steps together. Also reads the
// target's clock (its Date header) so that merge can say how far apart the parts' clocks were.
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
 * The target's clock against ours, from its Date header at `url` (/healthz): resolves to
 * { offsetMs, uncertaintyMs, source } (target minus local; the target is ahead when positive),
 * or null when it sends no Date header or cannot be reached. Polls until the header's second
 * changes, at most CLOCK_MAX_MS.
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
      // The target's second ticked after our previous request was sent and before this answer came:
      // its clock read `date` at a local moment within [previousSent, received].
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

/** Where a run reads its target's clock: the app's /healthz, or a --url itself; null in direct mode. */
export function clockUrl(options, targets) {
  if (options.direct) return null;
  if (options.target) return joinUrl(options.target, 'healthz');
  return targets[0]?.url ?? null;
}

/**
 * Waits until `startAt` (a Date); rejects with NotReadyError when the driver was ready only after
 * it (a part not ready in time must not start late and skew the merge), StepAborted on abort.
 * Resolves to { readyAt, began, lateMs } (ISO times; lateMs how long after startAt it went on).
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
