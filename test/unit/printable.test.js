// Text from the network is printed as one line with no control characters left to act on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { printable } from '../../util/printable.js';
import { renderSkipped } from '../../report/table.js';
import { storeNameProblem } from '../../stores/keys.js';
import { storeNames } from '../../stores/index.js';

test('printable removes C0, DEL, C1 and reordering marks, and folds line breaks into spaces', () => {
  assert.equal(printable('\x1b]0;OWNED\x07\x1b[2K\x1b[1A\r\nall good'), ']0;OWNED[2K[1A all good');
  assert.equal(printable('a\u009b31mb\u007fc\u202eevil\u2066d\u2028e\tf'), 'a31mbcevild e f');
  assert.equal(printable('plain text: 200 KB, ünïcode ✓'), 'plain text: 200 KB, ünïcode ✓');
});

test('a saved results file\'s skipped stores print inertly too (node test report)', () => {
  const text = renderSkipped([{ store: 'redis', status: 'down', reason: 'x\x1b[2K\nall good' }]);
  assert.equal(text, 'skipped redis: down (x[2K all good)');
});

test('every store of the registry has a name of the store-name alphabet; a control character is not one', () => {
  assert.deepEqual(storeNames.filter((name) => storeNameProblem(name)), []);
  for (const bad of ['', 'evil\x1b[2K', 'a/b', 'a b', 'x'.repeat(251), 42]) {
    assert.ok(storeNameProblem(bad), JSON.stringify(bad));
  }
});
