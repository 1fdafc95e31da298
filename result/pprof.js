// A V8 CPU profile (.cpuprofile) as pprof, the format Pyroscope and `go tool pprof` read: one
// location per call-tree node, each sample's stack leaf first, valued in samples and CPU time.
// pprof-format does the encoding; the caller gzips it (pprof files are gzipped protobuf).
import { sampleDurations } from './profile-parts.js';
import { Function as PprofFunction, Line, Location, Profile, Sample, StringTable, ValueType } from 'pprof-format';

/** The profile as pprof's protobuf bytes (a Uint8Array, not yet gzipped). */
export function toPprof(cpuprofile) {
  const strings = new StringTable();
  const parents = new Map();
  for (const node of cpuprofile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const functions = [];
  const locations = [];
  for (const node of cpuprofile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    functions.push(new PprofFunction({
      id: node.id,
      name: strings.dedup(functionName || '(anonymous)'),
      systemName: strings.dedup(functionName || '(anonymous)'),
      filename: strings.dedup(url),
      startLine: Math.max(0, lineNumber + 1),
    }));
    const line = new Line({ functionId: node.id, line: Math.max(0, lineNumber + 1) });
    locations.push(new Location({ id: node.id, line: [line] }));
  }
  // Per node: how many samples, and their time (the delta to the next sample, as DevTools counts it).
  const { samples = [] } = cpuprofile;
  const meanMicros = samples.length ? (cpuprofile.endTime - cpuprofile.startTime) / samples.length : 0;
  const durations = sampleDurations(cpuprofile);
  const taken = new Map();
  samples.forEach((id, i) => {
    const entry = taken.get(id) ?? { count: 0, micros: 0 };
    entry.count += 1;
    entry.micros += durations[i];
    taken.set(id, entry);
  });
  const stackOf = (id) => {
    const stack = [];
    for (let at = id; at !== undefined && parents.has(at); at = parents.get(at)) stack.push(at);
    return stack; // leaf first, the (root) left out
  };
  const sample = [...taken].map(([id, { count, micros }]) => new Sample({
    locationId: stackOf(id),
    value: [count, Math.round(micros * 1000)],
  }));
  const cpu = new ValueType({ type: strings.dedup('cpu'), unit: strings.dedup('nanoseconds') });
  const profile = new Profile({
    sampleType: [new ValueType({ type: strings.dedup('samples'), unit: strings.dedup('count') }), cpu],
    sample,
    location: locations,
    function: functions,
    stringTable: strings,
    timeNanos: BigInt(Math.round(cpuprofile.startTime)) * 1000n,
    durationNanos: Math.round((cpuprofile.endTime - cpuprofile.startTime) * 1000),
    periodType: cpu,
    period: Math.round(meanMicros * 1000),
  });
  return profile.encode();
}
