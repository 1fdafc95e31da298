// npm run perf:counter: every scenario's verdicts with their counter-runs at the default scale
// (a benchmark, not a test: it prints outcomes and never fails on them), for docs/scenarios.md.
//
//   npm run perf:counter -- [--scenarios cloudant-vs-redis,...] [--scale default] [--out DIR]
//
// Each scenario runs as a user runs it, `node test --scenario NAME --counter --json F`, one after
// another; its whole text goes to DIR/NAME.txt and its results file to DIR/NAME.json. Then one
// line per judged verdict: the outcome with the system as the study had it, the counter-run's,
// whether they came out both ways, and what the counter-run changed (or what set the verdict,
// or why it has no counter-run). Read the figures of a quiet machine: each scenario's text
// says how busy it was (BUSY_MACHINE, CPU_STEAL on its steps).
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { listScenarios } from '../studies/index.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    scenarios: { type: 'string' },
    scale: { type: 'string', default: 'default' },
    out: { type: 'string' },
  },
});

const all = (await listScenarios()).map((scenario) => scenario.name);
const names = values.scenarios ? values.scenarios.split(',') : all;
const out = values.out ?? await mkdtemp(join(tmpdir(), 'storebench-counter-'));
await mkdir(out, { recursive: true });

function runScenario(name) {
  return new Promise((resolve) => {
    const json = join(out, `${name}.json`);
    const args = ['test.js', '--scenario', name, '--scale', values.scale, '--counter', '--json', json];
    const started = Date.now();
    const child = spawn(process.execPath, args, { cwd: ROOT });
    let text = '';
    child.stdout.on('data', (chunk) => { text += chunk; });
    child.stderr.on('data', (chunk) => process.stderr.write(chunk));
    child.on('close', (status) => resolve({ name, json, text, status, seconds: (Date.now() - started) / 1000 }));
  });
}

const word = (verdict) => verdict.split(':')[0];
const rows = [];
for (const name of names) {
  process.stderr.write(`perf:counter: ${name} at scale ${values.scale}…\n`);
  const run = await runScenario(name);
  await writeFile(join(out, `${name}.txt`), run.text);
  let record = null;
  try {
    record = JSON.parse(await readFile(run.json, 'utf8')).scenario;
  } catch {
    rows.push(`${name}: no results file (exit ${run.status}); its text is in ${join(out, `${name}.txt`)}`);
    continue;
  }
  rows.push(`${name} (exit ${run.status}, ${run.seconds.toFixed(0)} s):`);
  for (const verdict of record.verdicts.filter((entry) => !entry.verdict.startsWith('not runnable'))) {
    const counter = verdict.counter;
    const flipped = counter && word(counter.verdict) !== word(verdict.verdict);
    const both = counter ? (flipped ? 'came out both ways' : 'did not flip') : '';
    const how = counter
      ? `${counter.change}${counter.how ? ` (${counter.how})` : ''}`
      : verdict.setBy ? `set by: ${verdict.setBy}` : `no counter-run: ${verdict.noCounter ?? 'none given'}`;
    const shown = verdict.outcome ? `${word(verdict.verdict)} (measured: ${verdict.outcome})` : word(verdict.verdict);
    rows.push(`  ${verdict.id}: ${shown} | ${counter ? word(counter.verdict) : '-'}` +
      `${both ? ` (${both})` : ''}; ${how}`);
  }
}
process.stdout.write(`System: Node ${process.version}, scale ${values.scale}; texts and results files in ${out}\n` +
  `${rows.join('\n')}\n`);
