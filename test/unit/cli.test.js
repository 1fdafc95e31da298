// The top level of the CLIs (util/cli.js): every failure ends as lines a user can read, never a stack trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reportFailure } from '../../util/cli.js';
import { OutputPathError, RunError, UsageError } from '../../util/errors.js';

const capture = () => {
  const stream = { text: '', write(chunk) { stream.text += chunk; } };
  return stream;
};

test('a known failure prints one line per problem with its exit code', () => {
  const usage = capture();
  assert.equal(reportFailure('node test', new UsageError(['a', 'b']), { stderr: usage, env: {} }), 2);
  assert.equal(usage.text, 'node test: a\nnode test: b\nRun node test --help for usage.\n');
  const run = capture();
  assert.equal(
    reportFailure('node test', new RunError('redis is unavailable\nmemcached is down'), { stderr: run, env: {} }),
    1,
  );
  assert.equal(run.text, 'node test: redis is unavailable\nnode test: memcached is down\n');
  const output = capture();
  assert.equal(
    reportFailure(
      'node test-json',
      new OutputPathError(['--json x/y: x is a file, not a folder']),
      { stderr: output, env: {} },
    ),
    2,
  );
  assert.equal(output.text, 'node test-json: --json x/y: x is a file, not a folder\n');
});

// An unexpected error reached the user as a stack trace (and with it any URL it held).
test('anything else is one redacted line and exit 1; STOREBENCH_DEBUG=1 adds the stack', () => {
  const error = new TypeError('cannot read x of http://bench:s3cret@host/\nsecond line');
  const plain = capture();
  assert.equal(reportFailure('node test', error, { stderr: plain, env: {} }), 1);
  assert.equal(plain.text, 'node test: unexpected error: cannot read x of http://bench:***@host/ (STOREBENCH_DEBUG=1 shows where)\n');
  const debug = capture();
  reportFailure('node test', error, { stderr: debug, env: { STOREBENCH_DEBUG: '1' } });
  assert.match(debug.text, /^node test: unexpected error: cannot read x of http:\/\/bench:\*\*\*@host\/\nTypeError: cannot read x/);
  assert.ok(!debug.text.includes('s3cret'));
});
