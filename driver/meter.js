// The per-request accounting behind a step: this object only counts; the figures come from
// driver/step-figures.js. The sample is every request *started* while the window is open, each
// waited for until it ends: membership is decided before latency is known, so slow requests are
// not under-represented. The request path allocates one handle and nothing else.
import { createLatencyRecorder } from '../result/recorder.js';
import { latencySums } from '../result/add-steps.js';
import { STORE_TIME_SOURCES, storeTimeFigures } from '../result/store-time.js';
import { createTimeline } from '../result/timeline.js';
import { DeadlineList } from './deadlines.js';
import { errorSample, INTERVAL_NS, leastSquaresSlope, stepFigures } from './step-figures.js';

export class StepAborted extends Error {
  constructor() {
    super('step aborted');
    this.name = 'StepAborted';
  }
}

class InFlight {
  constructor(meter, counts, cancel, startNs, index, deadlineNs) {
    this.meter = meter;
    this.counts = counts;
    this.cancel = cancel;
    this.startNs = startNs;
    this.index = index;
    this.deadlineNs = deadlineNs;
    this.prev = null;
    this.next = null;
    this.listed = false; // in the deadline list (false once settled, or once asked to cancel)
    this.done = false;
    this.timedOut = false;
  }

  responded(status, body, storeMs) {
    this.meter.settle(this, status, null, body, storeMs);
  }

  failed(error) {
    this.meter.settle(this, null, error);
  }
}

class OperationCounts {
  constructor(operation) {
    this.operation = operation;
    this.recorder = createLatencyRecorder();
    this.storeRecorder = null; // made at the first store time
    this.timeline = createTimeline();
    this.errors = {};
    this.requests = 0;
    this.responses = 0;
  }
}

class LineFit {
  constructor() {
    this.n = 0;
    this.x = 0;
    this.y = 0;
    this.xx = 0;
    this.xy = 0;
  }

  add(x, y) {
    this.n += 1;
    this.x += x;
    this.y += y;
    this.xx += x * x;
    this.xy += x * y;
  }
}

const timeoutError = (timeoutMs) => Object.assign(new Error(`no response within ${timeoutMs} ms`), { code: 'TIMEOUT' });
const IGNORED = Object.freeze({ responded() {}, failed() {} });

/** The accounting of one step: `begin()` is the engines' Meter; the rest is measureStep's. */
export class StepMeter {
  constructor({ rps, timeoutMs, operations = ['read'] }) {
    this.operationNames = operations;
    this.byOperation = new Map(operations.map((operation) => [operation, new OperationCounts(operation)]));
    this.firstOperation = operations[0];
    this.rps = rps;
    this.intervalNs = rps ? 1e9 / rps : 0;
    this.timeoutMs = timeoutMs;
    this.timeoutNs = timeoutMs * 1e6;
    // Whole nanoseconds as numbers (exact for 104 days): no bigint arithmetic per request.
    this.originNs = process.hrtime.bigint();
    this.deadlines = new DeadlineList(timeoutMs, () => this.now(), (request) => this.expire(request));
    this.inFlight = 0;
    this.open = true;
    this.onIdle = null;
    this.firstStartNs = null;
    this.lastStartNs = null;
    this.lastEndNs = null; // the last settle: loadtest's and ab's elapsed time ends here
    this.created = 0;
    this.responses = 0;
    this.peakInFlight = 0;
    this.tailCount = 0;
    this.tailSumNs = 0;
    this.fit = new LineFit();
    this.samples = {};
    this.intervals = []; // responses per INTERVAL_NS from the first start
  }

  now() {
    return Number(process.hrtime.bigint() - this.originNs);
  }

  begin(cancel, operation = this.firstOperation) {
    if (!this.open) return IGNORED; // the window has closed: not part of this step
    const counts = this.byOperation.get(operation);
    if (!counts) {
      throw new TypeError(`operation ${operation} is not one of this step's (${this.operationNames.join(', ')})`);
    }
    counts.requests += 1;
    const createdNs = this.now();
    this.firstStartNs ??= createdNs;
    this.lastStartNs = createdNs;
    this.tailCount = 0;
    this.tailSumNs = 0;
    let startNs = createdNs;
    const index = this.created;
    if (this.rps) {
      const intendedNs = this.firstStartNs + Math.round(index * this.intervalNs);
      if (intendedNs < createdNs) startNs = intendedNs; // the driver fell behind: that wait is latency too
    }
    this.created += 1;
    this.inFlight += 1;
    if (this.inFlight > this.peakInFlight) this.peakInFlight = this.inFlight;
    const request = new InFlight(this, counts, cancel, startNs, index, createdNs + this.timeoutNs);
    this.deadlines.add(request);
    return request;
  }

