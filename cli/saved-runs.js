// Every run kept: each sweep writes its results.json and report.html to a folder of its own,
// ./storebench-results/<UTC time>-<id>/ (or under $STOREBENCH_RESULTS_DIR), and finds the last
// one to compare with. Each file is written to a temporary name and renamed, so a folder never
// holds half a file; a folder that cannot be written costs a warning, never the run.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readResults, toJson } from '../result/format.js';
import { htmlReport } from '../report/html.js';
import { pickLast } from '../result/against-last.js';
import { resolveSetting } from '../config/precedence.js';

const RESULTS_FILE = 'results.json';
const PAGE_FILE = 'report.html';
// How many saved runs, newest first, are read to find the last one of the same targets.
const LOOK_BACK = 50;
// 20261129T005132Z-3fa9c1, maybe -interrupted or -failed after.
const FOLDER = /^(\d{8}T\d{6}Z)-[0-9a-f]{6}(-interrupted|-failed)?$/;

/** The folder the runs are kept in (setting resultsDir): $STOREBENCH_RESULTS_DIR, else ./storebench-results. */
export const resultsDir = (env = process.env) => resolveSetting('resultsDir', { env }).value;

/** "20261129T005132Z-3fa9c1" from when the run started; "-interrupted" or "-failed" after when it was. */
function runFolderName(result, { failed = false, id = randomBytes(3).toString('hex') } = {}) {
  const stamp = new Date(result.system.date).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const mark = result.interrupted ? '-interrupted' : failed ? '-failed' : '';
  return `${stamp}-${id}${mark}`;
}

async function writeWhole(file, text) {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, text);
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}

/**
 * Writes the run's results.json and report.html into a new folder under `dir`: resolves to the
 * folder's path. Rejects with the file system's error (ENOSPC, EROFS, EACCES...), leaving no
 * temporary file behind.
 */
export async function saveRun(result, { dir = resultsDir(), failed = false } = {}) {
  const folder = join(dir, runFolderName(result, { failed }));
  await mkdir(folder, { recursive: true });
  await writeWhole(join(folder, RESULTS_FILE), `${toJson(result)}\n`);
  await writeWhole(join(folder, PAGE_FILE), htmlReport(result));
  return folder;
}

/** The saved runs under `dir`, oldest first: [{ name, folder, file }] (none when it does not exist). */
export async function listSavedRuns(dir = resultsDir()) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [];
    throw error;
  }
  const runs = [];
  for (const entry of entries.filter((candidate) => candidate.isDirectory() && FOLDER.test(candidate.name))) {
    const folder = join(dir, entry.name);
    const file = join(folder, RESULTS_FILE);
    if (await stat(file).then((found) => found.isFile(), () => false)) runs.push({ name: entry.name, folder, file });
  }
  // The name starts with the UTC time, so its order is the runs' order.
  return runs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The saved runs a new run is set against (result/against-last.js pickLast): { last,
 * differing }. Reads at most the newest 50 runs; a file that no longer reads is passed over.
 */
export async function findLastRuns(result, { dir = resultsDir() } = {}) {
  const saved = [];
  for (const { file } of (await listSavedRuns(dir)).reverse().slice(0, LOOK_BACK)) {
    try {
      const run = await readResults(file);
      if (!run.scenario && !run.merged) saved.push(run);
    } catch {
      // a file cut short or from another version: not one to compare with
    }
  }
  return pickLast(saved, result);
}
