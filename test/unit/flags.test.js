// util/flags.js: every problem at once, and a near miss of a flag gets a suggestion.
import test from 'node:test';
import assert from 'node:assert/strict';
import { parseFlags } from '../../util/flags.js';

const spec = { concurrency: { type: 'string', short: 'c' }, quiet: { type: 'boolean' }, json: { type: 'string' } };

test('a misspelt flag is named with the flag it most likely meant', () => {
  assert.deepEqual(
    parseFlags(['--concurency', '5'], spec).problems.slice(0, 1),
    ['unknown option --concurency (did you mean --concurrency?)'],
  );
  assert.deepEqual(
    parseFlags(['--jsn', 'x'], spec).problems.slice(0, 1),
    ['unknown option --jsn (did you mean --json?)'],
  );
});

test('a flag like none of the known ones gets no guess', () => {
  assert.deepEqual(parseFlags(['--bogus'], spec).problems, ['unknown option --bogus']);
  assert.deepEqual(parseFlags(['-x'], spec).problems, ['unknown option -x']);
});

test('every problem is reported, not only the first', () => {
  const { problems } = parseFlags(['--quiet=yes', 'stray', '--nope', '--json'], spec);
  assert.deepEqual(
    problems,
    ['--quiet takes no value', 'unknown option --nope', '--json needs a value', 'unexpected argument "stray"'],
  );
});

test('a string flag followed by another flag is missing its value, not given the flag as one', () => {
  assert.deepEqual(parseFlags(['--json', '--quiet'], spec).problems, ['--json needs a value, not the flag --quiet']);
  assert.deepEqual(parseFlags(['--json', '-'], spec).problems, []);
  assert.deepEqual(parseFlags(['--json=--odd-name.json'], spec).problems, []);
});
