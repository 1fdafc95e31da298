import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAppProcess } from '../../driver/app-process.js';
import { RunError } from '../../util/errors.js';

test('app.js runs as a child process on a free port and stops on request', async (t) => {
  const app = await startAppProcess({ stores: ['memory'] });
  t.after(() => app.stop());
  assert.match(app.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.notEqual(app.child.pid, process.pid);
  const response = await fetch(`${app.url}/memory/key1`);
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { message: 'Text data' });
  await app.stop();
  assert.ok(app.child.exitCode !== null || app.child.signalCode !== null, 'the child is gone');
  await assert.rejects(fetch(`${app.url}/healthz`));
});

test('an app that dies before listening fails with its output', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-app-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const script = join(dir, 'broken-app.js');
  await writeFile(script, "console.error('cannot open stores: boom'); process.exit(3);\n");
  await assert.rejects(startAppProcess({ appPath: script }), (error) => {
    assert.ok(error instanceof RunError);
    assert.match(error.message, /^app\.js exited \(code 3\) before listening:\ncannot open stores: boom$/);
    return true;
  });
});
