// Flag parsing shared by the CLIs: node:util parseArgs in its lenient mode, so every problem
// (an unknown option, a missing value, a stray argument) is collected and reported at once,
// as meow does, instead of stopping at the first.
import { parseArgs } from 'node:util';

/**
 * Parses argv against spec (parseArgs options); returns { values, positionals, problems }.
 * Up to `positionals` arguments are taken as positionals (default none); any more are problems.
 */
export function parseFlags(argv, spec, { positionals: allowed = 0 } = {}) {
  const problems = [];
  const { values, positionals, tokens } = parseArgs({ args: argv, options: spec, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const known = spec[token.name];
    if (!known) problems.push(`unknown option ${token.rawName}`);
    else if (known.type === 'string' && token.value === undefined) problems.push(`${token.rawName} needs a value`);
    else if (known.type === 'boolean' && token.value !== undefined) problems.push(`${token.rawName} takes no value`);
  }
  for (const positional of positionals.slice(allowed)) problems.push(`unexpected argument "${positional}"`);
  return { values, positionals: positionals.slice(0, allowed), problems };
}
