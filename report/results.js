// Writing the results files a run asked for: --json (the whole Result, see format.js) and --csv.
import { writeFile } from 'node:fs/promises';
import { toJson } from './format.js';
import { buildCsv } from './csv.js';

/** Writes the requested files; "-" for JSON means `stdout`. */
export async function writeResults({ json, csv }, result, stdout = process.stdout) {
  if (json === '-') stdout.write(`${toJson(result)}\n`);
  else if (json) await writeFile(json, `${toJson(result)}\n`);
  if (csv) await writeFile(csv, buildCsv(result.steps));
}
