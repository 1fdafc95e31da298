// The baseline: an in-process Map. What it costs is what the app itself costs.
export const name = 'memory';
export const description = 'In-process Map: the baseline, the cost of the app and HTTP alone';
export const needs = [];

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
    async ping() {},
    async close() {
      map.clear();
    },
  };
}
