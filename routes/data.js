// GET /:store/:key: the route every benchmark hits, so it does as little as it can: the stored bytes
// go out as they are (no parse, no stringify, no ETag hashing of a 270 KB body).
import { keys as seededKeys } from '../stores/payloads.js';
import { serverTimingValue, setServerTiming, timingOf } from './server-timing-header.js';
import { BYTES_TYPE, JSON_TYPE } from './answers.js';

const seeded = new Set(seededKeys);

export function readRoute(stores) {
  return async (req, res, { store, key }) => {
    const timing = timingOf(req);
    let bytes;
    try {
      bytes = await stores.read(store, key, timing);
    } catch (error) {
      setServerTiming(res, timing); // an answer the store gave (404, 503) says so too
      throw error;
    }
    const headers = { 'Content-Type': seeded.has(key) ? JSON_TYPE : BYTES_TYPE, 'Content-Length': bytes.length };
    if (timing !== undefined) headers['Server-Timing'] = serverTimingValue(timing);
    return { status: 200, headers, body: bytes };
  };
}
