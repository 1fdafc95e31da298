// Turning a CouchDB document's bytes back into the payload that was stored.

const idPrefix = Buffer.from('{"_id":"');
const revKey = Buffer.from('","_rev":"');

/**
 * Returns the document without _id and _rev. CouchDB and Cloudant write those two first,
 * so the fast path cuts them off in place without parsing; any other layout (another
 * server, extra underscore fields) goes through JSON and gives the same result.
 */
export function stripCouchFields(document) {
  if (document.subarray(0, idPrefix.length).equals(idPrefix)) {
    const revAt = document.indexOf(revKey, idPrefix.length);
    const revEnd = revAt < 0 ? -1 : document.indexOf(0x22 /* " */, revAt + revKey.length);
    const next = revEnd < 0 ? -1 : document[revEnd + 1];
    const idValue = revAt < 0 ? '' : document.toString('latin1', idPrefix.length, revAt);
    // An _id containing an escaped quote would fool the scan: leave that to JSON.
    if (next === 0x2c /* , */ && !idValue.includes('\\') && document[revEnd + 2] === 0x22 && document[revEnd + 3] !== 0x5f /* _ */) {
      const rest = document.subarray(revEnd + 1);
      rest[0] = 0x7b; // the comma becomes the payload's opening brace
      return rest;
    }
  }
  const { _id, _rev, ...payload } = JSON.parse(document);
  return Buffer.from(JSON.stringify(payload));
}
