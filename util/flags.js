// Flag parsing shared by the CLIs: parseArgs in its lenient mode, so every problem is reported at
// once (as meow does), not only the first.
import { parseArgs } from 'node:util';

// Up to `positionals` arguments are taken as positionals (default none); any more are problems.
export function parseFlags(argv, spec, { positionals: allowed = 0 } = {}) {
  const problems = [];
  const { values, positionals, tokens } = parseArgs({
    args: argv,
    options: spec,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const known = spec[token.name];
    if (!known) {
      problems.push(`unknown option ${token.rawName}${suggestion(token.name, spec)}`);
    } else if (known.type === 'string' && token.value === undefined) {
      problems.push(`${token.rawName} needs a value`);
    } else if (known.type === 'string' && !token.inlineValue && token.value.startsWith('--')) {
      // Lenient parsing takes the next word as the value even when it is a flag: `--json --quiet`.
      problems.push(`${token.rawName} needs a value, not the flag ${token.value}`);
    } else if (known.type === 'boolean' && token.value !== undefined) {
      problems.push(`${token.rawName} takes no value`);
    }
  }
  for (const positional of positionals.slice(allowed)) problems.push(`unexpected argument "${positional}"`);
  return { values, positionals: positionals.slice(0, allowed), problems };
}

// Levenshtein's distance.
export function editDistance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

function suggestion(name, spec) {
  const best = nearestName(name, Object.keys(spec));
  return best ? ` (did you mean --${best}?)` : '';
}

export function nearestName(name, candidates) {
  if (name.length < 3) return undefined;
  const limit = name.length > 6 ? 2 : 1;
  const [best] = candidates
    .map((candidate) => ({ candidate, distance: editDistance(name, candidate) }))
    .filter(({ distance }) => distance <= limit)
    .sort((a, b) => a.distance - b.distance);
  return best?.candidate;
}
