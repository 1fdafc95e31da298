// CouchDB / Cloudant through nano, the Apache CouchDB project's Node client, in database
// <couchdbDatabase>-nano.
import { couchAuth } from './clients/couch-auth.js';
import { nanoStyleStore } from './clients/couch-nano-store.js';
import { defaults } from '../config/settings.js';

export const name = 'couchdb-nano';
export const description = 'CouchDB / Cloudant through nano (the Apache CouchDB client)';
export const pipelining = {
  pipelines: false,
  reason: 'an HTTP/1.1 client: one request at a time on each connection, so N calls at once take N connections',
};
export const needs = ['couchdb'];
export const writes = { append: false, bulk: 'native', hash: false }; // as cloudant: no append; _bulk_docs

export async function open({ couchdb }, { couchdbDatabase = defaults.couchdbDatabase, opTimeoutMs } = {}) {
  const { auth } = couchAuth(couchdb);
  if (auth.type === 'iam') {
    throw new Error('nano cannot use a Cloudant IAM API key; give CLOUDANT_URL with user:password');
  }
  const { default: nano } = await import('nano');
  const client = nano({ url: couchdb.url });
  return nanoStyleStore(client, `${couchdbDatabase}-nano`, { opTimeoutMs });
}
