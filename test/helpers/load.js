// A little load for availability tests: keeps requests in flight against some URLs and
// records every answer with its timing, so a test can say what happened while a server was
// frozen or killed. Not a benchmark: it pauses after each failure to spare the CPU.
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Keeps concurrency requests in flight to each url until stop(). answers holds
 * { url, status (0: no HTTP answer), code, body, startedAt, endedAt, ms } per request.
 */
export function keepLoading(urls, { concurrency = 4, pauseAfterFailureMs = 20 } = {}) {
  const answers = [];
  let running = true;
  let inFlight = 0;
  const loop = async (url) => {
    while (running) {
      const startedAt = Date.now();
      inFlight++;
      let answer;
      try {
        const response = await fetch(url);
        const body = await response.text();
        let code;
        try { code = JSON.parse(body).code; } catch {}
        answer = { url, status: response.status, code, body };
      } catch (error) {
        answer = { url, status: 0, body: error.message };
      } finally {
        inFlight--;
      }
      const endedAt = Date.now();
      answers.push({ ...answer, startedAt, endedAt, ms: endedAt - startedAt });
      if (answer.status !== 200) await sleep(pauseAfterFailureMs);
    }
  };
  const loops = urls.flatMap((url) => Array.from({ length: concurrency }, () => loop(url)));
  let stopped;
  return {
    answers,
    inFlight: () => inFlight,
    /** Stops sending; resolves once every request in flight has its answer. */
    stop() {
      running = false;
      stopped ??= Promise.all(loops);
      return stopped;
    },
  };
}

/** Resolves once check() is truthy (polled every 50 ms); rejects with message after timeoutMs. */
export async function waitUntil(check, timeoutMs, message) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${message} (waited ${timeoutMs} ms)`);
    await sleep(50);
  }
}
