// Where a V8 CPU profile's time went, by package path: each sample goes to the part of the
// frame nearest its leaf that has a script (a native leaf such as `writev` counts for the JS
// that called it). Parts: `ours <folder>/<file>`, a package by name (`loadtest`,
// `@redis/client`), `node <module>` for Node's own JS, and V8's `(garbage collector)`,
// `(program)` and `(idle)`. The .cpuprofile format is Chrome DevTools' (node --cpu-prof writes it).
import { fileURLToPath } from 'node:url';
import { partTimes } from '../result/profile-parts.js';

const GC = '(garbage collector)';
const PROGRAM = '(program)';
const IDLE = '(idle)';

// The innermost package: node_modules/a/node_modules/b/x.js is b's.
const PACKAGE = /.*[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/;

/** The part a script URL belongs to; `root` is the repository's folder. */
export function partOfUrl(url, root) {
  if (url.startsWith('node:')) return `node ${url.slice(5)}`;
  const path = url.startsWith('file:') ? fileURLToPath(url) : url;
  const dependency = PACKAGE.exec(path);
  if (dependency) return dependency[1].replace('\\', '/');
  if (path.startsWith(root)) return `ours ${path.slice(root.length).replace(/^[\\/]/, '').replaceAll('\\', '/')}`;
  if (!path.includes('/') && !path.includes('\\')) return `node ${path}`; // Node's own, before node: URLs
  return 'other';
}

/** The group of a part: ours, node, gc, program, idle, or the package's own name. */
function groupOf(part) {
  if (part.startsWith('ours ')) return 'ours';
  if (part.startsWith('node ')) return 'node';
  if (part === GC) return 'gc';
  if (part === PROGRAM || part === '(root)') return 'program';
  if (part === IDLE) return 'idle';
  return part;
}

/**
 * Milliseconds of the profile per part: Map part -> ms (result/profile-parts.js's walk: a sample
 * lasts until the next one; a frame with no script is its caller's).
 */
export function profileParts(profile, root) {
  const partOf = (callFrame) => {
    if (callFrame.url) return partOfUrl(callFrame.url, root);
    if (/^\(.*\)$/.test(callFrame.functionName) && callFrame.functionName !== '(root)') return callFrame.functionName;
    return null;
  };
  const micros = partTimes(profile, partOf, { fallback: PROGRAM });
  return new Map([...micros].map(([part, us]) => [part, us / 1000]));
}

/**
 * The profile's busy time (all but idle) shared out as `cpuMicros` of CPU per response: each
 * part's share of the busy samples times the CPU the thread used over `responses`. Returns
 * [{ part, group, us }] largest first; `busyMs` is what the shares were taken of.
 */
export function cpuPerResponse(parts, cpuMicros, responses) {
  const busy = [...parts].filter(([part]) => part !== IDLE);
  const busyMs = busy.reduce((sum, [, ms]) => sum + ms, 0);
  const rows = busy.map(([part, ms]) => ({
    part,
    group: groupOf(part),
    us: busyMs > 0 && responses > 0 ? (ms / busyMs) * (cpuMicros / responses) : 0,
  }));
  return { busyMs, rows: rows.sort((a, b) => b.us - a.us) };
}

/** The rows summed by group (ours, node, gc, a package...), largest first. */
export function byGroup(rows) {
  const groups = new Map();
  for (const { group, us } of rows) groups.set(group, (groups.get(group) ?? 0) + us);
  return [...groups].map(([group, us]) => ({ group, us })).sort((a, b) => b.us - a.us);
}
