// Cloudant / CouchDB through @cloudant/cloudant, the client the original benchmark used.
// IBM ended its life in 2021 (no fixes, deprecated request library underneath); it is here
// so users can compare it with the maintained SDK (the cloudant store) on the same server.
// Database: <couchdbDatabase>-legacy, so it never fights the other clients over revisions.
import { couchAuth, fetchIamToken, iamTokenUrl } from './clients/couch-auth.js';
import { nanoStyleStore } from './clients/couch-nano-store.js';
import { defaults } from '../config/settings.js';

export const name = 'cloudant-legacy';
export const description = 'Cloudant / CouchDB through @cloudant/cloudant (the client the original used)';
// --pipeline (docs/direct.md): refused.
export const pipelining = {
  pipelines: false,
  reason: 'an HTTP/1.1 client: one request at a time on each connection, so N calls at once take N connections',
};
export const needs = ['couchdb'];
export const lifecycle = 'end-of-life client (@cloudant/cloudant)';
export const writes = { append: false, bulk: 'native', hash: false }; // as cloudant: no append; _bulk_docs

export async function open({ couchdb }, {
  couchdbDatabase = defaults.couchdbDatabase, cloudantIamUrl = defaults.cloudantIamUrl, opTimeoutMs,
} = {}) {
  const { serviceUrl, auth } = couchAuth(couchdb);
  const iamUrl = auth.iamUrl ?? cloudantIamUrl;
  const Cloudant = await loadClient();
  if (auth.type === 'iam') {
    // One token first, through the maintained SDK, so that a failure says it was IAM (the
    // plugin reports "error happened in your connection").
    const { IamTokenManager } = await import('ibm-cloud-sdk-core');
    await fetchIamToken(new IamTokenManager({ apikey: auth.apikey, url: iamUrl }), iamUrl);
  }
  // IAM tokens through its iamauth plugin (no auto-renew timer: renewed on demand, so
  // nothing outlives close()). user:password goes as basic auth on every request, from the
  // URL, as the cloudant store's BasicAuthenticator does, so the two clients are compared
  // like for like (its default would be a session cookie from POST /_session).
  const iamauth = { iamApiKey: auth.apikey, autoRenew: false, iamTokenUrl: iamTokenUrl(iamUrl) };
  const plugins = auth.type === 'iam' ? [{ iamauth }] : [];
  const url = auth.type === 'basic' ? withCredentials(serviceUrl, auth) : serviceUrl;
  const client = Cloudant({ url, plugins });
  return nanoStyleStore(client, `${couchdbDatabase}-legacy`, { opTimeoutMs });
}

function withCredentials(serviceUrl, { username, password }) {
  const url = new URL(serviceUrl);
  url.username = encodeURIComponent(username);
  url.password = encodeURIComponent(password);
  return url.href.replace(/\/$/, '');
}

// An optional dependency that may be missing or fail to load on a newer Node: say which.
async function loadClient() {
  try {
    return (await import('@cloudant/cloudant')).default;
  } catch (error) {
    throw new Error(`its client @cloudant/cloudant could not be loaded (${error.code ?? error.message}); ` +
      'npm install @cloudant/cloudant', { cause: error });
  }
}
