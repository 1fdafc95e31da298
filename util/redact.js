// Secrets never reach a log, an error message, /stores, /healthz or the page: every URL
// shown goes through here first. Passwords and API keys the app was configured with are
// also remembered, so they are masked even where they turn up outside a URL (a driver's
// error message, a CLI command line in a service binding).

const secretParams = /^(password|pass|pwd|apikey|api_key|key|token|access_token|secret|auth)$/i;
// Credential fields whose values are secret, wherever they sit in a VCAP_SERVICES entry.
const secretFields = /pass|pwd|secret|token|apikey|api_key|private|certificate|^key$/i;
const MIN_SECRET_LENGTH = 4; // shorter values would mask innocent text

const knownSecrets = new Set();

/** Remembers values that must never be shown; redactText and redactUrl mask them from now on. */
export function addSecrets(...values) {
  for (const value of values) {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) continue;
    knownSecrets.add(value);
    knownSecrets.add(encodeURIComponent(value)); // as it appears inside a URL
  }
}

/** Remembers the secrets of a resolved connection: URL password, password, API key. */
export function addConnectionSecrets(connection) {
  const { url, password, apikey } = connection;
  let urlPassword;
  try { urlPassword = decodeURIComponent(new URL(url).password); } catch {}
  addSecrets(urlPassword, password, apikey);
}

const maskKnown = (text) => {
  let masked = text;
  // Longest first, so a secret containing another is masked whole.
  for (const secret of [...knownSecrets].sort((a, b) => b.length - a.length)) masked = masked.replaceAll(secret, '***');
  return masked;
};

/** The URL with any password (and secret-looking query parameters) replaced by ***. */
export function redactUrl(value) {
  // No scheme: not a URL but a server list like memjs's "user:pass@host:port,host:port",
  // which new URL() would misread as scheme "user:"; mask every user:pass@ in it.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(String(value))) return String(value).replace(/[^\s,/@]+@/g, '***@');
  let url;
  try {
    url = new URL(value);
  } catch {
    return redactText(String(value));
  }
  if (url.password) url.password = '***';
  else if (url.username) url.username = '***'; // a lone user part is often a token (https://TOKEN@host)
  for (const name of [...url.searchParams.keys()]) {
    if (secretParams.test(name)) url.searchParams.set(name, '***');
  }
  return maskKnown(url.href.replaceAll('%2A%2A%2A', '***'));
}

/** Free text (an error message, say) with any credentials inside URLs in it replaced by ***. */
export function redactText(text) {
  const withoutUrlCredentials = String(text).replace(/([a-z][a-z0-9+.-]*:\/\/)([^\s/@:]*)(:[^\s/@]*)?@/gi, (_, scheme, user, password) =>
    password ? `${scheme}${user}:***@` : `${scheme}***@`,
  );
  return maskKnown(withoutUrlCredentials);
}

/**
 * A deep copy of service credentials (a VCAP_SERVICES object, say) that is safe to print:
 * secret fields become ***, URLs lose their passwords, and every secret value found is
 * masked wherever else it appears (a composed command line, a URL's query string).
 */
export function maskCredentials(value) {
  const secrets = new Set();
  const collect = (node, key) => {
    if (Array.isArray(node)) node.forEach((item) => collect(item, key));
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) collect(v, k);
    else if (typeof node === 'string' && secretFields.test(key ?? '') && node.length >= MIN_SECRET_LENGTH) secrets.add(node);
  };
  collect(value);
  const ordered = [...secrets].flatMap((s) => [s, encodeURIComponent(s)]).sort((a, b) => b.length - a.length);
  const maskString = (text) => {
    let masked = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? redactUrl(text) : redactText(text);
    for (const secret of ordered) masked = masked.replaceAll(secret, '***');
    return masked;
  };
  const mask = (node, key) => {
    if (Array.isArray(node)) return node.map((item) => mask(item, key));
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, mask(v, k)]));
    if (typeof node === 'string') return secretFields.test(key ?? '') ? '***' : maskString(node);
    return node;
  };
  return mask(value);
}
