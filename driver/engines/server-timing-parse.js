// The store's time out of a Server-Timing header (`store;dur=0.042, app;dur=0.061`), scanned
// once per 2xx response allocating nothing on the usual path. As the W3C spec says, the first
// `dur` of a metric counts, and a value that is not a number is none.

const SERVER_TIMING = 'server-timing';
const STORE_METRIC = 'store';

const COMMA = 44;
const SEMICOLON = 59;
const EQUALS = 61;
const QUOTE = 34;
const BACKSLASH = 92;
const SPACE = 32;
const TAB = 9;
const DOT = 46;

const isSpace = (code) => code === SPACE || code === TAB;
const isDecimal = (code) => (code >= 48 && code <= 57) || code === DOT;
const OWN_PREFIX = `${STORE_METRIC};dur=`;
const endsToken = (code) => code === COMMA || code === SEMICOLON || code === EQUALS || isSpace(code);

function pastQuoted(text, at) {
  let i = at + 1;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH) i += 2;
    else if (code === QUOTE) return i + 1;
    else i += 1;
  }
  return text.length;
}

// A dur value text[from, to) as ms: plain decimals are read in place, anything else by Number().
function durationOf(text, from, to) {
  let whole = 0;
  let fraction = 0;
  let scale = 1;
  let dot = false;
  let digits = 0;
  for (let i = from; i < to; i += 1) {
    const code = text.charCodeAt(i);
    if (code === DOT && !dot) {
      dot = true;
    } else if (code >= 48 && code <= 57) {
      digits += 1;
      if (dot) {
        scale *= 10;
        fraction = fraction * 10 + (code - 48);
      } else {
        whole = whole * 10 + (code - 48);
      }
    } else {
      const value = Number(text.slice(from, to));
      return Number.isFinite(value) && value >= 0 ? value : -1;
    }
  }
  return digits ? whole + fraction / scale : -1;
}

/** The `store` metric's `dur` in ms; -1 when there is none or it is not a number of ms. */
export function storeDurationMs(text) {
  const length = text.length;
  // storebench's own app sends `store;dur=N, app;dur=M`: read N in place.
  if (text.startsWith(OWN_PREFIX)) {
    let end = OWN_PREFIX.length;
    while (end < length && isDecimal(text.charCodeAt(end))) end += 1;
    const next = text.charCodeAt(end);
    if (end > OWN_PREFIX.length && (end === length || next === COMMA || next === SEMICOLON || isSpace(next))) {
      return durationOf(text, OWN_PREFIX.length, end);
    }
  }
  let at = 0;
  while (at < length) {
    while (at < length && (isSpace(text.charCodeAt(at)) || text.charCodeAt(at) === COMMA)) at += 1;
    const nameStart = at;
    while (at < length && !endsToken(text.charCodeAt(at))) at += 1;
    const isStore = at - nameStart === STORE_METRIC.length && text.startsWith(STORE_METRIC, nameStart);
    let durSeen = false;
    while (at < length) {
      while (at < length && isSpace(text.charCodeAt(at))) at += 1;
      const code = text.charCodeAt(at);
      if (code === COMMA || at >= length) break;
      if (code !== SEMICOLON) { // not the grammar: skip to the next metric
        while (at < length && text.charCodeAt(at) !== COMMA) {
          at = text.charCodeAt(at) === QUOTE ? pastQuoted(text, at) : at + 1;
        }
        break;
      }
      at += 1;
      while (at < length && isSpace(text.charCodeAt(at))) at += 1;
      const paramStart = at;
      while (at < length && !endsToken(text.charCodeAt(at))) at += 1;
      const isDur = at - paramStart === 3 && text.startsWith('dur', paramStart);
      while (at < length && isSpace(text.charCodeAt(at))) at += 1;
      if (text.charCodeAt(at) !== EQUALS) continue; // a parameter without a value
      at += 1;
      while (at < length && isSpace(text.charCodeAt(at))) at += 1;
      const valueStart = at;
      let valueEnd;
      if (text.charCodeAt(at) === QUOTE) {
        at = pastQuoted(text, at);
        valueEnd = at - 1;
      } else {
        while (at < length && !endsToken(text.charCodeAt(at))) at += 1;
        valueEnd = at;
      }
      if (isStore && isDur && !durSeen) {
        durSeen = true;
        const quoted = text.charCodeAt(valueStart) === QUOTE;
        const ms = durationOf(text, quoted ? valueStart + 1 : valueStart, valueEnd);
        if (ms >= 0) return ms;
      }
    }
    if (isStore) return -1; // the first `store` metric decides
    at += 1;
  }
  return -1;
}

/** The store's dur from rawHeaders, so that Node's lazily built `response.headers` is never built. */
export function storeDurationInRawHeaders(rawHeaders) {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    if (name.length !== SERVER_TIMING.length || !isServerTiming(name)) continue;
    const ms = storeDurationMs(rawHeaders[i + 1]);
    if (ms >= 0) return ms;
  }
  return -1;
}

function isServerTiming(name) {
  for (let i = 0; i < SERVER_TIMING.length; i += 1) {
    if ((name.charCodeAt(i) | 0x20) !== SERVER_TIMING.charCodeAt(i)) return false;
  }
  return true;
}
