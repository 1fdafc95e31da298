// How a key and its bytes become a CouchDB document, and back. Key K is document "k:K": CouchDB
// reserves ids starting with "_", and an unencoded id could make "." and ".." path segments.
// A value CouchDB gives back byte for byte (a compact JSON object with no escapes, fractions or
// reserved fields) is stored as the document itself, as a CouchDB user would; anything else goes
// base64 in BYTES_FIELD (as does an object with that field, so reading back is never ambiguous).

const DOC_ID_PREFIX = 'k:';
export const BYTES_FIELD = 'storebench:base64';

const bytesPrefix = Buffer.from(`{"${BYTES_FIELD}":"`);
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export const docIdOf = (key) => DOC_ID_PREFIX + key;

export function toDocument(bytes) {
  return asDocument(bytes) ?? { [BYTES_FIELD]: bytes.toString('base64') };
}

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
