// Which requests Cloudant Lite's emulated limits meter, and as what (embedded/couch-rate-limit.cjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classify, PLANS } from '../../embedded/couch-rate-limit.cjs';

test('lookups, writes and queries are told apart; server and database calls are not metered', () => {
  const cases = [
    ['GET', '/db/k%3Akey1', 'lookup'],
    ['HEAD', '/db/doc?rev=1-a', 'lookup'],
    ['POST', '/db/_all_docs', 'lookup'],
    ['GET', '/db/_changes?since=0', 'lookup'],
    ['PUT', '/db/doc', 'write'],
    ['DELETE', '/db/doc?rev=1-a', 'write'],
    ['POST', '/db/_bulk_docs', 'write'],
    ['POST', '/db', 'write'], // a document, its id in the body (nano's insert)
    ['POST', '/db/_find', 'query'],
    ['GET', '/db/_design/d/_view/v', 'query'],
    ['GET', '/db/_design/d/_search/s', 'query'],
    ['GET', '/', null],
    ['GET', '/_all_dbs', null],
    ['POST', '/_session', null],
    ['PUT', '/db', null],
    ['GET', '/db', null],
  ];
  for (const [method, path, kind] of cases) assert.equal(classify(method, path), kind, `${method} ${path}`);
  assert.deepEqual(PLANS.lite, { lookup: 20, write: 10, query: 5 });
});
