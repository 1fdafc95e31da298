// The CPU a cgroup quota lets a server use, in cores: a server held to a twentieth of a core is
// saturated at 5% of one, which its share of a whole core cannot show. Read, never set (that is
// resource-limits.js's job), for any server: one this run limited, or one in a container.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

const readText = (path) => readFile(path, 'utf8').catch(() => null);

// The tightest quota from a cgroup up to its root (a parent's limit holds its children too).
async function tightest(dir, root, quotaOf) {
  let cores = null;
  for (let at = dir; ; at = dirname(at)) {
    const own = await quotaOf(join(root, at));
    if (own !== null && (cores === null || own < cores)) cores = own;
    if (at === '/' || at === '.') return cores;
  }
}

async function v1Quota(path) {
  const quota = Number((await readText(join(path, 'cpu.cfs_quota_us')))?.trim());
  const period = Number((await readText(join(path, 'cpu.cfs_period_us')))?.trim());
  return quota > 0 && period > 0 ? quota / period : null;
}

async function v2Quota(path) {
  const [quota, period] = (await readText(join(path, 'cpu.max')))?.trim().split(/\s+/) ?? [];
  return quota && quota !== 'max' && Number(period) > 0 ? Number(quota) / Number(period) : null;
}

/** { group, cores } of pid's CPU quota (cores null when none), or null when it cannot be read. */
export async function cpuQuotaOf(pid, { procDir = '/proc', cgroupRoot = '/sys/fs/cgroup' } = {}) {
  const lines = (await readText(join(procDir, String(pid), 'cgroup')))?.trim().split('\n');
  if (!lines) return null;
  const pathOf = (line) => line.slice(line.indexOf(':', line.indexOf(':') + 1) + 1);
  const v1 = lines.find((line) => line.split(':')[1]?.split(',').includes('cpu'));
  if (v1) {
    const controllers = v1.split(':')[1];
    const mount = join(cgroupRoot, controllers);
    const root = (await readText(join(mount, 'cpu.cfs_period_us'))) === null ? join(cgroupRoot, 'cpu') : mount;
    return { group: `v1:${pathOf(v1)}`, cores: await tightest(pathOf(v1), root, v1Quota) };
  }
  const v2 = lines.find((line) => line.startsWith('0::'));
  if (!v2) return { group: null, cores: null };
  return { group: `v2:${pathOf(v2)}`, cores: await tightest(pathOf(v2), cgroupRoot, v2Quota) };
}

/**
 * The cores a server's processes may use together under their quotas: { cores, groups } with
 * cores the sum over their cgroups and groups those cgroups' names, or null when any of them runs
 * without one (or cannot be read), so that only a real cap counts.
 */
export async function serverQuota(pids, options) {
  const groups = new Map();
  for (const pid of pids) {
    const quota = await cpuQuotaOf(pid, options);
    if (!quota || quota.cores === null) return null;
    groups.set(quota.group, quota.cores);
  }
  if (!groups.size) return null;
  const cores = [...groups.values()].reduce((sum, each) => sum + each, 0);
  return { cores, groups: [...groups.keys()].sort().join(' ') };
}
