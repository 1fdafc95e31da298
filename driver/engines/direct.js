// The direct engine (`node test --direct`): the load goes to an opened Store (stores/contract.js)
// in this process, no app or HTTP between; driver/step.js times and counts it as any engine.
// - The engine never opens or closes the store. Without a workload every call is
//   store.get(load.key): value -> 200, null -> 404, as GET /<store>/<key> would answer.
// - A workload request maps by method and path (key: the last segment, or the one before
//   `/append`): GET -> get; PUT -> set (204); POST .../append -> append (204, 405 without one);
//   DELETE -> delete (204); `then` -> get, then set (a read-modify-write). ValueTooLargeError
//   answers 413, as the app would; any other error is failed(error).
// - `pipeline` N (closed loop): N calls per tick per caller, as redis-benchmark -P; without a
//   workload, through the store's getMany(keys) where it has one (the client's explicit pipeline).
// - A store call cannot be cancelled: at its deadline the engine stops waiting and leaves it to
//   finish unheard, so a frozen store cannot hold a -n step for ever.
import { LoadRun } from './load-run.js';

const STATUS = { found: 200, missing: 404, written: 204, unsupported: 405, tooLarge: 413 };

/** The key a workload request's path names: its last segment, or for a POST (append) the one before. */
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

// null: the app would not answer one of its own (an outage), so the meter counts a failure.
const statusOfError = (error) => (error?.code === 'VALUE_TOO_LARGE' ? STATUS.tooLarge : null);

// A store that answers without I/O (memory) settles in microtasks, which would starve the step's
// timer: every this many starts a caller waits for the next turn of the loop.
const YIELD_EVERY = 256;

// One caller. Its callbacks are bound once, so a call costs only the store's own promise.
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
      const body = typeof then.body === 'function' ? then.body(value) : then.body;
      this.send('set', keyOfPath(then.path), body, this.onWritten);
    };
    this.onError = (error) => {
      const status = statusOfError(error);
      if (status === null) this.end(null, error);
      else this.end(status, null, error.message);
    };
    // Past the deadline the call is left to finish unheard; this caller is retired (its late
    // callbacks find no handle) and a fresh one takes its place.
    this.onDeadline = (error) => {
      this.dead = true;
      this.end(null, error);
    };
    this.dead = false;
    this.start = () => this.next();
  }

  // A method that throws at once (a closed client) fails the call like a rejection.
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

// One caller of --pipeline N. Calls that settle while the batch is still being sent never start
// the next batch from inside this one.
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

  // -n ends with a short batch.
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
    if (caller.dead) this.callers[caller.slot] = this.callerAt(caller.slot);
    this.pending -= 1;
    if (this.pending === 0 && !this.sending) this.done();
  }

  done() {
    nextBatch(this);
  }
}

// A batch's calls have all settled: its next one, now or (every YIELD_EVERY starts) at the next turn.
function nextBatch(batch) {
  const { run } = batch;
  if (run.stopped || run.taken >= run.maxRequests) return;
  if (run.taken - run.yieldedAt < YIELD_EVERY) return batch.send();
  run.yieldedAt = run.taken;
  setImmediate(batch.start);
}

// One caller of --pipeline N through a store's getMany(keys) (the client's explicit pipeline): N
// GETs begun one by one, sent as one call, each settled when the pipeline answers. A rejection
// fails every call of the batch with it: the client does not tell which call it was. Past the
// deadline the batch is left to finish unheard, as a Caller's call is, and the next one goes out.
class GetManyBatch {
  constructor(run, store) {
    this.run = run;
    this.store = store;
    this.keys = Array.from({ length: run.pipeline }, () => run.key);
    this.handles = null; // the batch in flight, a slot null once settled
    this.pending = 0;
    this.cancels = this.keys.map((_, slot) => (error) => this.settle(this.handles, slot, null, error));
    this.start = () => this.send();
  }

  send() {
    const { run } = this;
    const handles = [];
    while (handles.length < this.keys.length && run.take()) {
      handles.push(run.meter.begin(this.cancels[handles.length]));
      run.begun();
    }
    if (!handles.length) return;
    this.handles = handles;
    this.pending = handles.length;
    const keys = handles.length === this.keys.length ? this.keys : this.keys.slice(0, handles.length);
    let answer;
    try {
      answer = this.store.getMany(keys);
    } catch (error) {
      return this.failAll(handles, error);
    }
    answer.then((values) => {
      for (let slot = 0; slot < handles.length; slot += 1) {
        if (values[slot] == null) this.settle(handles, slot, STATUS.missing, null, MISSING);
        else this.settle(handles, slot, STATUS.found);
      }
    }, (error) => this.failAll(handles, error));
  }

  failAll(handles, error) {
    for (let slot = 0; slot < handles.length; slot += 1) this.settle(handles, slot, null, error);
  }

  // `handles`: the batch the answer is for; an abandoned one's late answer settles nothing.
  settle(handles, slot, status, error, detail) {
    const handle = handles === this.handles ? handles[slot] : null;
    if (!handle) return;
    handles[slot] = null;
    if (error) handle.failed(error);
    else handle.responded(status, detail);
    this.pending -= 1;
    if (this.pending === 0) {
      this.handles = null;
      nextBatch(this);
    }
  }
}

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
      for (let i = 0; i < batches && !this.stopped; i += 1) {
        const store = storeOf(i);
        const many = !this.workload && typeof store.getMany === 'function';
        (many ? new GetManyBatch(this, store) : new Batch(this, store)).send();
      }
      return;
    }
    const callers = Math.min(this.concurrency, this.maxRequests);
    for (let i = 0; i < callers && this.take(); i += 1) new Caller(this).next();
  }

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
