// The baseline: an in-process Map. What it costs is what the app itself costs.
export const name = 'memory';
export const description = 'In-process Map: the baseline, the cost of the app and HTTP alone';
export const pipelining = {
  pipelines: false,
  reason: 'a Map in this process: its calls never leave it, so there is nothing to pipeline',
};
export const needs = [];
export const writes = { append: true, bulk: 'one by one', hash: false };

export async function open() {
  const map = new Map();
  return {
    async get(key) {
      return map.get(key) ?? null;
    },
    async set(key, bytes) {
      map.set(key, Buffer.from(bytes)); // a copy: the caller may reuse its buffer
    },
    async delete(key) {
      map.delete(key);
    },
    async keys(prefix) {
      return [...map.keys()].filter((key) => key.startsWith(prefix));
    },
    async append(key, bytes) {
      const current = map.get(key);
      map.set(key, current ? Buffer.concat([current, bytes]) : Buffer.from(bytes));
    },
    async ping() {},
    async close() {
      map.clear();
    },
  };
}
