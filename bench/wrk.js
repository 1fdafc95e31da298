// Running wrk (the Debian package) and reading its summary.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

const toMs = (value, unit) => Number(value) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[unit];

/** Parses wrk's text summary into { rps, meanLatencyMs, requests, errors }. */
export function parseWrk(output) {
  const rps = output.match(/Requests\/sec:\s+([\d.]+)/);
  const latency = output.match(/^\s*Latency\s+([\d.]+)(us|ms|s|m)\b/m);
  const requests = output.match(/(\d+) requests in/);
  if (!rps || !latency || !requests) throw new Error(`cannot read wrk's output:\n${output}`);
  const non2xx = Number(output.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0);
  const socket = output.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  const errors = non2xx + (socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0);
  return { rps: Number(rps[1]), meanLatencyMs: toMs(latency[1], latency[2]), requests: Number(requests[1]), errors };
}

/**
 * Runs wrk against url with connections open for seconds (and a Lua `script` file, if given;
 * on CPU `cpu` alone, if given, through taskset); resolves the parsed summary.
 */
export async function wrk(url, { connections = 20, seconds = 10, threads = 1, script, cpu } = {}) {
  const args = [
    `-t${threads}`, `-c${connections}`, `-d${seconds}s`, '--latency', ...(script ? ['-s', script] : []), url,
  ];
  const { stdout } = cpu === undefined
    ? await run('wrk', args)
    : await run('taskset', ['-c', String(cpu), 'wrk', ...args]);
  return parseWrk(stdout);
}
