// Every error (and warning) code the code can produce is documented in docs/errors.md, and
// every class that carries a code carries a registered one.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as errors from '../../util/errors.js';
import { WARNING_CODES } from '../../result/warnings.js';

const docs = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');

test('every registered error code is documented in docs/errors.md', () => {
  const registered = { ...errors.ERROR_CODES, ...WARNING_CODES };
  const missing = Object.keys(registered).filter((code) => !docs.includes(`\`${code}\``));
  assert.deepEqual(missing, [], `codes missing from docs/errors.md: ${missing.join(', ')}`);
});

test('each code declares what it means, and an HTTP status or an exit code where it ends one', () => {
  for (const [code, entry] of Object.entries(errors.ERROR_CODES)) {
    assert.match(code, /^[A-Z][A-Z_]+$/);
    assert.equal(typeof entry.meaning, 'string', code);
    assert.ok(Number.isInteger(entry.status) || Number.isInteger(entry.exit), `${code} has neither status nor exit`);
  }
});

test('the typed errors carry registered codes, their statuses and their exit codes', () => {
  assert.equal(new errors.UnknownStoreError('x').status, 404);
  assert.equal(new errors.KeyNotFoundError('x', 'k').code, 'KEY_NOT_FOUND');
  assert.equal(new errors.StoreUnavailableError('x', 'down').status, 503);
  assert.equal(errors.exitCodeOf(new errors.UsageError(['bad'])), 2);
  assert.equal(errors.exitCodeOf(new errors.RunError('failed')), 1);
  assert.equal(errors.exitCodeOf(new Error('anything else')), 1);
  assert.throws(() => new errors.StorebenchError('x', { code: 'NOT_A_CODE' }), /unregistered error code NOT_A_CODE/);
});
