// The driver's CPU per request: what one request costs the client, from its CPU
// time over a step divided by the responses. With --workers each worker thread reads its own
// CPU clock (driver/thread-cpu.js) and the figures are summed; the whole process's
// process.cpuUsage() (main thread and garbage collector included) is shown beside them.
// wrk's own figure comes from the shell that ran it: `times` prints its children's CPU.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createStepRunner } from '../driver/workers.js';
import { loadtestEngine } from '../driver/engines/loadtest.js';
import { parseWrk } from './wrk.js';

const run = promisify(execFile);
const WARMUP_SECONDS = 1;

/**
 * Runs a closed-loop step of `concurrency` for `seconds` over `workers` threads against url
 * with `engine` (default loadtest's)
 * (after a warm-up on the same threads); resolves { rps, responses, threadsUs, processUs,
 * userUs, systemUs, wakeUpsPerResponse }: µs of CPU per response, summed over the worker
 * threads and for the whole process (split into user and kernel time), and the process's
 * voluntary context switches (its threads going to sleep) per response.
 */
export async function driverCpuPerRequest(url, { workers, concurrency, seconds, engine = loadtestEngine }) {
  // Even one worker runs in a thread, so both figures count the same: the threads' own CPU.
  const runner = createStepRunner({ workers, engine, threads: true });
  const load = { url, concurrency, keepAlive: true, timeoutMs: 10_000 };
  try {
    await runner.measure({ ...load, durationSeconds: WARMUP_SECONDS });
    const before = process.resourceUsage();
    const step = await runner.measure({ ...load, durationSeconds: seconds });
    const after = process.resourceUsage();
    const userMicros = after.userCPUTime - before.userCPUTime;
    const systemMicros = after.systemCPUTime - before.systemCPUTime;
    const processMicros = userMicros + systemMicros;
    // Every thread's sleeps (getrusage counts the whole process): one per wake-up of a thread.
    const wakeUps = after.voluntaryContextSwitches - before.voluntaryContextSwitches;
    const threadSeconds = step.workers.map((worker) => worker.cpuSeconds);
    const threadsMicros = threadSeconds.includes(null)
      ? null
      : threadSeconds.reduce((sum, value) => sum + value, 0) * 1e6;
    return {
      rps: step.rps,
      responses: step.responses,
      threadsUs: threadsMicros === null || !step.responses ? null : threadsMicros / step.responses,
      processUs: step.responses ? processMicros / step.responses : null,
      userUs: step.responses ? userMicros / step.responses : null,
      systemUs: step.responses ? systemMicros / step.responses : null,
      wakeUpsPerResponse: step.responses ? wakeUps / step.responses : null,
    };
  } finally {
    await runner.close();
  }
}

// `times` prints two lines, the shell's and its children's user and system time: "0m1.230000s 0m0.450000s".
function childrenMicros(text) {
  const lines = text.trim().split('\n');
  const seconds = [...lines.at(-1).matchAll(/(\d+)m([\d.]+)s/g)].map(([, minutes, secs]) => Number(minutes) * 60 + Number(secs));
  return seconds.reduce((sum, value) => sum + value, 0) * 1e6;
}

/** wrk's CPU per request against url: resolves { rps, responses, us, meanLatencyMs }. */
export async function wrkCpuPerRequest(url, { connections, seconds, threads = 1 }) {
  const script = 'wrk "$@" && echo "--- times" && times';
  const { stdout } = await run('sh', ['-c', script, 'sh', `-t${threads}`, `-c${connections}`, `-d${seconds}s`, url]);
  const [wrkOutput, timesOutput] = stdout.split('--- times');
  const parsed = parseWrk(wrkOutput);
  return {
    rps: parsed.rps,
    responses: parsed.requests,
    us: childrenMicros(timesOutput) / parsed.requests,
    meanLatencyMs: parsed.meanLatencyMs,
  };
}
