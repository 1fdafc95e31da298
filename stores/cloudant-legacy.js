// Cloudant / CouchDB through @cloudant/cloudant, end-of-life since 2021, kept to compare with the
// maintained SDK on the same server; in database <couchdbDatabase>-legacy, apart from the others' revisions.
import { couchAuth, fetchIamToken, iamTokenUrl } from './clients/couch-auth.js';
import { nanoStyleStore } from './clients/couch-nano-store.js';
import { defaults } from '../config/settings.js';

export const name = 'cloudant-legacy';
export const description = 'Cloudant / CouchDB through @cloudant/cloudant (the client the original used)';
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
    // One token through the maintained SDK first: the plugin says only "error happened in your connection".
    const { IamTokenManager } = await import('ibm-cloud-sdk-core');
    await fetchIamToken(new IamTokenManager({ apikey: auth.apikey, url: iamUrl }), iamUrl);
  }
  // No auto-renew timer, so nothing outlives close(). user:password goes as basic auth on every request,
  // as the cloudant store does, so the two compare like for like (not a session cookie).
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

async function loadClient() {
  try {
    return (await import('@cloudant/cloudant')).default;
  } catch (error) {
    throw new Error(`its client @cloudant/cloudant could not be loaded (${error.code ?? error.message}); ` +
      'npm install @cloudant/cloudant', { cause: error });
  }
}
