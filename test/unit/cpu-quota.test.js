// A server held by a cgroup CPU quota can use only that share of a core: the tiers read it so a
// server at its quota is seen saturated (a made-up /proc and /sys/fs/cgroup, v1 and v2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cpuQuotaOf, serverQuota } from '../../embedded/cpu-quota.js';

async function tree(t, files) {
  const root = await mkdtemp(join(tmpdir(), 'storebench-cgroup-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return { procDir: join(root, 'proc'), cgroupRoot: join(root, 'cgroup') };
}

test('cgroup v1: the cpu controller\'s quota over its period, the tightest up to the root; -1 is none', async (t) => {
  const where = await tree(t, {
    'proc/10/cgroup': '4:memory:/x\n2:cpu,cpuacct:/storebench-1\n0::/\n',
    'proc/11/cgroup': '2:cpu,cpuacct:/\n0::/\n',
    'proc/12/cgroup': '2:cpu,cpuacct:/outer/inner\n',
    'cgroup/cpu,cpuacct/cpu.cfs_quota_us': '-1\n',
    'cgroup/cpu,cpuacct/cpu.cfs_period_us': '100000\n',
    'cgroup/cpu,cpuacct/storebench-1/cpu.cfs_quota_us': '5000\n',
    'cgroup/cpu,cpuacct/storebench-1/cpu.cfs_period_us': '100000\n',
    'cgroup/cpu,cpuacct/outer/cpu.cfs_quota_us': '50000\n',
    'cgroup/cpu,cpuacct/outer/cpu.cfs_period_us': '100000\n',
    'cgroup/cpu,cpuacct/outer/inner/cpu.cfs_quota_us': '-1\n',
    'cgroup/cpu,cpuacct/outer/inner/cpu.cfs_period_us': '100000\n',
  });
  assert.deepEqual(await cpuQuotaOf(10, where), { group: 'v1:/storebench-1', cores: 0.05 });
  assert.deepEqual(await cpuQuotaOf(11, where), { group: 'v1:/', cores: null });
  assert.deepEqual(await cpuQuotaOf(12, where), { group: 'v1:/outer/inner', cores: 0.5 }, 'the parent\'s limit holds');
  assert.equal(await cpuQuotaOf(99, where), null, 'a process that is gone');
});

test('cgroup v2: cpu.max, "max" is none', async (t) => {
  const where = await tree(t, {
    'proc/20/cgroup': '0::/storebench-2\n',
    'proc/21/cgroup': '0::/free\n',
    'cgroup/storebench-2/cpu.max': '25000 100000\n',
    'cgroup/free/cpu.max': 'max 100000\n',
  });
  assert.deepEqual(await cpuQuotaOf(20, where), { group: 'v2:/storebench-2', cores: 0.25 });
  assert.deepEqual(await cpuQuotaOf(21, where), { group: 'v2:/free', cores: null });
});

test('a server\'s quota: the sum over its processes\' cgroups, none when any process runs free', async (t) => {
  const where = await tree(t, {
    'proc/1/cgroup': '0::/a\n',
    'proc/2/cgroup': '0::/a\n',
    'proc/3/cgroup': '0::/b\n',
    'proc/4/cgroup': '0::/\n',
    'cgroup/a/cpu.max': '5000 100000\n',
    'cgroup/b/cpu.max': '10000 100000\n',
  });
  const coresOf = async (pids) => (await serverQuota(pids, where))?.cores ?? null;
  assert.equal(await coresOf([1, 2]), 0.05, 'two processes in one cgroup share its quota');
  assert.equal(Number((await coresOf([1, 3])).toFixed(6)), 0.15);
  assert.equal(await coresOf([1, 4]), null);
  assert.equal(await coresOf([]), null);
});
