// The progress line on stderr: only on a terminal, never with --quiet, never mixed into piped output.

/** What a step is, for the progress line: "redis key1 · concurrency 15". */
export function progressLabel(target, load) {
  const loadText = load.rps ? `${load.rps} rps` : `concurrency ${load.concurrency}`;
  const what = load.warmup === 'app'
    ? 'warming the app up'
    : load.warmup ? `warm-up (${load.warmup} requests)` : loadText;
  const mode = target.url?.startsWith('direct:') ? 'direct · ' : '';
  const which = load.repeats
    ? ` · repeat ${load.repeat} of ${load.repeats}`
    : load.control ? ' · control (the first step again)' : '';
  return `${mode}${target.store} ${target.key} · ${what}${which}`;
}

export function loadLabel(target, { done, total, bytes }) {
  const percent = total ? Math.floor((done / total) * 100) : 100;
  const records = `${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} records`;
  return `${target.store} · loading ${percent}% (${records}, ${(bytes / (1024 * 1024)).toFixed(1)} MB)`;
}

const about = (seconds) => {
  const minutes = seconds / 60;
  if (minutes < 1.5) return `${Math.max(1, Math.round(seconds / 5) * 5)} s`;
  return minutes < 90 ? `${Math.round(minutes)} min` : `${(minutes / 60).toFixed(1)} h`;
};

/** "this run takes about 9 min: ...", said before a run starts, with its load phase when there is one. */
export function estimateLine({ estimateSeconds, totalSteps, targets, estimateLoad = null }) {
  const into = estimateLoad?.targets > 1 ? ` into each of ${estimateLoad.targets} stores` : '';
  const loading = estimateLoad && `loading ${estimateLoad.records.toLocaleString('en-US')} records${into} ` +
    `(about ${about(estimateLoad.seconds)})`;
  const unknown = estimateLoad?.unknown.length
    ? `; not counted: loading into ${estimateLoad.unknown.join(', ')} (no load rate measured for it)`
    : '';
  if (estimateSeconds === null || estimateSeconds === undefined || !totalSteps) {
    // Counted steps (-n) take as long as the target needs; the load can still be told.
    return loading ? `${loading}; the steps are counted (-n): their time depends on the target${unknown}` : null;
  }
  const quick = estimateSeconds > 120 ? ' (--quick: a one-minute overview)' : '';
  const included = loading ? `warm-ups, the control and ${loading} included` : 'warm-ups and the control included';
  return `this run takes about ${about(estimateSeconds)}: ${totalSteps} steps across ${targets.length} URL(s), ` +
    `${included}${unknown}${quick}`;
}

export function formatElapsed(ms) {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The time left from the steps done so far; null before any is done. */
export function estimateLeftMs({ done, total, spentMs, sinceMs }) {
  if (done < 1) return null;
  return Math.max(0, (spentMs / done) * (total - done) - sinceMs);
}

export function createProgress({
  stream = process.stderr, enabled = Boolean(stream.isTTY), total, now = Date.now,
} = {}) {
  const started = now();
  let shown = false;
  let timer;
  let current = '';
  let done = 0;
  let doneAt = started;
  const line = () => {
    const at = now();
    const left = estimateLeftMs({ done, total, spentMs: doneAt - started, sinceMs: at - doneAt });
    const remaining = left === null ? '' : ` · ~${formatElapsed(left)} left`;
    return `${current} · ${formatElapsed(at - started)} elapsed${remaining}`;
  };
  const draw = () => {
    stream.write(`\r\x1b[K${line()}`);
    shown = true;
  };
  return {
    step(index, label) {
      if (!enabled) return;
      current = index === null ? label : `step ${index} of ${total} · ${label}`;
      draw();
      clearInterval(timer);
      timer = setInterval(draw, 1000);
      timer.unref();
    },
    /** A step is done: the estimate of the time left uses it from now on. */
    done() {
      done += 1;
      doneAt = now();
    },
    line,
    clear() {
      clearInterval(timer);
      if (enabled && shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
