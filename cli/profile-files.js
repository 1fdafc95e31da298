// --profile's files: each process's profile of each step, as the run's `profile` events bring them,
// kept beside the results as the steps name them (profiles/<step>-<role>-<pid>.cpuprofile, which
// Chrome DevTools and speedscope open) with the same profile as pprof (.pb.gz) beside each. Written
// whole or not at all (a temporary file, then a rename); a folder that cannot be written is one
// line, and the run goes on.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
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
 * run's events, done() resolves once every profile is written.
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
    /** Resolves once every profile is written: { written, warning } (warning: why some were not). */
    async done() {
      await Promise.all(writing);
      const warning = failed ? `warning: the profiles could not all be kept (${failed.code ?? failed.message})` : null;
      return { written, warning };
    },
  };
}

/**
 * Where a run's profiles go while it runs: { dir, note, moveInto(folder), discardStaging() }.
 * A run kept in a folder of its own (the default) writes them into a staging folder beside the
 * kept runs and moves them into its folder once saved; --no-save keeps them beside --json's
 * file; with neither, nowhere (`note` says so).
 */
export function stagedProfiles(options, { resultsDir }) {
  const saving = options.save !== false;
  if (saving) {
    const staging = join(resultsDir, `.profiles-${process.pid}`);
    return {
      dir: staging,
      note: null,
      async moveInto(folder) {
        await rename(join(staging, 'profiles'), join(folder, 'profiles')).catch((error) => {
          if (error.code !== 'ENOENT') throw error;
        });
        await rm(staging, { recursive: true, force: true });
      },
      discardStaging: () => rm(staging, { recursive: true, force: true }),
    };
  }
  const json = options.json && options.json !== '-' ? options.json : null;
  return {
    dir: json ? dirname(json) : null,
    note: json
      ? null
      : 'note: --profile with --no-save and no --json file: the profiles are not kept ' +
        '(their figures are in the tables; --json FILE keeps them beside it)',
    moveInto: async () => {},
    discardStaging: async () => {},
  };
}
