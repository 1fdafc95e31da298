// The direct engine: the load goes to a store adapter's opened Store in this process, no
// HTTP in between (`node test --direct`). driver/step.js times and counts every call exactly
// as it does the HTTP engine's requests, so a direct step means what an HTTP step means,
// minus the app and the network.
//
// The contract (what a caller of this engine, and anyone building on it, can rely on):
// - `load.store` is an opened Store (stores/contract.js): the adapter's own object, not the
//   app's StoreSet, so no operation deadline of the app and no re-seeding sits on the path.
//   The engine never opens or closes it: whoever opened it does.
// - `load.key`: without a workload, every call is `store.get(load.key)`; a value -> 200, null
//   -> 404 (what GET /<store>/<key> would answer).
// - With `load.workload` (driver/workloads/workload.js), each WorkloadRequest from next() is
//   mapped onto the store by its method and path, the key being the path's last segment (or
//   the one before `/append`), whatever the base path is ('' in direct mode):
//     GET -> get (200, or 404 for null); PUT -> set (204); POST .../append -> append (204,
//     405 when the store has no append); DELETE -> delete (204); a request with `then`
//     (read-modify-write) -> get, then, when it found the key, set of then.body (204; a
//     function of the value read makes it from that value).
//   A thrown ValueTooLargeError (code VALUE_TOO_LARGE) answers 413, as the app would; any other
//   error is meter `failed(error)`. The request's settle(status, stage) is called once, with
//   the status (null on an error) and the stage (0, or 1 for the set after the get).
// - Closed loop: `concurrency` callers, each starting its next call when its last one settled.
//   Open model (`rps`): calls start on the schedule (the i-th at i/rps after the first),
//   however many are in flight; the meter counts latency from each one's intended start.
//   `concurrency` plays no part there.
// - `pipeline` N (closed loop only; default 1): each caller sends N calls in one tick, and its
//   next N when all N settled (redis-benchmark -P): a client that pipelines writes them
//   together. Each call is begun, timed and counted on its own, from its own start. A store
//   with pipelined() (stores/contract.js) pipelines on connections of its own: caller i sends
//   its calls through the i-th (modulo their number), as redis-benchmark's client i does.
// - `maxRequests`: exactly that many calls are started (with a pipeline, the last batch is short).
//   `durationSeconds`: none starts after
//   that long. An abort of `signal`: none starts after it. run() resolves as soon as the load
//   is over (the last call started, or the time is up), not when the calls in flight end:
//   the meter waits for those, up to its deadline. A store call cannot be cancelled: at the
//   deadline (the meter's cancel) the engine stops waiting for it (the meter counts a
//   timeout, the request settles with null) and leaves it to finish unheard, so a frozen
//   store cannot hold a -n step for ever.
// - Per call the engine allocates nothing of its own beyond the promise the store returns (and,
//   with a workload, the key cut from the path): each caller's callbacks are made once.
import { LoadRun } from './load-run.js';

const STATUS = { found: 200, missing: 404, written: 204, unsupported: 405, tooLarge: 413 };

/**
 * The key a workload request's path names: its last segment, or for a POST (an append, to
 * <base>/<key>/append) the one before. Any base path ('' in direct mode), trailing slashes and
 * percent-encoding are fine.
 */
export function keyOfPath(path, method = 'GET') {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end -= 1; // trailing slashes
  let start = path.lastIndexOf('/', end - 1) + 1;
  if (method === 'POST' && path.slice(start, end) === 'append') {
    end = start - 1;
    start = path.lastIndexOf('/', end - 1) + 1;
  }
  const segment = path.slice(start, end);
  return segment.includes('%') ? decodeURIComponent(segment) : segment;
}

const isAppend = (request) => request.method === 'POST';
const MISSING = 'the key is not in the store';

// The status the app would answer for a store error, or null when the app would not answer one
// of its own (an outage: the meter counts it as failed).
const statusOfError = (error) => (error?.code === 'VALUE_TOO_LARGE' ? STATUS.tooLarge : null);

