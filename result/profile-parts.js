// Where the app's CPU went, part by part, from V8 CPU profiles of its processes (.cpuprofile, as
// node:inspector takes them). Each sample goes to one part: the part of the frame nearest the leaf
// that belongs to a named part (a Node core function called by Express is Node's; a builtin with no
// script of its own is its caller's), else `other`. The rules are one table, PART_RULES, which
// test/unit/profile-parts.test.js reads; docs/measurement.md says how to read the parts.

/**
 * The parts, in the order they are shown: those of the main thread's samples, then `threads`, the
 * app's CPU off its main thread (parallel GC, V8's compilers, libuv's pool), which no sample sees.
 */
export const PARTS = ['framework', 'client', 'node', 'json', 'gc', 'storebench', 'other', 'threads'];
const SAMPLED_PARTS = PARTS.filter((part) => part !== 'threads');
// A sample's time is at most this many times the profile's usual gap: a longer gap is time the
// thread was not running (another process or the hypervisor had the core), not time it spent.
const GAP_CAP = 2;

/**
 * The rules, tried in order on each frame. A package is matched by the path after the last
 * `node_modules/`; only packages of one part are listed: one that several use (debug, ms, qs,
 * mime-types) is its caller's.
 */
export const PART_RULES = [
  { part: 'gc', frames: ['(garbage collector)'] },
  // JSON.parse and JSON.stringify are V8 builtins: a frame with no script.
  { part: 'json', builtins: ['parse', 'stringify'] },
  {
    part: 'framework',
    packages: [
      // Express 5 and what only it uses
      'express', 'router', 'body-parser', 'finalhandler', 'send', 'serve-static', 'path-to-regexp', 'parseurl',
      'type-is', 'accepts', 'content-type', 'content-disposition', 'cookie', 'cookie-signature', 'encodeurl',
      'escape-html', 'etag', 'fresh', 'merge-descriptors', 'negotiator', 'proxy-addr', 'forwarded', 'range-parser',
      'vary', 'on-finished', 'ee-first', 'http-errors', 'statuses', 'media-typer', 'raw-body', 'is-promise',
      // fastify 5 and what only it uses
      'fastify', '@fastify/*', 'find-my-way', 'avvio', 'light-my-request', 'fast-json-stringify', 'fast-querystring',
      'fast-decode-uri-component', 'fastq', 'reusify', 'rfdc', 'secure-json-parse', 'toad-cache', 'abstract-logging',
      'pino', 'pino-std-serializers', 'process-warning', 'safe-regex2', 'ret', 'fast-uri',
    ],
  },
  {
    part: 'client',
    packages: [
      // node-redis, ioredis
      'redis', '@redis/*', 'cluster-key-slot', 'generic-pool', 'ioredis', 'redis-parser', 'redis-errors', 'denque',
      'standard-as-callback',
      // pg
      'pg', 'pg-pool', 'pg-protocol', 'pg-types', 'pg-int8', 'pg-connection-string', 'pgpass', 'postgres-array',
      'postgres-bytea', 'postgres-date', 'postgres-interval', 'split2',
      // memjs, tarantool-driver
      'memjs', 'tarantool-driver', 'msgpack-lite', 'int64-buffer', 'event-lite',
      // the Cloudant and CouchDB clients, and what they pull in
      '@ibm-cloud/cloudant', 'ibm-cloud-sdk-core', '@cloudant/cloudant', 'nano', 'axios', 'follow-redirects',
      'form-data', 'combined-stream', 'delayed-stream', 'asynckit', 'retry', 'tough-cookie',
      'axios-cookiejar-support', 'http-cookie-agent', 'request', 'cloudant-follow',
    ],
  },
  // storebench's own code (under the app's root, outside node_modules), and its --metrics library.
  { part: 'storebench', own: true, packages: ['prom-client', 'tdigest', 'bintrees'] },
  // Node's own JavaScript: HTTP, net, streams, events, timers.
  { part: 'node', urlPrefix: 'node:' },
];

const NOT_CPU = '(idle)';