  settle(request, status, error, body, storeMs = -1) {
    if (request.done) return; // settled already
    request.done = true;
    const endNs = this.now();
    this.lastEndNs = endNs;
    this.deadlines.settled(request);
    this.inFlight -= 1;
    this.tailCount += 1;
    this.tailSumNs += endNs - this.lastStartNs;
    const { counts } = request;
    const offsetNs = endNs - this.firstStartNs;
    if (error) {
      const kind = request.timedOut ? 'timeout' : `conn ${error.code ?? error.message}`;
      this.countError(counts, kind, error.message, offsetNs);
    } else {
      this.responses += 1;
      counts.responses += 1;
      const latencyNs = endNs - request.startNs;
      counts.recorder.recordNs(latencyNs);
      if (storeMs >= 0 && status >= 200 && status <= 299) {
        const storeNs = Math.round(storeMs * 1e6);
        (counts.storeRecorder ??= createLatencyRecorder()).recordNs(storeNs);
        counts.timeline.response(offsetNs, latencyNs, storeNs);
      } else {
        counts.timeline.response(offsetNs, latencyNs);
      }
      const interval = Math.floor(offsetNs / INTERVAL_NS);
      this.intervals[interval] = (this.intervals[interval] ?? 0) + 1;
      if (status < 200 || status > 299) this.countError(counts, `http ${status}`, body, offsetNs);
      if (this.rps) this.fit.add((request.index * this.intervalNs) / 1e9, latencyNs / 1e9);
    }
    if (this.inFlight === 0) this.onIdle?.();
  }

  countError(counts, kind, detail, offsetNs) {
    counts.errors[kind] = (counts.errors[kind] ?? 0) + 1;
    counts.timeline.error(offsetNs, kind);
    if (this.samples[kind] === undefined && detail) this.samples[kind] = errorSample(detail);
  }

  // Past its deadline: counted as a timeout. An engine that can cancel is asked to (its own
  // timeout may only reset on an idle socket and leave the request running).
  expire(request) {
    request.timedOut = true;
    if (!request.cancel) return this.settle(request, null, timeoutError(this.timeoutMs));
    this.deadlines.cancelling(request);
    request.cancel(timeoutError(this.timeoutMs));
  }

  /** Closes the window: requests begun from now on are not part of the step. Those in flight still are. */
  close() {
    this.open = false;
  }

  /** Resolves once every request has ended; one unsettled past deadlineMs counts as a timeout. */
  async drain(deadlineMs, signal) {
    if (this.inFlight === 0) return this.deadlines.stop();
    let giveUp;
    let onAbort;
    try {
      await new Promise((resolve, reject) => {
        this.onIdle = resolve;
        giveUp = setTimeout(resolve, deadlineMs);
        onAbort = () => reject(new StepAborted());
        if (signal?.aborted) onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    } finally {
      this.onIdle = null;
      clearTimeout(giveUp);
      signal?.removeEventListener('abort', onAbort);
    }
    this.deadlines.stop();
    for (const request of this.deadlines.unsettled()) {
      request.timedOut = true;
      this.settle(request, null, timeoutError(this.timeoutMs));
    }
  }

  abandon() {
    this.deadlines.stop();
    for (const request of this.deadlines.unsettled()) {
      request.done = true;
      this.deadlines.settled(request);
    }
    this.inFlight = 0;
  }

  /** The step's figures (step-figures.js stepFigures); frees the recorders, so call it once. */
  figures() {
    const spanNs = this.firstStartNs !== null && this.lastEndNs !== null ? this.lastEndNs - this.firstStartNs : 0;
    const parts = [...this.byOperation.values()];
    const all = parts.length === 1 ? parts[0].recorder : createLatencyRecorder();
    if (parts.length > 1) for (const part of parts) all.add(part.recorder);
    const stored = parts.filter((part) => part.storeRecorder);
    const allStored = stored.length > 1 ? createLatencyRecorder() : stored[0]?.storeRecorder ?? null;
    if (stored.length > 1) for (const part of stored) allStored.add(part.storeRecorder);
    const operations = parts.map((part) => {
      const kept = {
        operation: part.operation,
        requests: part.requests,
        responses: part.responses,
        errors: part.errors,
        latency: part.recorder.summary(),
        histogram: part.recorder.encode(),
        sums: latencySums(part.recorder),
        storeTime: part.storeRecorder ? storeTimeOf(part.storeRecorder) : null,
        timeline: part.timeline.samples(spanNs),
      };
      if (part.recorder !== all) part.recorder.destroy();
      if (part.storeRecorder !== allStored) part.storeRecorder?.destroy();
      return kept;
    });
    const total = {
      latency: all.summary(),
      histogram: all.encode(),
      sums: latencySums(all),
      storeTime: allStored ? storeTimeOf(allStored) : null,
    };
    all.destroy();
    allStored?.destroy();
    return stepFigures({
      rps: this.rps,
      intervalNs: this.intervalNs,
      requests: this.created,
      responses: this.responses,
      peakInFlight: this.peakInFlight,
      firstStartNs: this.firstStartNs,
      lastStartNs: this.lastStartNs,
      lastEndNs: this.lastEndNs,
      tailCount: this.tailCount,
      tailSumNs: this.tailSumNs,
      slope: this.rps ? leastSquaresSlope(this.fit) : 0,
      samples: this.samples,
      intervals: this.intervals,
      operations,
      total,
    });
  }
}

const storeTimeOf = (recorder) =>
  storeTimeFigures(STORE_TIME_SOURCES.serverTiming, recorder.summary(), recorder.encode(), latencySums(recorder));
