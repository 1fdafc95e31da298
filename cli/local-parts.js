// node test --parts N --local: N driver processes here as parts of one run, merged. The test bed
// of the Cloud Foundry and Kubernetes launchers. Never prints.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAppProcess } from '../driver/app-process.js';
import { driverArgv, partFlags } from './part-argv.js';
import { LOCAL_LEAD_SECONDS } from '../options/parts.js';
import { STORE_DELAY_FLAGS } from '../options/store-delay.js';
import { SERVER_TIMING_FLAGS } from '../options/server-timing.js';
import { TOKEN_ENV } from '../config/settings.js';
import { appLaunch } from '../driver/app-launch.js';
import { readResults } from '../result/format.js';
import { mergeResults } from '../result/merge.js';
import { RunError } from '../util/errors.js';
import { redactText } from '../util/redact.js';

const DRIVER = fileURLToPath(new URL('../test.js', import.meta.url));

/** Runs `node test.js args` with `env`; resolves to { code, stderr } (its stdout is not kept). */
function runPart(args, env, signal) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [DRIVER, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-8192);
    });
    const onAbort = () => child.kill('SIGINT');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.once('error', (error) => resolve({ code: 1, stderr: error.message }));
    child.once('close', (code, exitSignal) => {
      signal?.removeEventListener('abort', onAbort);
      resolve({ code: code ?? (exitSignal ? 1 : 0), stderr });
    });
  });
}

/** The parts' --start-at: the instant given, or +SECS (default LOCAL_LEAD_SECONDS) from now. */
export function startOf(options, now = Date.now()) {
  if (options.startAt && options.startAfterSeconds === null) return options.startAt;
  return new Date(now + (options.startAfterSeconds ?? LOCAL_LEAD_SECONDS) * 1000);
}

const lastLine = (text) => text.trim().split('\n').filter(Boolean).at(-1) ?? '';

/**
 * Runs the parts, with one app.js for all unless --target, --url or --direct: { result, parts }.
 */
export async function runLocalParts(argv, options, { signal, onStarted = () => {}, env = process.env } = {}) {
  const count = options.parts;
  const dir = await mkdtemp(join(tmpdir(), 'storebench-parts-'));
  // The shared app's own flags (each with whether it takes a value): the parts, given its --target, must not
  // see them (they refuse --app-workers and --framework with --target).
  const extra = [...Object.keys(STORE_DELAY_FLAGS).map((flag) => [flag, true]),
    ...Object.keys(SERVER_TIMING_FLAGS).map((flag) => [flag, false]), ['app-workers', true], ['framework', true]];
  const shared = !options.target && !options.urls.length && !options.direct;
  const launch = appLaunch(options, { env });
  const { token } = launch;
  let app = null;
  try {
    const args = driverArgv(argv, shared ? extra : []);
    if (shared) {
      app = await startAppProcess({ stores: options.stores, env: launch.env, args: launch.args });
      args.push('--target', app.url);
    }
    const startAt = startOf(options);
    const files = Array.from({ length: count }, (_, i) => join(dir, `part-${i + 1}-of-${count}.json`));
    onStarted({ startAt, target: app?.url ?? null, dir });
    const partEnv = { ...env, [TOKEN_ENV]: token };
    const outcomes = await Promise.all(files.map((file, i) => runPart(
      [...args, ...partFlags({ index: i + 1, count, seed: options.seed, startAt }), '--json', file],
      partEnv,
      signal,
    )));
    const failed = outcomes.map((outcome, i) => ({ ...outcome, index: i + 1 })).filter(({ code }) => code !== 0);
    if (failed.length) {
      const lines = failed.map(({ index, code, stderr }) => {
        return `part ${index} of ${count} exited ${code}: ${redactText(lastLine(stderr))}`;
      });
      throw new RunError(lines.join('\n'));
    }
    const inputs = [];
    for (const file of files) inputs.push({ file: basename(file), result: await readResults(file) });
    return { result: mergeResults(inputs), parts: files.map((file, i) => ({ file, code: outcomes[i].code })) };
  } finally {
    await app?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
