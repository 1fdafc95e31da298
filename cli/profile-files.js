// --profile's files: each process's profile of each step, as the run's `profile` events bring them,
// kept beside the results as the steps name them (profiles/<step>-<role>-<pid>.cpuprofile, which
// Chrome DevTools and speedscope open) with the same profile as pprof (.pb.gz) beside each. Written
// whole or not at all (a temporary file, then a rename); a folder that cannot be written is one
// line, and the run goes on.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { toPprof } from '../result/pprof.js';

async function writeWhole(path, bytes) {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, bytes);
  await rename(temporary, path);
}

/**
 * A writer of the profiles into folder `dir` (the results' folder): onProgress(event) takes the
 * run's events, done() resolves once every profile is written, to the lines to print (what was
 * written where, or why not).
 */
export function profileWriter(dir) {
  const writing = [];
  let written = 0;
  let failed = null;
  const keep = async ({ processes, files }) => {
    for (const [i, { profile }] of processes.entries()) {
      const path = join(dir, files[i]);
      await mkdir(dirname(path), { recursive: true });
      await writeWhole(path, JSON.stringify(profile));
      await writeWhole(path.replace(/\.cpuprofile$/, '.pb.gz'), gzipSync(toPprof(profile)));
      written += 1;
    }
  };
  return {
    onProgress(event) {
      if (event.type !== 'profile') return;
      writing.push(keep(event).catch((error) => { failed ??= error; }));
    },
    async done() {
      await Promise.all(writing);
      if (failed) return [`warning: the profiles could not be kept in ${join(dir, 'profiles')}: ${failed.message}`];
      return written ? [`kept ${written} profile(s) in ${join(dir, 'profiles')} (.cpuprofile and .pb.gz)`] : [];
    },
  };
}
