// The progress line on stderr: "step 3 of 36 · redis key1 c=15 · 0:42". Only on a terminal,
// never with --quiet, and never mixed into piped output.

/** What a step is, for the progress line: "redis key1 · concurrency 15". */
export function progressLabel(target, load) {
  const what = load.warmup ? `warm-up (${load.warmup} requests)` : load.rps ? `${load.rps} rps` : `concurrency ${load.concurrency}`;
  return `${target.store} ${target.key} · ${what}`;
}

export function formatElapsed(ms) {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

export function createProgress({ stream = process.stderr, enabled = Boolean(stream.isTTY), total, now = Date.now } = {}) {
  const started = now();
  let shown = false;
  let timer;
  let current = '';
  const draw = () => {
    stream.write(`\r\x1b[K${current} · ${formatElapsed(now() - started)} elapsed`);
    shown = true;
  };
  return {
    step(index, label) {
      if (!enabled) return;
      current = `step ${index} of ${total} · ${label}`;
      draw();
      clearInterval(timer);
      timer = setInterval(draw, 1000);
      timer.unref();
    },
    /** Removes the line, so the next output starts clean. */
    clear() {
      clearInterval(timer);
      if (enabled && shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
