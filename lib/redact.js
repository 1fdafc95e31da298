// Secrets never reach a log, an error message, /stores, /healthz or the page: every URL
// shown goes through here first.

const secretParams = /^(password|pass|pwd|apikey|api_key|key|token|access_token|secret|auth)$/i;

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
  return url.href.replaceAll('%2A%2A%2A', '***');
}

/** Free text (an error message, say) with any credentials inside URLs in it replaced by ***. */
export function redactText(text) {
  return String(text).replace(/([a-z][a-z0-9+.-]*:\/\/)([^\s/@:]*)(:[^\s/@]*)?@/gi, (_, scheme, user, password) =>
    password ? `${scheme}${user}:***@` : `${scheme}***@`,
  );
}