// Calls of a store that answers without I/O (memory) settle in microtasks, which would keep
// the event loop from ever reaching the step's timer: every this many starts, a caller waits
// for the next turn of the loop first.
const YIELD_EVERY = 256;

// One caller: sends a call, and when it settles, records it and tells its owner (the run, or
// with --pipeline its batch), which starts the next. Its callbacks are bound once, so a call
// costs only the store's own promise.
class Caller {
  constructor(run, owner = run, store = run.store) {
    this.run = run;
    this.owner = owner;
    this.store = store;
    this.handle = null;
    this.request = null;
    this.stage = 0;
    this.onRead = (value) => (value == null ? this.end(STATUS.missing, null, MISSING) : this.end(STATUS.found));
    this.onWritten = () => this.end(STATUS.written);
    this.onFirstRead = (value) => {
      if (this.handle === null) return; // abandoned at its deadline
      if (value == null) return this.end(STATUS.missing, null, MISSING);
      this.stage = 1;
      const { then } = this.request;
      // A body made from the value read (a change of it), or given whole.
      const body = typeof then.body === 'function' ? then.body(value) : then.body;
      this.send('set', keyOfPath(then.path), body, this.onWritten);
    };
    this.onError = (error) => {
      const status = statusOfError(error);
      if (status === null) this.end(null, error);
      else this.end(status, null, error.message);
    };
    // Past the deadline: the meter counts a timeout, the call is left to finish unheard, and
    // this caller is retired (its late callbacks find no handle), a fresh one taking its place.
    this.onDeadline = (error) => {
      this.dead = true;
      this.end(null, error);
    };
    this.dead = false;
    this.start = () => this.next();
  }

  // One store call; a method that throws at once (a closed client) fails the call like a rejection.
  send(method, key, body, onValue) {
    let pending;
    try {
      pending = method === 'get' ? this.store.get(key) : this.store[method](key, body);
    } catch (error) {
      this.onError(error);
      return;
    }
    pending.then(onValue, this.onError);
  }

  // Starts this caller's next call (one the run already counted in take()).
  next() {
    const { run } = this;
    if (run.stopped) return; // deferred past the end of the load: not sent
    this.stage = 0;
    const { workload } = run;
    if (!workload) {
      this.handle = run.meter.begin(this.onDeadline);
      run.begun();
      this.send('get', run.key, undefined, this.onRead);
      return;
    }
    const request = workload.next();
    this.request = request;
    this.handle = run.meter.begin(this.onDeadline, request.operation);
    run.begun();
    const key = keyOfPath(request.path, request.method);
    switch (request.method) {
      case 'GET':
        this.send('get', key, undefined, request.then ? this.onFirstRead : this.onRead);
        break;
      case 'PUT':
        this.send('set', key, request.body, this.onWritten);
        break;
      case 'DELETE':
        this.send('delete', key, undefined, this.onWritten);
        break;
      default:
        if (isAppend(request) && typeof this.store.append === 'function') {
          this.send('append', key, request.body, this.onWritten);
        } else {
          this.end(STATUS.unsupported, null, 'this store has no native append (docs/stores.md)');
        }
    }
  }

  end(status, error, detail) {
    const { handle, request } = this;
    if (handle === null) return; // a late answer of a call abandoned at its deadline
    this.handle = null;
    this.request = null;
    request?.settle(status, this.stage);
    if (error) handle.failed(error);
    else handle.responded(status, detail);
    this.owner.settled(this);
  }
}

// One caller of --pipeline N: N calls sent in one tick (one Caller each), the next N once all
// N settled, as redis-benchmark -P sends them. Calls that settle while the batch is still
// being sent (a store that answers at once) never start the next batch from inside this one.
class Batch {
  constructor(run, store) {
    this.run = run;
    this.store = store;
    this.callers = Array.from({ length: run.pipeline }, (_, slot) => this.callerAt(slot));
    this.pending = 0;
    this.sending = false;
    this.start = () => this.send();
  }

