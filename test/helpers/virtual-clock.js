// A clock for tests whose subject is what is done with times, not the passing of time: while it
// is installed, process.hrtime.bigint() reads it, and its sleep(ms) resolves at once in virtual
// time, the earliest wake first, each after the code woken before it has run to its next await.
// A step of seconds then measures in milliseconds, with the exact latencies slept.
export function virtualClock(t) {
  let nowNs = 0n;
  let order = 0;
  let scheduled = false;
  const wakes = [];
  const wakeNext = () => {
    scheduled = false;
    if (!wakes.length) return;
    wakes.sort((a, b) => (a.at === b.at ? a.order - b.order : (a.at < b.at ? -1 : 1)));
    const next = wakes.shift();
    nowNs = next.at;
    next.resolve();
    schedule();
  };
  // setImmediate runs after every microtask: what the last wake resolved has reached its next sleep.
  const schedule = () => {
    if (!scheduled && wakes.length) {
      scheduled = true;
      setImmediate(wakeNext);
    }
  };
  t.mock.method(process.hrtime, 'bigint', () => nowNs);
  return {
    nowMs: () => Number(nowNs) / 1e6,
    sleep: (ms) => new Promise((resolve) => {
      wakes.push({ at: nowNs + BigInt(Math.round(ms * 1e6)), order: order++, resolve });
      schedule();
    }),
  };
}
