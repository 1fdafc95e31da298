// How to authenticate to a CouchDB-compatible server: IAM API key (Cloudant), basic auth, or none.

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

const TOKEN_PATH = '/identity/token';

/** The IAM token service's base URL, as ibm-cloud-sdk-core takes it (no /identity/token). */
const iamBaseUrl = (iamUrl) => String(iamUrl).replace(/\/+$/, '').replace(new RegExp(`${TOKEN_PATH}$`), '');

/** The full token URL, as @cloudant/cloudant's iamauth plugin takes it. */
export const iamTokenUrl = (iamUrl) => `${iamBaseUrl(iamUrl)}${TOKEN_PATH}`;

// Names IAM, where, and what to check: the SDKs report only the socket error ("connect ECONNREFUSED").
function iamError(error, iamUrl) {
  const status = error?.status ?? error?.statusCode;
  const detail = String(error?.message || error).split('\n')[0];
  const where = `the IAM token service at ${iamBaseUrl(iamUrl)}`;
  const message = status >= 400 && status < 500
    ? `${where} refused the API key (HTTP ${status}: ${detail}); check CLOUDANT_APIKEY`
    : `could not get an IAM token from ${where}: ${detail}; check that the app can reach it, or set CLOUDANT_IAM_URL`;
  return new Error(message, { cause: error });
}

export async function fetchIamToken(tokenManager, iamUrl) {
  try {
    await tokenManager.getToken();
  } catch (error) {
    throw iamError(error, iamUrl);
  }
}
