// node test k8s <driver flags> --parts N: an Indexed Job whose pods are the N parts of one run,
// each printing its results between marker lines for `node test merge --from-logs`.
import { parseArgs } from 'node:util';
import { driverArgv, launcherSpec } from './part-argv.js';
import { parseStartAt } from '../options/parts.js';
import { randomSeed } from '../util/random.js';
import { RESULT_BEGIN, RESULT_END } from '../result/logs.js';

const K8S_LEAD_SECONDS = 120;

const K8S_FLAGS = launcherSpec('parts', 'image', 'name', 'cpu', 'memory', 'start-at', 'seed', 'help');

/** Parses `node test k8s` argv: { help, options, problems }. */
export function parseK8sArguments(argv, { parseRun, now = Date.now() } = {}) {
  // Only this command's flags are read here; the rest are the driver's, checked below with
  // parseRun (cli/options.js passes its parseArguments: importing it here would be a cycle).
  const { values } = parseArgs({ args: argv, options: K8S_FLAGS, strict: false, allowPositionals: true });
  const problems = [];
  const text = (name) => (typeof values[name] === 'string' ? values[name] : undefined);
  const parts = /^\d+$/.test(text('parts') ?? '') ? Number(text('parts')) : null;
  if (parts === null || parts < 1 || parts > 1000) {
    problems.push(`node test k8s needs --parts N (1 to 1000)${text('parts') ? `, not "${text('parts')}"` : ''}`);
  }
  const seed = text('seed') === undefined ? randomSeed() : Number(text('seed'));
  let startAt = new Date(now + K8S_LEAD_SECONDS * 1000);
  if (text('start-at') !== undefined) {
    const parsed = parseStartAt(text('start-at'), now);
    if (parsed.problem) problems.push(parsed.problem);
    else startAt = parsed.value;
  }
  const name = text('name') ?? 'storebench-parts';
  if (!/^[a-z0-9]([-a-z0-9]{0,50}[a-z0-9])?$/.test(name)) {
    problems.push(`--name must be a DNS label (lower-case letters, digits, -), not "${name}"`);
  }
  const driver = driverArgv(argv);
  // The driver flags are checked here, as part 1 would read them, so the pods do not all fail.
  const checked = parseRun([...driver, '--part', `1/${parts ?? 1}`, '--seed', String(seed)], {});
  problems.push(...checked.problems.filter((problem) => !problems.includes(problem)));
  if (!checked.problems.length && !checked.options.target && !checked.options.urls?.length) {
    problems.push('node test k8s: give the parts one target, --target URL (the app\'s Service) or --url: ' +
      'a pod\'s own embedded app is no shared load');
  }
  return {
    help: values.help === true,
    options: {
      parts,
      image: text('image') ?? 'storebench:latest',
      name,
      cpu: text('cpu') ?? '1',
      memory: text('memory') ?? '512Mi',
      startAt,
      seed,
      driver,
    },
    problems,
  };
}

const shellQuote = (arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`);

// Where a pod's driver writes its results (each pod has its own /tmp; TMPDIR when set).
const RESULT_FILE = '"$' + '{TMPDIR:-/tmp}/storebench-result.json"';

function podScript({ parts, seed, startAt, driver }) {
  const run = [
    'node', 'test.js', ...driver.map(shellQuote),
    '--part', `"$PART/${parts}"`, '--seed', String(seed), '--start-at', startAt.toISOString(),
    '-q', '--json', RESULT_FILE,
  ].join(' ');
  return [
    'PART=$((JOB_COMPLETION_INDEX + 1))',
    `${run} >&2`,
    'code=$?',
    `if [ -f ${RESULT_FILE} ]; then echo "${RESULT_BEGIN} $PART/${parts} -----"; cat ${RESULT_FILE}; echo; ` +
      `echo "${RESULT_END} $PART/${parts} -----"; fi`,
    'exit $code',
  ].join('\n');
}

export function jobManifest(options) {
  const { parts, image, name, cpu, memory } = options;
  const resources = { cpu, memory };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, labels: { app: 'storebench-parts' } },
    spec: {
      completionMode: 'Indexed',
      completions: parts,
      parallelism: parts,
      // A failed part is a failed measurement: never rerun alone, out of step with the others.
      backoffLimit: 0,
      template: {
        metadata: { labels: { app: 'storebench-parts' } },
        spec: {
          restartPolicy: 'Never',
          // One part per node where the cluster has room: parts sharing a node share its cores.
          topologySpreadConstraints: [{
            maxSkew: 1,
            topologyKey: 'kubernetes.io/hostname',
            whenUnsatisfiable: 'ScheduleAnyway',
            labelSelector: { matchLabels: { 'job-name': name } },
          }],
          containers: [{
            name: 'driver',
            image,
            workingDir: '/app',
            command: ['sh', '-c', podScript(options)],
            env: [{
              name: 'STOREBENCH_WRITE_TOKEN',
              valueFrom: { secretKeyRef: { name: 'storebench', key: 'write-token', optional: true } },
            }],
            resources: { requests: resources, limits: resources },
          }],
        },
      },
    },
  };
}

/** YAML for a manifest (block style; strings double-quoted as JSON, which YAML reads alike). */
export function toYaml(value, indent = '') {
  const scalar = (item) => (typeof item === 'string' ? JSON.stringify(item) : String(item));
  const isBlock = (item) => item !== null && typeof item === 'object' && Object.keys(item).length > 0;
  if (Array.isArray(value)) {
    return value.map((item) => (isBlock(item)
      ? `${indent}- ${toYaml(item, `${indent}  `).trimStart()}`
      : `${indent}- ${Array.isArray(item) ? '[]' : scalar(item)}\n`)).join('');
  }
  return Object.entries(value).map(([key, item]) => {
    if (isBlock(item)) return `${indent}${key}:\n${toYaml(item, `${indent}  `)}`;
    const empty = Array.isArray(item) ? '[]' : typeof item === 'object' && item !== null ? '{}' : scalar(item);
    return `${indent}${key}: ${empty}\n`;
  }).join('');
}
