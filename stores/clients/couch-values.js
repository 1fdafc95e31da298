// How a key and its bytes become a CouchDB document, and back, for the three CouchDB clients.
//
// Ids: user key K is document "k:K". CouchDB reserves ids that start with "_" (_all_docs,
// _changes, _design/..., _local/...), and a client that puts an id into a URL unencoded makes
// "." and ".." path segments (the server's root, the database's info); with the prefix no key
// can be either. The prefix is the same for every key, so the mapping stays one to one.
//
// Values: a document is a JSON object, and the read path returns the stored document's bytes
// with only _id/_rev cut out (stores/clients/couch-document.js), never parsing it. So a value
// that CouchDB gives back byte for byte is stored as the document itself (the seeded payloads,
// as a CouchDB user would store them): a compact JSON object that JSON.stringify writes exactly
// so, with no escapes, no fractions or exponents (servers print those differently), and no
// field CouchDB reserves. Anything else, binary included, is stored base64 in one field,
// BYTES_FIELD, and decoded on the way out; a JSON object with that field is stored that way too,
// so reading back is never ambiguous.

export const DOC_ID_PREFIX = 'k:';
export const BYTES_FIELD = 'storebench:base64';

const bytesPrefix = Buffer.from(`{"${BYTES_FIELD}":"`);
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The document id for a key of the key alphabet. */
export const docIdOf = (key) => DOC_ID_PREFIX + key;

/** The document body (no _id/_rev) that holds bytes. */
export function toDocument(bytes) {
  return asDocument(bytes) ?? { [BYTES_FIELD]: bytes.toString('base64') };
}

/** The bytes a stored document holds, given the document without _id/_rev. */
export function fromDocument(payload) {
  const end = payload.length - 2; // before the closing `"}`
  if (payload.length >= bytesPrefix.length + 2 && payload.subarray(0, bytesPrefix.length).equals(bytesPrefix)) {
    return Buffer.from(payload.toString('latin1', bytesPrefix.length, end), 'base64');
  }
  return payload;
}

// bytes as a document object when CouchDB will hand exactly these bytes back; else undefined.
function asDocument(bytes) {
  if (bytes[0] !== 0x7b /* { */ || bytes.includes(0x5c /* \ */)) return undefined;
  let value;
  let text;
  try {
    text = strictUtf8.decode(bytes);
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value) || JSON.stringify(value) !== text) return undefined;
  if (Object.keys(value).some((field) => field.startsWith('_') || field === BYTES_FIELD)) return undefined;
  return wholeNumbersOnly(value) ? value : undefined;
}

function wholeNumbersOnly(value) {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  if (value && typeof value === 'object') return Object.values(value).every(wholeNumbersOnly);
  return true;
}