  callerAt(slot) {
    const caller = new Caller(this.run, this, this.store);
    caller.slot = slot;
    return caller;
  }

  // Up to N calls, each counted by the run's take(): -n ends with a short batch.
  send() {
    const { run, callers } = this;
    this.sending = true;
    for (let slot = 0; slot < callers.length && run.take(); slot += 1) {
      this.pending += 1;
      callers[slot].next();
    }
    this.sending = false;
    if (this.pending === 0) this.done();
  }

  settled(caller) {
    // Past its deadline a call is left to finish unheard: a fresh caller takes its slot.
    if (caller.dead) this.callers[caller.slot] = this.callerAt(caller.slot);
    this.pending -= 1;
    if (this.pending === 0 && !this.sending) this.done();
  }

  // All N settled: the next batch, now, or on the next turn of the event loop once YIELD_EVERY
  // calls were started since the last wait (as a single caller waits).
  done() {
    const { run } = this;
    if (run.stopped || run.taken >= run.maxRequests) return;
    if (run.taken - run.yieldedAt < YIELD_EVERY) return this.send();
    run.yieldedAt = run.taken;
    setImmediate(this.start);
  }
}

// One run of the engine: the store and key on LoadRun's schedule, count and stop.
class DirectRun extends LoadRun {
  constructor(load, connections, meter) {
    super(load, meter);
    this.store = load.store;
    this.connections = connections; // --pipeline with a store's pipelined(): its connections' calls
    this.key = load.key;
    this.pipeline = load.pipeline ?? 1;
    this.yieldedAt = 0;
  }

  closedLoop() {
    if (this.pipeline > 1) {
      const batches = Math.min(this.concurrency, Math.ceil(this.maxRequests / this.pipeline));
      const { connections } = this;
      const storeOf = (i) => (connections ? connections[i % connections.length] : this.store);
      for (let i = 0; i < batches && !this.stopped; i += 1) new Batch(this, storeOf(i)).send();
      return;
    }
    const callers = Math.min(this.concurrency, this.maxRequests);
    for (let i = 0; i < callers && this.take(); i += 1) new Caller(this).next();
  }

  // A caller's call settled: in the closed loop it starts the next one (now, or on the next
  // turn of the event loop every YIELD_EVERY calls); in the open model it waits for the schedule.
  settled(settledCaller) {
    const caller = settledCaller.dead ? new Caller(this) : settledCaller;
    if (this.rps) {
      if (caller !== settledCaller) return;
      this.idle.push(caller);
      return;
    }
    if (!this.take()) return;
    if (this.taken % YIELD_EVERY === 0) setImmediate(caller.start);
    else caller.next();
  }

  // Open model: a free caller, or a new one, sends the next scheduled call.
  scheduled() {
    (this.idle.pop() ?? new Caller(this)).next();
  }
}

/** @type {import('../step.js').Engine} */
export const directEngine = {
  name: 'direct',
  async run(load, meter) {
    if (!load.store || typeof load.store.get !== 'function') {
      throw new TypeError('the direct engine needs load.store, an opened Store');
    }
    if (!load.workload && typeof load.key !== 'string') {
      throw new TypeError('the direct engine needs load.key (or a workload)');
    }
    const pipeline = load.pipeline ?? 1;
    if (!Number.isInteger(pipeline) || pipeline < 1) {
      throw new TypeError(`the direct engine's pipeline is a whole number from 1, not ${pipeline}`);
    }
    if (pipeline > 1 && load.rps) {
      throw new TypeError('the direct engine pipelines in the closed loop only, not at a fixed rate (rps)');
    }
    // A store whose client pipelines only in a mode of its own (PostgreSQL) has pipelined().
    const connections = pipeline > 1 && load.store.pipelined ? await load.store.pipelined() : null;
    const run = new DirectRun(load, connections, meter);
    run.start();
    await run.done;
    return { reported: null };
  },
};
