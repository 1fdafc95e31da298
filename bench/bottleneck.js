// npm run perf:bottleneck: what limited each row of a quick sweep (a benchmark, not a test: it
// prints figures and targets, and never fails on them).
//
//   npm run perf:bottleneck -- [--runs 1] [--engine loadtest|fast] [-- extra node test flags]
//
// Runs `node test --quick` (every store the machine can run, key1, c=5 and c=20, 1 s steps)
// --runs times and prints, per run, each comparison row's rank, rps, bottleneck and evidence,
// and each tier's CPU µs per response. Targets (docs/measurement.md, "Where the time goes"):
// every row names its bottleneck, and on a 2-core machine `memory` reads `app` at c=20.
// Each run prints how busy the machine was: on a shared machine, read a quiet run.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { bottleneckText } from '../result/bottleneck.js';
import { microsText } from '../report/tiers-text.js';
import { median } from '../util/stats.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values, positionals } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    engine: { type: 'string', default: 'loadtest' },
  },
  allowPositionals: true,
});
const runs = Number(values.runs);
if (!(Number.isInteger(runs) && runs > 0) || !['loadtest', 'fast'].includes(values.engine)) {
  console.error('usage: npm run perf:bottleneck -- [--runs N] [--engine loadtest|fast] [-- node test flags]');
  process.exit(2);
}

async function quickRun() {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-bottleneck-'));
  const file = join(dir, 'run.json');
  const args = ['test.js', '--quick', '--engine', values.engine, ...positionals, '--json', file, '-q'];
  const status = await new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('close', resolve);
  });
  try {
    return { status, result: JSON.parse(await readFile(file, 'utf8')) };
  } catch {
    return { status, result: null };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const percent = (value) => (value === null ? '-' : `${Math.round(value)}%`);

for (let run = 1; run <= runs; run += 1) {
  const { status, result } = await quickRun();
  if (!result) {
    console.log(`run ${run}: node test exited ${status} without a results file`);
    continue;
  }
  const machine = result.steps.map((step) => step.machine);
  const steal = median(machine.map((figures) => figures.stealPercent ?? 0));
  const others = median(machine.map((figures) => figures.othersCpuPercent ?? 0));
  console.log(`\nrun ${run} (${result.system.cpuCount} cpus, ${values.engine}): median steal ${percent(steal)}, ` +
    `other processes ${percent(others)} of a core`);
  let named = 0;
  let rows = 0;
  for (const group of result.comparison.filter((entry) => entry.operation === null)) {
    console.log(`  c=${group.load}${group.bottleneck ? ` (every row: ${group.bottleneck})` : ''}`);
    for (const row of group.rows) {
      rows += 1;
      if (row.bottleneck?.tier) named += 1;
      const step = result.steps
        .find((candidate) => candidate.store === row.store && candidate.concurrency === group.load);
      const tiers = step?.tiers ? ` · µs/response ${microsText(step.tiers)}` : '';
      const rank = String(row.rank ?? '-').padStart(2);
      console.log(`    ${rank} ${row.store.padEnd(15)} ${String(Math.round(row.rps)).padStart(6)} rps  ` +
        `${bottleneckText(row.bottleneck).padEnd(14)}${tiers}`);
      console.log(`         ${row.bottleneck?.evidence ?? 'no bottleneck recorded'}`);
    }
  }
  const memory = result.comparison.find((group) => group.operation === null && group.load === 20)?.rows
    .find((row) => row.store === 'memory');
  console.log(`  target: every row names its bottleneck: ${named} of ${rows}`);
  console.log(`  target: memory at c=20 reads app: ${memory ? bottleneckText(memory.bottleneck) : 'not measured'}`);
}
