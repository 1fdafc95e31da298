// The W3C Server Timing header's grammar, strictly (https://w3c.github.io/server-timing/), for
// checking what the app sends; deliberately not the driver's own reader
// (driver/engines/server-timing-parse.js), which is lenient as the spec's parsing is.
//   Server-Timing = #server-timing-metric
//   server-timing-metric = metric-name *( OWS ";" OWS server-timing-param )
//   server-timing-param = server-timing-param-name OWS "=" OWS server-timing-param-value
//   metric-name, param-name = token; server-timing-param-value = token / quoted-string (RFC 9110)
const TOKEN = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+";
const QUOTED = '"(?:[^"\\\\]|\\\\.)*"';
const OWS = '[ \\t]*';
const PARAM = `${TOKEN}${OWS}=${OWS}(?:${TOKEN}|${QUOTED})`;
const METRIC = `${TOKEN}(?:${OWS};${OWS}${PARAM})*`;
const HEADER = new RegExp(`^${METRIC}(?:${OWS},${OWS}${METRIC})*$`);

const PARAM_PARTS = new RegExp(`;${OWS}(${TOKEN})${OWS}=${OWS}(${TOKEN}|${QUOTED})`, 'g');

/**
 * The metrics of a Server-Timing value as { name: { param: value } }, in order, or null when the
 * value is not the grammar's. Quoted values are unquoted.
 */
export function parseServerTiming(value) {
  if (typeof value !== 'string' || !HEADER.test(value)) return null;
  const metrics = {};
  for (const [metric] of value.matchAll(new RegExp(METRIC, 'g'))) {
    const name = new RegExp(`^${TOKEN}`).exec(metric)[0];
    metrics[name] = Object.fromEntries([...metric.matchAll(PARAM_PARTS)].map(([, key, raw]) =>
      [key, raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw]));
  }
  return metrics;
}