function packageOf(path) {
  const at = path.lastIndexOf('/node_modules/');
  if (at === -1) return null;
  const [first, second] = path.slice(at + '/node_modules/'.length).split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}

const matchesPackage = (name, patterns) =>
  patterns.some((pattern) => (pattern.endsWith('/*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern));

/**
 * The part a call frame belongs to, or null (its caller decides). root: the app's folder, whose
 * files outside node_modules are storebench's own.
 */
export function partOfFrame({ functionName, url }, root = null) {
  const path = url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url;
  const name = path ? packageOf(path) : null;
  for (const rule of PART_RULES) {
    if (rule.frames?.includes(functionName)) return rule.part;
    if (rule.builtins && !url && rule.builtins.includes(functionName)) return rule.part;
    if (rule.packages && name && matchesPackage(name, rule.packages)) return rule.part;
    if (rule.own && root && !name && path.startsWith(`${root.replace(/\/$/, '')}/`)) return rule.part;
    if (rule.urlPrefix && url.startsWith(rule.urlPrefix)) return rule.part;
  }
  return null;
}

/**
 * The time each sample stands for, µs: from it to the next sample (timeDeltas holds the gap
 * before each), the last one's to the profile's end, as Chrome DevTools counts them.
 */
export function sampleDurations({ samples = [], timeDeltas = [], startTime = 0, endTime }) {
  const durations = new Array(samples.length);
  let at = startTime;
  for (let i = 0; i < samples.length; i += 1) {
    at += timeDeltas[i] ?? 0;
    if (i + 1 < samples.length) durations[i] = Math.max(0, timeDeltas[i + 1] ?? 0);
    else if (endTime !== undefined) durations[i] = Math.max(0, endTime - at);
    // A profile with no end (hand-made): the last sample lasts the mean gap.
    else durations[i] = samples.length > 1 ? (at - startTime - (timeDeltas[0] ?? 0)) / (samples.length - 1) : 0;
  }
  return durations;
}

/** sampleDurations, each at most GAP_CAP times the median: a descheduled thread's gap is not CPU. */
function cappedDurations(profile) {
  const durations = sampleDurations(profile);
  if (!durations.length) return durations;
  const sorted = [...durations].sort((a, b) => a - b);
  const cap = GAP_CAP * sorted[Math.floor(sorted.length / 2)];
  return durations.map((micros) => Math.min(micros, cap));
}

/**
 * Each part's time in one profile, µs: Map part -> µs. partOf(callFrame) names a frame's part, or
 * null for its caller's; a sample whose frames name none is `fallback`'s. capped: each sample's
 * time at most GAP_CAP times the usual gap. The one walk both the app's parts (below) and the
 * driver's (bench/profile-parts.js) use.
 */
export function partTimes(profile, partOf, { fallback = 'other', capped = false } = {}) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const partOfNode = new Map();
  const resolve = (id) => {
    if (partOfNode.has(id)) return partOfNode.get(id);
    let part = partOf(nodes.get(id).callFrame);
    if (part === null) part = parents.has(id) ? resolve(parents.get(id)) : fallback;
    partOfNode.set(id, part);
    return part;
  };
  const durations = capped ? cappedDurations(profile) : sampleDurations(profile);
  const times = new Map();
  (profile.samples ?? []).forEach((id, i) => {
    const part = resolve(id);
    times.set(part, (times.get(part) ?? 0) + durations[i]);
  });
  return times;
}

/**
 * Each part's CPU time in one profile, in µs: { parts: {part: µs}, busyMicros, samples }.
 * Idle samples count nowhere; capped: each sample's time at most GAP_CAP times the usual gap.
 */
export function profileParts(profile, { root = null, capped = false } = {}) {
  const partOf = (callFrame) => (callFrame.functionName === NOT_CPU ? NOT_CPU : partOfFrame(callFrame, root));
  const times = partTimes(profile, partOf, { capped });
  const parts = Object.fromEntries(SAMPLED_PARTS.map((part) => [part, times.get(part) ?? 0]));
  const busyMicros = SAMPLED_PARTS.reduce((sum, part) => sum + parts[part], 0);
  const idleIds = new Set(profile.nodes.filter((node) => node.callFrame.functionName === NOT_CPU).map((n) => n.id));
  const samples = (profile.samples ?? []).filter((id) => !idleIds.has(id)).length;
  return { parts, busyMicros, samples };
}

/**
 * A step's parts over the profiles of every app process, in CPU µs per response. The samples say
 * where each main thread's time went; how much time that was comes from /proc where it was read
 * (mainThreadMicros: the main threads' CPU over the same run), the samples' own times otherwise;
 * procMicros, the app's whole CPU (every thread), gives `threads`, the rest. profiles:
 * [{ pid, role, root, profile }].
 */
export function stepParts(profiles, responses, { mainThreadMicros = null, procMicros = null } = {}) {
  const per = (micros) => (responses > 0 ? micros / responses : null);
  const sampled = Object.fromEntries(SAMPLED_PARTS.map((part) => [part, 0]));
  const processes = profiles.map(({ pid, role, root, profile }) => {
    const { parts, busyMicros, samples } = profileParts(profile, { root, capped: true });
    for (const part of SAMPLED_PARTS) sampled[part] += parts[part];
    return { pid, role, samples, microsPerResponse: per(busyMicros) };
  });
  const sampledTotal = SAMPLED_PARTS.reduce((all, part) => all + sampled[part], 0);
  const scale = mainThreadMicros !== null && sampledTotal > 0 ? mainThreadMicros / sampledTotal : 1;
  const threads = mainThreadMicros !== null && procMicros !== null ? Math.max(0, procMicros - mainThreadMicros) : null;
  const parts = Object.fromEntries(SAMPLED_PARTS.map((part) => [part, per(sampled[part] * scale)]));
  parts.threads = threads === null ? null : per(threads);
  return {
    microsPerResponse: per(sampledTotal * scale + (threads ?? 0)),
    sampledMicrosPerResponse: per(sampledTotal),
    scaledTo: mainThreadMicros === null ? 'samples' : 'proc',
    parts,
    processes,
  };
}

function location({ url, lineNumber }, root) {
  if (!url) return '';
  const path = url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url;
  const at = path.lastIndexOf('/node_modules/');
  let shown = path;
  if (at !== -1) shown = path.slice(at + '/node_modules/'.length);
  else if (root && path.startsWith(`${root.replace(/\/$/, '')}/`)) shown = path.slice(root.replace(/\/$/, '').length + 1);
  return ` ${shown}:${lineNumber + 1}`;
}

/**
 * The step's profiles as one flame graph's tree (d3-flame-graph's { name, value, children }, value
 * each frame's total µs with what it called), every process under one root; frames under
 * minShare of the whole are left out, so the tree stays small enough to keep in the Result.
 */
export function flameTree(profiles, { minShare = 0.005 } = {}) {
  const top = { name: 'app', value: 0, children: [] };
  for (const { pid, role, root, profile } of profiles) {
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const self = new Map();
    const durations = sampleDurations(profile);
    (profile.samples ?? []).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + durations[i]));
    const build = (node) => {
      const children = (node.children ?? []).map((id) => nodes.get(id))
        .filter((child) => child.callFrame.functionName !== NOT_CPU).map(build);
      const value = (self.get(node.id) ?? 0) + children.reduce((sum, child) => sum + child.value, 0);
      const { callFrame } = node;
      const name = `${callFrame.functionName || '(anonymous)'}${location(callFrame, root)}`;
      return { name, part: partOfFrame(callFrame, root), value, children };
    };
    const called = new Set(profile.nodes.flatMap((node) => node.children ?? []));
    const rootNode = profile.nodes.find((node) => !called.has(node.id));
    const tree = build(rootNode);
    top.children.push({ ...tree, name: `${role} ${pid}` });
    top.value += tree.value;
  }
  const floor = top.value * minShare;
  const trim = (node) => ({
    name: node.name,
    value: Math.round(node.value),
    ...(node.part ? { part: node.part } : {}),
    children: node.children.filter((child) => child.value >= floor && child.value > 0).map(trim),
  });
  return trim(top);
}
