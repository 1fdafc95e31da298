// The bulk-load body (application/vnd.storebench.records): records back to back, each
//   uint16 big-endian key length | key bytes | uint32 big-endian value length | value bytes
// Length-prefixed, so values are any bytes, sliced out of the body Buffer without copying.
import { BadRecordsError } from './errors.js';

export const RECORDS_MEDIA_TYPE = 'application/vnd.storebench.records';

const KEY_HEADER = 2;
const VALUE_HEADER = 4;

export function encodeRecords(entries) {
  let size = 0;
  for (const [key, bytes] of entries) {
    size += KEY_HEADER + Buffer.byteLength(key, 'latin1') + VALUE_HEADER + bytes.length;
  }
  const body = Buffer.allocUnsafe(size);
  let at = 0;
  for (const [key, bytes] of entries) {
    at = body.writeUInt16BE(Buffer.byteLength(key, 'latin1'), at);
    at += body.write(key, at, 'latin1');
    at = body.writeUInt32BE(bytes.length, at);
    at += bytes.copy(body, at);
  }
  return body;
}

// Each value a view into body (no copy). Keys are read as latin1, so a non-ASCII byte becomes a
// character the key check refuses.
export function parseRecords(body) {
  const records = [];
  let at = 0;
  while (at < body.length) {
    const record = records.length + 1;
    if (at + KEY_HEADER > body.length) {
      throw new BadRecordsError(`record ${record} at byte ${at}: the body ends inside its key length`);
    }
    const keyLength = body.readUInt16BE(at);
    const keyStart = at + KEY_HEADER;
    if (keyStart + keyLength + VALUE_HEADER > body.length) {
      throw new BadRecordsError(`record ${record} at byte ${at}: a ${keyLength}-byte key and its value length ` +
        `do not fit in the ${body.length - keyStart} bytes left`);
    }
    const key = body.toString('latin1', keyStart, keyStart + keyLength);
    const valueLength = body.readUInt32BE(keyStart + keyLength);
    const valueStart = keyStart + keyLength + VALUE_HEADER;
    if (valueStart + valueLength > body.length) {
      throw new BadRecordsError(`record ${record} at byte ${at}: a ${valueLength}-byte value ` +
        `does not fit in the ${body.length - valueStart} bytes left`);
    }
    records.push([key, body.subarray(valueStart, valueStart + valueLength)]);
    at = valueStart + valueLength;
  }
  return records;
}
