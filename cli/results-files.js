// Writing the --json and --csv files. Their paths are checked before any load, so a sweep never
// runs for minutes only to find it cannot keep its results.
import { access, constants, mkdir, open, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { toJson } from '../result/format.js';
import { buildCsv } from '../report/csv.js';
import { htmlReport } from '../report/html.js';
import { buildHdrLogs } from '../report/hdr-log.js';
import { OutputPathError, RunError } from '../util/errors.js';

const statOrNull = (path) => stat(path).catch(() => null);
// A path as the user would write it: relative to the working directory when it is inside it.
export const shownPath = (path) => {
  const inside = relative(process.cwd(), path);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
};

// Why `file` cannot be written, or null (a probe file is created next to nothing and removed).
async function whyNotWritable(file) {
  const full = resolve(file);
  const found = await statOrNull(full);
  if (found?.isDirectory()) return 'it is a folder';
  if (found) {
    try {
      await access(full, constants.W_OK);
      return null;
    } catch (error) {
      return `it cannot be written (${error.code})`;
    }
  }
  let parent = dirname(full);
  let parentStat = await statOrNull(parent);
  while (!parentStat && dirname(parent) !== parent) {
    parent = dirname(parent);
    parentStat = await statOrNull(parent);
  }
  if (parentStat && !parentStat.isDirectory()) return `${shownPath(parent)} is a file, not a folder`;
  if (parent !== dirname(full)) return `the folder ${shownPath(dirname(full))} does not exist`;
  try {
    const handle = await open(full, 'wx');
    await handle.close();
    await unlink(full);
    return null;
  } catch (error) {
    return `it cannot be created (${error.code})`;
  }
}

/** Throws OutputPathError (exit 2) naming every --json/--csv/--html file that could not be written. */
export async function checkOutputPaths({ json, csv, html, hdrLog }) {
  const problems = [];
  if (hdrLog !== undefined) {
    const found = await statOrNull(resolve(hdrLog));
    if (found && !found.isDirectory()) problems.push(`--hdr-log ${hdrLog}: it is a file, not a folder`);
  }
  for (const [flag, file] of [['--json', json], ['--csv', csv], ['--html', html]]) {
    if (file === undefined || file === '-') continue;
    const why = await whyNotWritable(file);
    if (why) problems.push(`${flag} ${file}: ${why}`);
  }
  if (json && csv && json !== '-' && resolve(json) === resolve(csv)) {
    problems.push(`--json and --csv name the same file (${json})`);
  }
  if (problems.length) throw new OutputPathError(problems);
}

/** Writes the requested files ("-" JSON: stdout); a failure is a RunError (exit 1), after the others. */
export async function writeResults({ json, csv, html, hdrLog }, result, stdout = process.stdout) {
  const failures = [];
  const write = async (file, text) => {
    try {
      await writeFile(file, text);
    } catch (error) {
      failures.push(`cannot write ${file}: ${error.code ?? error.message}`);
    }
  };
  if (json === '-') stdout.write(`${toJson(result)}\n`);
  else if (json) await write(json, `${toJson(result)}\n`);
  if (csv) await write(csv, buildCsv(result.steps, result));
  // The page is made from the Result as the JSON file holds it (htmlReport reads it back first).
  if (html) await write(html, htmlReport(result));
  if (hdrLog) failures.push(...await writeHdrLogs(hdrLog, result));
  if (failures.length) throw new RunError(failures.join('\n'));
}

/** Writes the HDR interval logs into `dir`; resolves to the problems, [] when all were written. */
async function writeHdrLogs(dir, result) {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    return [`cannot make --hdr-log ${dir}: ${error.code ?? error.message}`];
  }
  const problems = [];
  for (const { name, text } of buildHdrLogs(result)) {
    try {
      await writeFile(join(dir, name), text);
    } catch (error) {
      problems.push(`cannot write ${join(dir, name)}: ${error.code ?? error.message}`);
    }
  }
  return problems;
}
