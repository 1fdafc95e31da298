// The three payloads every store is seeded with. Built once, as the exact bytes the app
// will send: stores hold and return Buffers, so no request ever re-encodes JSON.
import { readFileSync } from 'node:fs';

// The images are data/'s: the payloads every store is seeded with (data/seed.js seeds them).
const imageDataUrl = (url) => 'data:image/jpeg;base64,' + readFileSync(url).toString('base64');

/** The payload objects, by key. */
export const payloadObjects = Object.freeze({
  key1: { message: 'Text data' },
  key2: { message: 'Text and 20kb jpg data', image: imageDataUrl(new URL('../data/images/20kb.jpg', import.meta.url)) },
  key3: {
    message: 'Text and 200kb jpg data',
    image: imageDataUrl(new URL('../data/images/200kb.jpg', import.meta.url)),
  },
});

/** The payloads as the JSON bytes stores hold, by key. */
export const payloads = Object.freeze(
  Object.fromEntries(
    Object.entries(payloadObjects).map(([key, value]) => [key, Buffer.from(JSON.stringify(value))]),
  ),
);

export const keys = Object.freeze(Object.keys(payloads));
