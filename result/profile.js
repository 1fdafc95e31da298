// A step's `profile` (--profile): what a profiled run of the step found the app's CPU spent per
// response, part by part (result/profile-parts.js), beside the /proc figure of the same run and
// the profiler's cost against the measured step; and the names of its kept .cpuprofile files.
import { flameTree, stepParts } from './profile-parts.js';

const SAFE = /[^A-Za-z0-9._-]+/g;
const loadOf = (step) => (step.model === 'open' ? `r${step.targetRps}` : `c${step.concurrency}`);

/** Where one process's profile of a step is kept, relative to the results: profiles/<step>-<role>-<pid>.cpuprofile */
export function profileFileName(step, { pid, role }) {
  const where = [step.store, step.key, step.framework, loadOf(step)].filter(Boolean).join('-').replace(SAFE, '_');
  return `profiles/${where}-${role}-${pid}.cpuprofile`;
}

/**
 * The step's profile record. processes: [{ pid, role, root, profile }] from the app; figures: the
 * profiled run's; step: the measured step; tiers: the monitor's figures of the profiled run;
 * mainThreadMicros: the app's main threads' CPU over that run from /proc, or null (a remote app).
 */
export function profileRecord({ processes, figures, step, tiers, files, intervalUs, mainThreadMicros = null }) {
  const procPerResponse = tiers?.app?.microsPerResponse ?? null;
  const procMicros = procPerResponse === null ? null : procPerResponse * figures.responses;
  const parts = stepParts(processes, figures.responses, { mainThreadMicros, procMicros });
  const per = (micros) => (micros === null || !(figures.responses > 0) ? null : micros / figures.responses);
  return {
    responses: figures.responses,
    rps: figures.rps,
    intervalUs,
    microsPerResponse: parts.microsPerResponse,
    parts: parts.parts,
    scaledTo: parts.scaledTo,
    sampledMicrosPerResponse: parts.sampledMicrosPerResponse,
    mainThreadMicrosPerResponse: per(mainThreadMicros),
    processes: parts.processes,
    // The /proc figure of the same run: every thread of the app's processes, the profiler's own work included.
    procMicrosPerResponse: procPerResponse,
    // The profiler's cost: the profiled run's rps against the measured step's.
    rpsCost: step.rps > 0 && figures.rps > 0 ? figures.rps / step.rps - 1 : null,
    files,
    flame: flameTree(processes),
  };
}
