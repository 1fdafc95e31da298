// Results carried on a log (kubectl logs, cf logs): each part prints its results file between
// a begin and an end marker line (cli/k8s-job.js). Lines may carry a prefix (kubectl logs
// --prefix: "[pod/name/driver] "), and the logs of several pods may interleave: each block's
// lines are those with its begin marker's prefix.
import { readFile } from 'node:fs/promises';
import { fromJson } from './format.js';
import { ResultsFormatError, RunError } from '../util/errors.js';

// The lines a k8s part prints around its Result (cli/k8s-job.js writes them, this file reads them).
export const RESULT_BEGIN = '----- storebench result begin';
export const RESULT_END = '----- storebench result end';
const BEGIN = new RegExp(`^(.*?)${RESULT_BEGIN} (\\d+/\\d+) -----\\s*$`);
const END = new RegExp(`^(.*?)${RESULT_END} (\\d+/\\d+) -----\\s*$`);

/** The Results in `text`, as [{ file, result }] (file: "<source> part I/N"); ResultsFormatError for a broken block. */
export function resultsFromLog(text, source = 'log') {
  const open = new Map(); // prefix -> { part, lines }
  const found = [];
  for (const line of text.split(/\r?\n/)) {
    const begin = BEGIN.exec(line);
    if (begin) {
      open.set(begin[1], { part: begin[2], lines: [] });
      continue;
    }
    const end = END.exec(line);
    if (end && open.has(end[1])) {
      const block = open.get(end[1]);
      open.delete(end[1]);
      const file = `${source} part ${block.part}`;
      try {
        found.push({ file, result: fromJson(block.lines.join('\n')) });
      } catch (error) {
        throw new ResultsFormatError(`${file}: ${error.message}`);
      }
      continue;
    }
    for (const [prefix, block] of open) {
      if (line.startsWith(prefix)) {
        block.lines.push(line.slice(prefix.length));
        break;
      }
    }
  }
  if (open.size) {
    throw new ResultsFormatError(`${source}: part ${[...open.values()][0].part} has no end marker ` +
      '(its log was cut short: kubectl logs --tail=-1)');
  }
  return found;
}

/** resultsFromLog of a file; RunError (exit 1) when it cannot be read. */
export async function readResultsFromLog(file) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new RunError(`cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.code}`);
  }
  const found = resultsFromLog(text, file);
  if (!found.length) throw new ResultsFormatError(`${file} holds no storebench result between marker lines`);
  return found;
}
