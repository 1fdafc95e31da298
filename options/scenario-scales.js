// A scenario's scales and Cloudant plans, and the problems with a given one: what the flag parser
// needs of scenarios, apart from the runner (studies/index.js), which needs the parser.
import { editDistance } from '../util/flags.js';

export const SCALES = ['tiny', 'default', 'full'];
export const CLOUDANT_PLANS = ['lite', 'none'];

/** " (did you mean X?)" for the nearest of names within a few edits, else "". */
export function suggestion(name, names) {
  const [best] = names.map((candidate) => ({ candidate, distance: editDistance(name, candidate) }))
    .filter(({ distance }) => distance <= Math.max(2, Math.floor(name.length / 3)))
    .sort((a, b) => a.distance - b.distance);
  return best ? ` (did you mean ${best.candidate}?)` : '';
}

export function scaleProblems(scale) {
  if (scale === undefined || SCALES.includes(scale)) return [];
  return [`--scale must be one of ${SCALES.join(', ')}, not "${scale}"${suggestion(scale, SCALES)}`];
}
