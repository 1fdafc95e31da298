// What every engine's run shares: the schedule, the count (exactly `maxRequests`), the deadline
// and the abort. An engine adds closedLoop() and scheduled().
export class LoadRun {
  constructor({ concurrency, maxRequests, durationSeconds, rps, signal, workload }, meter) {
    Object.assign(this, { meter, workload, rps, signal, concurrency, durationSeconds });
    this.maxRequests = maxRequests ?? Infinity;
    this.taken = 0;
    this.begins = 0;
    this.stopped = false;
    this.idle = []; // open model: clients free for the next scheduled request
    this.timer = null;
    this.tickTimer = null;
    this.done = new Promise((resolve) => {
      this.resolve = resolve;
    });
    this.onAbort = () => this.stop();
  }

  start() {
    if (this.signal?.aborted) return this.stop();
    this.signal?.addEventListener('abort', this.onAbort, { once: true });
    if (this.durationSeconds != null) this.timer = setTimeout(() => this.stop(), this.durationSeconds * 1000);
    if (this.rps) this.openModel();
    else this.closedLoop();
  }

  stop() {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.tickTimer);
    this.signal?.removeEventListener('abort', this.onAbort);
    this.resolve();
  }

  // Room for one more request? Counts it when there is (exactly maxRequests are ever taken).
  take() {
    if (this.stopped || this.taken >= this.maxRequests) return false;
    this.taken += 1;
    return true;
  }

  begun() {
    this.begins += 1;
    if (this.begins >= this.maxRequests) this.stop();
  }

  openModel() {
    const intervalNs = 1e9 / this.rps;
    const firstNs = process.hrtime.bigint();
    const tick = () => {
      if (this.stopped) return;
      const due = Math.floor(Number(process.hrtime.bigint() - firstNs) / intervalNs) + 1;
      while (this.taken < due && this.take()) this.scheduled();
      if (this.stopped) return;
      const waitNs = this.taken * intervalNs - Number(process.hrtime.bigint() - firstNs);
      this.tickTimer = setTimeout(tick, Math.max(0, waitNs / 1e6));
    };
    tick();
  }
}
