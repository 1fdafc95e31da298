// --profile, as text: where the app's CPU went per response in each step's profiled run, one line
// a step: `concurrency 20: app 612 µs: express 301, redis client 148, node http 97, ...`.
import { PARTS } from '../result/profile-parts.js';

const loadLabel = (step) => (step.model === 'open' ? `${step.targetRps} rps` : `concurrency ${step.concurrency}`);

/** How a part is named for a step: its framework, its store's client, Node's HTTP core. */
export function partLabel(part, step) {
  if (part === 'framework') return step.framework ?? 'framework';
  if (part === 'client') return `${step.store} client`;
  if (part === 'node') return 'node http';
  if (part === 'threads') return 'other threads';
  return part;
}

const percent = (fraction) => `${fraction > 0 ? '+' : ''}${Math.round(fraction * 100)}%`;

/** "app 612 µs: express 301, redis client 148, ... (/proc 640 µs; profiled run -6% rps)". */
export function profileLine(step) {
  const { profile } = step;
  const shown = PARTS.filter((part) => profile.parts[part] !== null && Math.round(profile.parts[part]) > 0)
    .map((part) => `${partLabel(part, step)} ${Math.round(profile.parts[part])}`);
  const proc = profile.scaledTo === 'proc' ? '' : '; sampled: no /proc here';
  const cost = profile.rpsCost === null ? '' : `; profiled run ${percent(profile.rpsCost)} rps`;
  const total = Math.round(profile.microsPerResponse ?? 0);
  return `app ${total} µs: ${shown.join(', ')} (CPU µs per response${proc}${cost})`;
}

/** One line per profiled step, '' when none was profiled. */
export function renderProfileLines(steps) {
  return steps.filter((step) => step.profile).map((step) => `${loadLabel(step)}: ${profileLine(step)}`).join('\n');
}
