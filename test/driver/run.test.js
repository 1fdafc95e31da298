import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { runDriver } from '../../driver/run.js';
import { parseArguments } from '../../driver/options.js';
import { RunError } from '../../util/errors.js';

const collector = () => {
  const stream = new Writable({ write(chunk, encoding, done) { stream.text += chunk; done(); } });
  stream.text = '';
  return stream;
};

test('if the embedded app dies mid-sweep the finished steps are kept and the run fails with the reason', async () => {
  const { options, problems } = parseArguments(['--stores', 'memory', '--keys', 'key1,key2', '-c', '1,1,1,1', '-t', '0.3', '--warmup', '0', '-q']);
  assert.deepEqual(problems, []);
  const stdout = collector();
  let killed = false;
  const run = runDriver(options, {
    stdout,
    stderr: collector(),
    onAppStarted: (app) => {
      // After the first key's four steps (~1.2 s), kill the app as a crash would.
      setTimeout(() => { killed = app.child.kill('SIGKILL'); }, 1800);
    },
  });
  await assert.rejects(run, (error) => {
    assert.ok(error instanceof RunError);
    assert.match(error.message, /^app\.js exited \(SIGKILL\) during the sweep; the \d+ finished step\(s\) are above and in the results file$/);
    return true;
  });
  assert.ok(killed);
  assert.match(stdout.text, /## http:\/\/127\.0\.0\.1:\d+\/memory\/key1\n/);
  assert.match(stdout.text, /\napp\.js exited \(SIGKILL\) during the sweep: \d+ step\(s\) finished; the step in progress was dropped/);
});

test('a normal run stops the app without calling that a crash', async () => {
  const { options } = parseArguments(['--stores', 'memory', '--keys', 'key1', '-c', '1', '-n', '20', '--warmup', '0', '-q']);
  const stdout = collector();
  let app;
  assert.equal(await runDriver(options, { stdout, stderr: collector(), onAppStarted: (started) => (app = started) }), 0);
  assert.ok(app.child.exitCode !== null || app.child.signalCode !== null, 'the app was stopped');
  assert.doesNotMatch(stdout.text, /exited/);
});
