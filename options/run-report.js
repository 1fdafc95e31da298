// A run's report options (--html, --repeat, --assert, --hdr-log, --metrics-port) from flag values:
// normalizeOptions uses them, and cli/report-options.js their checks (htmlProblem, strings).
import { parseThresholds } from '../config/thresholds.js';
import { defaultOf } from './table.js';
import { REPEAT_LIMIT } from './defaults.js';
import { nonNegativeInteger } from './values.js';

export const strings = (value) => [].concat(value ?? []).filter((item) => typeof item === 'string');

export function htmlProblem(html) {
  if (html === undefined) return null;
  if (html === '-' || html === '') return '--html needs a file name';
  return null;
}

/** The run's --html, --repeat and --assert, from parsed flag values; problems are pushed. */
export function runReportOptions(values, problems) {
  const html = typeof values.html === 'string' ? values.html : undefined;
  const htmlWhy = htmlProblem(html);
  if (htmlWhy) problems.push(htmlWhy);
  let repeat = defaultOf('repeat');
  if (values.repeat !== undefined) {
    repeat = nonNegativeInteger(values.repeat);
    if (repeat === null || repeat < 1) {
      problems.push(`--repeat must be a whole number from 1 to ${REPEAT_LIMIT}, not "${values.repeat}"`);
    } else if (repeat > REPEAT_LIMIT) {
      problems.push(`--repeat must be at most ${REPEAT_LIMIT}, not "${values.repeat}"`);
    }
  }
  const assert = strings(values.assert);
  problems.push(...parseThresholds(assert).problems);
  for (const name of ['json', 'csv']) {
    if (html !== undefined && typeof values[name] === 'string' && values[name] === html) {
      problems.push(`--html and --${name} name the same file (${html})`);
    }
  }
  const hdrLog = typeof values.hdrLog === 'string' ? values.hdrLog : undefined;
  if (hdrLog === '' || hdrLog === '-') problems.push('--hdr-log needs a folder name');
  let metricsPort;
  if (values.metricsPort !== undefined) {
    metricsPort = nonNegativeInteger(values.metricsPort);
    if (metricsPort === null || metricsPort > 65535) {
      problems.push(`--metrics-port must be a port from 0 to 65535, not "${values.metricsPort}"`);
    }
  }
  return {
    html,
    repeat: repeat ?? defaultOf('repeat'),
    assert,
    ...(hdrLog ? { hdrLog } : {}),
    ...(metricsPort != null ? { metricsPort } : {}),
  };
}
