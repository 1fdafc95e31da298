// --hdr-log DIR: the run's seconds as HdrHistogram interval logs, one file per target and
// operation, readable by HdrHistogram's own tools.
import * as hdr from 'hdr-histogram-js';
import { decodeHistogram } from '../result/recorder.js';

// Values are µs; the log's max column (and HistogramLogProcessor's -outputValueUnitRatio) in ms.
const MAX_VALUE_UNIT_RATIO = 1000;

const safe = (text) => String(text).replace(/[^A-Za-z0-9._-]+/g, '_');
const loadOf = (step) => (step.model === 'open' ? `rps ${step.targetRps}` : `concurrency ${step.concurrency}`);

/** `<store>-<key>-<operation>.hlog`; a second URL with the same store and key gets `-2`: no log overwrites another. */
function hdrLogName(step, operation, seen = new Map()) {
  const base = `${safe(step.store)}-${safe(step.key)}`;
  if (!seen.has(base)) seen.set(base, []);
  const urls = seen.get(base);
  if (!urls.includes(step.url)) urls.push(step.url);
  const index = urls.indexOf(step.url);
  return `${base}${index ? `-${index + 1}` : ''}-${safe(operation)}.hlog`;
}

// A step's seconds for one operation: its own (several operations) or the step's (one).
function secondsOf(step, operation) {
  if (step.operations.length > 1) {
    return step.operations.find((entry) => entry.operation === operation)?.timeline ?? null;
  }
  return step.timeline ?? null;
}

/** The logs as [{ name, text, intervals }], steps in the order run; older files' steps without seconds left out. */
export function buildHdrLogs(result) {
  const control = result.control?.step ? [{ ...result.control.step, control: true }] : [];
  const steps = [...result.steps, ...control].filter((step) => step.timeline);
  if (!steps.length) return [];
  const originMs = Math.min(...steps.map((step) => Date.parse(step.startedAt)));
  const logs = new Map();
  const seen = new Map();
  for (const step of steps) {
    for (const { operation } of step.operations) {
      const seconds = secondsOf(step, operation);
      if (!seconds) continue;
      const name = hdrLogName(step, operation, seen);
      if (!logs.has(name)) {
        let text = '';
        const writer = new hdr.HistogramLogWriter((chunk) => {
          text += chunk;
        });
        writer.outputLogFormatVersion();
        writer.outputComment(`storebench: ${step.store} ${step.key} ${operation}; ` +
          'values in microseconds, max in ms (HistogramLogProcessor -outputValueUnitRatio 1000)');
        writer.outputStartTime(originMs);
        writer.outputLegend();
        logs.set(name, { name, writer, read: () => text, intervals: 0 });
      }
      const log = logs.get(name);
      const startSec = (Date.parse(step.startedAt) - originMs) / 1000;
      const which = `${step.control ? 'control' : loadOf(step)}${step.repeat > 1 ? ` repeat ${step.repeat}` : ''}`;
      log.writer.outputComment(`step ${which} from ${step.startedAt}`);
      for (const sample of seconds) {
        const histogram = decodeHistogram(sample.histogram);
        const from = startSec + sample.second;
        log.writer.outputIntervalHistogram(histogram, from, from + sample.seconds, MAX_VALUE_UNIT_RATIO);
        histogram.destroy();
        log.intervals += 1;
      }
    }
  }
  return [...logs.values()].map(({ name, read, intervals }) => ({ name, text: read(), intervals }));
}
