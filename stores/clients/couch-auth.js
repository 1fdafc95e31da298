// How to authenticate to a CouchDB-compatible server from a resolved connection:
// IAM API key (Cloudant), basic auth (Cloudant legacy, CouchDB), or none (admin party).

/** Returns { serviceUrl (no credentials), auth: { type: 'iam'|'basic'|'none', ... } }. */
export function couchAuth(connection) {
  const url = new URL(connection.url);
  const username = connection.username ?? decodeURIComponent(url.username);
  const password = connection.password ?? decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  const serviceUrl = url.href.replace(/\/$/, '');
  if (connection.apikey) {
    return { serviceUrl, auth: { type: 'iam', apikey: connection.apikey, iamUrl: connection.iamUrl } };
  }
  if (username) return { serviceUrl, auth: { type: 'basic', username, password } };
  return { serviceUrl, auth: { type: 'none' } };
}
