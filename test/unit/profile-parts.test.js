// Where the app's CPU went (result/profile-parts.js): each sample of a .cpuprofile goes to the part
// of the frame nearest the leaf that has one, by the rules of PART_RULES. The fixture is a
// profile with a known frame of each kind and a known time for each sample.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  PARTS, PART_RULES, flameTree, partOfFrame, profileParts, sampleDurations, stepParts,
} from '../../result/profile-parts.js';
import { toPprof } from '../../result/pprof.js';
import { Profile } from 'pprof-format';

const ROOT = '/srv/storebench';
const fixture = JSON.parse(readFileSync(new URL('../fixtures/profiles/known-frames.cpuprofile', import.meta.url)));
const frame = (functionName, url = '') => ({ functionName, url, lineNumber: 0, columnNumber: 0 });

test('each sample stands for the gap to the next one, the last for the gap to the profile\'s end', () => {
  assert.deepEqual(sampleDurations(fixture), [100, 50, 200, 40, 10, 30, 20, 5, 60, 1000, 15, 7, 13, 25]);
});

test('the known frames go to their parts: packages, builtins, Node core, our own files, gc, and callers', () => {
  const { parts, busyMicros, samples } = profileParts(fixture, { root: ROOT });
  assert.deepEqual(parts, {
    framework: 100 + 13, // express's router; fastify
    client: 200 + 5, // @redis/client; ms, a package several use, called by it
    node: 25 + 30 + 20, // node:_http_server; writev (native) under it; debug called from node:internal
    json: 40, // JSON.stringify, a builtin
    gc: 60,
    storebench: 50 + 10, // routes/data.js under the root; Map's get (a builtin) called by it
    other: 15 + 7, // (program); a script neither ours nor a package's
  });
  assert.equal(busyMicros, 575, 'the idle sample (1000 µs) counts nowhere');
  assert.equal(samples, 13);
});

test('the rules: one table, its parts those shown, every frame kind decided by it', () => {
  const fromFrames = PARTS.filter((part) => part !== 'other' && part !== 'threads');
  assert.deepEqual([...new Set(PART_RULES.map((rule) => rule.part))].sort(), fromFrames.sort());
  const cases = [
    [frame('handle', `file://${ROOT}/node_modules/express/lib/application.js`), 'framework'],
    [frame('lookup', `${ROOT}/node_modules/find-my-way/index.js`), 'framework'], // CommonJS: a plain path
    [frame('x', `file://${ROOT}/node_modules/@fastify/error/index.js`), 'framework'],
    [frame('x', `file://${ROOT}/node_modules/ioredis/built/Redis.js`), 'client'],
    [frame('x', `file://${ROOT}/node_modules/pg-protocol/dist/parser.js`), 'client'],
    [frame('x', `file://${ROOT}/node_modules/axios/lib/core/Axios.js`), 'client'],
    [frame('x', `file://${ROOT}/node_modules/@ibm-cloud/cloudant/cloudant/v1.js`), 'client'],
    [frame('x', `file://${ROOT}/node_modules/prom-client/lib/histogram.js`), 'storebench'],
    [frame('x', `file://${ROOT}/stores/store-set.js`), 'storebench'],
    [frame('parse', ''), 'json'],
    [frame('parse', 'node:url'), 'node'], // a function named parse in a script is not JSON's
    [frame('(garbage collector)'), 'gc'],
    [frame('x', 'node:net'), 'node'],
    [frame('x', `file://${ROOT}/node_modules/debug/src/node.js`), null],
    [frame('writev'), null],
  ];
  for (const [callFrame, part] of cases) assert.equal(partOfFrame(callFrame, ROOT), part, callFrame.url);
  // Without the app's root, its own files are not known as ours.
  assert.equal(partOfFrame(frame('x', `file://${ROOT}/stores/store-set.js`), null), null);
});

test('a step\'s parts: the samples say where, /proc says how much, the CPU off the main thread its own part', () => {
  const two = [
    { pid: 1, role: 'worker', root: ROOT, profile: fixture },
    { pid: 2, role: 'worker', root: ROOT, profile: fixture },
  ];
  // Capped at twice the usual gap (30 µs): 100 -> 60 (the router's), 200 -> 60 (the client's); the
  // idle 1000 counts nowhere anyway. Each process: 395 µs sampled.
  const alone = stepParts(two, 10);
  assert.equal(alone.scaledTo, 'samples');
  assert.equal(alone.sampledMicrosPerResponse, (2 * 395) / 10);
  assert.equal(alone.microsPerResponse, 79);
  assert.deepEqual(alone.parts, {
    framework: 14.6, client: 13, node: 15, json: 8, gc: 12, storebench: 12, other: 4.4, threads: null,
  });
  const perProcess = alone.processes.map((one) => [one.pid, one.samples, one.microsPerResponse]);
  assert.deepEqual(perProcess, [[1, 13, 39.5], [2, 13, 39.5]]);
  // The main threads used twice what the samples show (a busy machine stretched nothing: the cap
  // took the gaps out), and the processes 420 µs more on other threads.
  const read = stepParts(two, 10, { mainThreadMicros: 1580, procMicros: 2000 });
  assert.equal(read.scaledTo, 'proc');
  assert.equal(read.parts.client, 26);
  assert.equal(read.parts.threads, 42);
  assert.equal(read.microsPerResponse, 200, 'the parts add up to /proc\'s figure');
  assert.equal(stepParts(two, 0).microsPerResponse, null, 'no responses: no figure per response');
});

test('the flame tree keeps each frame\'s total with what it called, idle left out, small frames trimmed', () => {
  const tree = flameTree([{ pid: 7, role: 'app', root: ROOT, profile: fixture }], { minShare: 0.02 });
  assert.equal(tree.value, 575);
  const [app] = tree.children;
  assert.equal(app.name, 'app 7');
  const task = app.children.find((child) => child.name.startsWith('processTicksAndRejections'));
  assert.equal(task.value, 100 + 50 + 200 + 40 + 10 + 30 + 20 + 5 + 25);
  const router = task.children.find((child) => child.name.startsWith('handle router/lib/layer.js'));
  assert.equal(router.part, 'framework');
  assert.ok(!JSON.stringify(tree).includes('(idle)'));
  // ms (5 µs) is under 2% of 575: left out.
  assert.ok(!JSON.stringify(tree).includes('ms/index.js'));
});

test('the pprof form holds every sample\'s time, stacks leaf first', () => {
  const decoded = Profile.decode(toPprof(fixture));
  const strings = decoded.stringTable.strings;
  const total = decoded.sample.reduce((sum, sample) => sum + Number(sample.value[1]), 0);
  assert.equal(total, 1575 * 1000, 'every sample, idle ones too, in ns');
  const functionName = (id) => strings[Number(decoded.function.find((f) => Number(f.id) === id).name)];
  const client = decoded.sample.find((sample) => functionName(Number(sample.locationId[0])) === 'sendCommand');
  assert.deepEqual(client.locationId.map((id) => functionName(Number(id))),
    ['sendCommand', 'readRoute', 'handle', 'processTicksAndRejections']);
});
