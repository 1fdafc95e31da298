// A fixed list of store operations handed out as a workload to the direct engine, timed as the
// studies timed their scripts: first operation asked for to last settled.

class Request {
  constructor(source, operation, method, path, body, then) {
    Object.assign(this, { source, operation, method, path, body, authorization: null, then });
  }

  settle(status, stage) {
    this.source.settled(status, stage, this);
  }
}

// A value of `size` bytes: printable, and the same bytes for the same size (one buffer each).
function valueMaker() {
  const bySize = new Map();
  return (size) => {
    let value = bySize.get(size);
    if (!value) {
      value = Buffer.alloc(size, 'storebench-');
      bySize.set(size, value);
    }
    return value;
  };
}

/**
 * @param {Array<{ op: 'append'|'set'|'get'|'update', key: string, size: number, body?: () => Buffer,
 *   change?: (value: Buffer) => Buffer }>} ops
 *   `body` makes a set's bytes when asked for (the cost counts)
 * @param {object} options
 * @param {string} options.basePath
 * @param {boolean} options.nativeAppend   false: an append is read-modify-write, as a client of a
 *   store without append does it
 * @returns {{ operations: string[], next(): Request, remaining(): number, elapsedMs(): number|null,
 *   outcomes(): { settled: number, failed: number, byStatus: object } }}
 */
export function createOpSource(ops, { basePath, nativeAppend = true }) {
  const base = basePath.replace(/\/+$/, '');
  const valueOf = valueMaker();
  const built = new Map(); // key -> the bytes appends have built (read-modify-write only)
  const operationOf = {
    get: 'read', set: 'write', append: nativeAppend ? 'append' : 'read-modify-write', update: 'read-modify-write',
  };
  const operations = [...new Set(ops.map((op) => operationOf[op.op]))];
  // Values are made before timing: filling a 320 MB buffer is no part of a set.
  for (const { op, size, body } of ops) if (op !== 'get' && op !== 'update' && !body) valueOf(size);
  let index = 0;
  let firstNs = null;
  let lastNs = null;
  let settledCount = 0;
  let failed = 0;
  const byStatus = {};

  const source = {
    settled(status) {
      lastNs = process.hrtime.bigint();
      settledCount += 1;
      const kind = status === null ? 'no answer' : String(status);
      byStatus[kind] = (byStatus[kind] ?? 0) + 1;
      if (status === null || status < 200 || status > 299) failed += 1;
    },
  };

  const next = () => {
    firstNs ??= process.hrtime.bigint();
    if (index >= ops.length) throw new RangeError(`all ${ops.length} operations were handed out already`);
    const { op, key, size, body, change } = ops[index++];
    const path = `${base}/${key}`;
    if (op === 'get') return new Request(source, 'read', 'GET', path, null, undefined);
    if (op === 'update') {
      const then = { method: 'PUT', path, body: change, authorization: null };
      return new Request(source, 'read-modify-write', 'GET', path, null, then);
    }
    const bytes = body ? body() : valueOf(size);
    if (op === 'set') return new Request(source, 'write', 'PUT', path, bytes, undefined);
    if (op !== 'append') throw new TypeError(`unknown operation ${op}`);
    if (nativeAppend) return new Request(source, 'append', 'POST', `${path}/append`, bytes, undefined);
    const value = Buffer.concat([built.get(key) ?? Buffer.alloc(0), bytes]);
    built.set(key, value);
    const then = { method: 'PUT', path, body: value, authorization: null };
    return new Request(source, 'read-modify-write', 'GET', path, null, then);
  };

  return {
    operations,
    next,
    remaining: () => ops.length - index,
    elapsedMs: () => (firstNs === null || lastNs === null ? null : Number(lastNs - firstNs) / 1e6),
    outcomes: () => ({ settled: settledCount, failed, byStatus: { ...byStatus } }),
  };
}
