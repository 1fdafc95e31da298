// node test k8s: the Indexed Job it prints, checked against the Kubernetes API schema (the
// kubernetes-models package's JSON schemas, from the OpenAPI spec), and run here: no cluster is
// available, so its N pods run as local processes with the environment the Job gives them
// (JOB_COMPLETION_INDEX), their logs merged with node test merge --from-logs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { runDriverCli } from '../helpers/driver-cli.js';
import { startHoldServer } from '../helpers/driver-servers.js';
import { fromJson } from '../../result/format.js';
import { resultsFromLog } from '../../result/logs.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function tempDir(t) {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-k8s-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

// One pod: the container's command, run with the Job's environment; stdout and stderr as one log.
function runPod(command, env, prefix) {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { cwd: root, env: { ...process.env, ...env } });
    let log = '';
    const add = (chunk) => (log += chunk);
    child.stdout.on('data', add);
    child.stderr.on('data', add);
    child.on('close', (code) => resolve({ code, log: log.split('\n').map((line) => `${prefix}${line}`).join('\n') }));
  });
}

test('node test k8s prints an Indexed Job the Kubernetes schema accepts, ' +
  'one --start-at and --seed for every pod', async () => {
  const run = await runDriverCli([
    'k8s', '--target', 'http://storebench-app:3000', '--stores', 'redis', '-c', '20', '-t', '30',
    '--parts', '4', '--seed', '9', '--start-at', '2030-01-01T00:00:00Z', '--image', 'registry.example.com/storebench:1',
    '--cpu', '2',
  ]);
  assert.equal(run.status, 0, run.stderr);
  const manifest = parse(run.stdout);
  new Job(manifest).validate(); // throws on a field of the wrong type, an unknown enum value, a required field missing
  assert.equal(manifest.spec.completionMode, 'Indexed');
  assert.equal(manifest.spec.completions, 4);
  assert.equal(manifest.spec.parallelism, 4);
  assert.equal(manifest.spec.backoffLimit, 0);
  const [container] = manifest.spec.template.spec.containers;
  assert.equal(container.image, 'registry.example.com/storebench:1');
  const resources = { cpu: '2', memory: '512Mi' };
  assert.deepEqual(container.resources, { requests: resources, limits: resources });
  const script = container.command.at(-1);
  assert.match(script, /PART=\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)/);
  assert.match(script, /--part "\$PART\/4" --seed 9 --start-at 2030-01-01T00:00:00\.000Z/);
  assert.match(script, /--target http:\/\/storebench-app:3000 --stores redis -c 20 -t 30/);

  const bad = await runDriverCli(['k8s', '-c', '4', '--parts', '2']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /give the parts one target/);
});

test('the Job\'s pods, run here with JOB_COMPLETION_INDEX, merged from their logs: exact counts', async (t) => {
  const server = await startHoldServer(t, [3]);
  const dir = await tempDir(t);
  const run = await runDriverCli(['k8s', '--url', `${server.url}/hold/key1`, '-c', '6', '-n', '600', '--warmup', '0',
    '--parts', '3', '--seed', '4', '--start-at', '+8s']);
  assert.equal(run.status, 0, run.stderr);
  const { command } = parse(run.stdout).spec.template.spec.containers[0];
  // Each pod has its own /tmp in a cluster; here each gets its own TMPDIR.
  const tmp = await Promise.all([0, 1, 2].map((index) => mkdtemp(join(dir, `pod-${index}-`))));
  const pods = await Promise.all([0, 1, 2].map((index) => {
    const env = { JOB_COMPLETION_INDEX: String(index), TMPDIR: tmp[index] };
    return runPod(command, env, `[pod/storebench-parts-${index}-x/driver] `);
  }));
  for (const pod of pods) assert.equal(pod.code, 0, pod.log);
  // kubectl logs --prefix of several pods: their lines may interleave.
  const lines = pods.map((pod) => pod.log.split('\n'));
  const mixed = [];
  for (let i = 0; i < Math.max(...lines.map((list) => list.length)); i += 1) {
    for (const list of lines) if (i < list.length) mixed.push(list[i]);
  }
  const log = join(dir, 'parts.log');
  await writeFile(log, mixed.join('\n'));
  assert.equal(resultsFromLog(mixed.join('\n')).length, 3);

  const merge = await runDriverCli(['merge', '--from-logs', log, '--json', join(dir, 'all.json')]);
  assert.equal(merge.status, 0, merge.stderr);
  const merged = fromJson(await readFile(join(dir, 'all.json'), 'utf8'));
  assert.equal(merged.steps[0].requests, 600);
  assert.equal(merged.steps[0].concurrency, 6);
  assert.deepEqual(merged.steps[0].machines.map((machine) => machine.requests), [200, 200, 200]);
  assert.equal(merged.start.parts.length, 3);

  const cut = join(dir, 'cut.log');
  await writeFile(cut, mixed.join('\n').split('----- storebench result end')[0]);
  const broken = await runDriverCli(['merge', '--from-logs', cut]);
  assert.equal(broken.status, 2);
  assert.match(broken.stderr, /has no end marker/);
});
