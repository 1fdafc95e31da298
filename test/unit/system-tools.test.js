// Finding programs and users when PATH is bare: without `id` on PATH the
// postgres store said "no postgres user" although the user exists, and a server installed
// off PATH was called not installed.
import assert from 'node:assert/strict';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { SYSTEM_DIRS, findTool, notOnPathReason, which } from '../../util/which.js';
import { systemUser } from '../../util/system-user.js';

async function tempDir(t) {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-tools-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function executable(dir, name) {
  const file = join(dir, name);
  await writeFile(file, '#!/bin/sh\n');
  await chmod(file, 0o755);
  return file;
}

test('findTool takes PATH first, then the system directories, and is null when the tool is in neither', async (t) => {
  const onPath = await tempDir(t);
  const system = await tempDir(t);
  const inSystem = await executable(system, 'tool');
  assert.equal(which('tool', onPath), null);
  assert.equal(findTool('tool', onPath, [system]), inSystem);
  const first = await executable(onPath, 'tool');
  assert.equal(findTool('tool', onPath, [system]), first);
  assert.equal(findTool('other', onPath, [system]), null);
  assert.ok(SYSTEM_DIRS.includes('/usr/bin') && SYSTEM_DIRS.includes('/bin') && SYSTEM_DIRS.includes('/usr/sbin'));
});

test('a server program installed off PATH is said to be there, not missing; ' +
  'one that is nowhere gets the install hint', async (t) => {
  const system = await tempDir(t);
  const reason = (path, systemDirs) =>
    notOnPathReason({
      command: 'fake-server',
      variable: 'FAKE_URL',
      missing: 'no FAKE_URL and no fake-server on PATH; install fake or set FAKE_URL',
      path,
      systemDirs,
    });
  assert.equal(
    reason('/nonexistent', [system]),
    'no FAKE_URL and no fake-server on PATH; install fake or set FAKE_URL',
  );
  const installed = await executable(system, 'fake-server');
  assert.equal(
    reason('/nonexistent', [system]),
    `no FAKE_URL and no fake-server on PATH; it is installed at ${installed}, ` +
    `but ${system} is not on PATH: add it or set FAKE_URL`,
  );
});

test('systemUser reads uid and gid from a passwd file, ' +
  'and is null for a user it does not list or a file it cannot read', async (t) => {
  const dir = await tempDir(t);
  const passwd = join(dir, 'passwd');
  await writeFile(
    passwd,
    'root:x:0:0:root:/root:/bin/bash\npostgresql:x:7:7::/:/bin/false\n' +
    'postgres:x:104:110:PostgreSQL administrator,,,:/var/lib/postgresql:/bin/bash\n',
  );
  assert.deepEqual(systemUser('postgres', passwd), { uid: 104, gid: 110 });
  assert.deepEqual(systemUser('root', passwd), { uid: 0, gid: 0 });
  assert.equal(systemUser('nobody-here', passwd), null);
  assert.equal(systemUser('postgres', join(dir, 'missing')), null);
});
