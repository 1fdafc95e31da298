// Turning a CouchDB document's bytes back into the payload that was stored.

const QUOTE = 0x22;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const idFirst = Buffer.from('{"_id":"');
const idLast = Buffer.from(',"_id":"');
const revKey = Buffer.from('","_rev":"');

function idAndRevEnd(document, idStart) {
  const revAt = document.indexOf(revKey, idStart);
  if (revAt < 0 || document.subarray(idStart, revAt).includes(0x5c /* \ */)) return -1;
  return document.indexOf(QUOTE, revAt + revKey.length);
}

// CouchDB and Cloudant write _id and _rev first, PouchDB last: both layouts are cut in place without
// parsing. Anything else (`"_` anywhere that could be a field) goes through JSON: same result.
export function stripCouchFields(document) {
  // CouchDB, and the express-pouchdb stand-in, end every JSON body with a newline.
  let end = document.length;
  while (end > 0 && (document[end - 1] === 0x0a || document[end - 1] === 0x0d)) end--;
  if (end < document.length) document = document.subarray(0, end);
  if (document.subarray(0, idFirst.length).equals(idFirst)) {
    const end = idAndRevEnd(document, idFirst.length);
    if (end > 0 && document[end + 1] === COMMA && !document.includes('"_', end)) {
      const rest = document.subarray(end + 1);
      rest[0] = OPEN_BRACE; // the comma becomes the payload's opening brace
      return rest;
    }
  } else {
    const at = document.lastIndexOf(idLast);
    const end = at < 0 ? -1 : idAndRevEnd(document, at + idLast.length);
    if (end > 0 && end + 2 === document.length && document[end + 1] === CLOSE_BRACE &&
      !document.subarray(0, at).includes('"_')) {
      document[at] = CLOSE_BRACE;
      return document.subarray(0, at + 1);
    }
  }
  const { _id, _rev, ...payload } = JSON.parse(document);
  return Buffer.from(JSON.stringify(payload));
}
