// References measured beside a timing claim, so a busy machine (CPU steal, other processes) moves
// the claim and its reference alike: a bare keep-alive client loop against the same server, and
// how late this process's timers fire right now.
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The mean latency (ms) a bare node:http client sees: `concurrency` keep-alive loops sending
 * `requests` GETs of url in all, timed with hrtime from send to the answer's end.
 */
export async function bareClientMeanMs(url, { concurrency, requests }) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const times = [];
  let left = requests;
  const one = () => new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    request(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => {
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
        resolve();
      });
    }).on('error', reject).end();
  });
  const loop = async () => {
    while (left > 0) {
      left -= 1;
      await one();
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, loop));
  } finally {
    agent.destroy();
  }
  return times.reduce((sum, ms) => sum + ms, 0) / times.length;
}

/** How late a timer of `ms` fires in this process now: the median of `count`, in ms. */
export async function timerLatenessMs(ms, count = 9) {
  const late = [];
  for (let i = 0; i < count; i += 1) {
    const start = performance.now();
    await sleep(ms);
    late.push(performance.now() - start - ms);
  }
  late.sort((a, b) => a - b);
  return Math.max(0, late[Math.floor(count / 2)]);
}
