// bench/profile-parts.js: where the driver's own CPU goes, by package and file (npm run perf:profile).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byGroup, cpuPerResponse, partOfUrl, profileParts } from '../../bench/profile-parts.js';

const ROOT = '/repo';
const frame = (id, functionName, url, children = []) => ({ id, callFrame: { functionName, url }, children });

// (root) -> loadtest's code -> writev (native), (root) -> our meter, (garbage collector), (idle).
const profile = {
  nodes: [
    frame(1, '(root)', '', [2, 4, 5, 6]),
    frame(2, 'makeRequest', 'file:///repo/node_modules/loadtest/lib/httpClient.js', [3]),
    frame(3, 'writev', ''),
    frame(4, 'settle', 'file:///repo/driver/meter.js'),
    frame(5, '(garbage collector)', ''),
    frame(6, '(idle)', ''),
  ],
  // Each delta is the gap before its sample: a sample lasts until the next one.
  samples: [3, 2, 4, 5, 6, 6, 4],
  timeDeltas: [0, 100, 200, 300, 400, 500, 600],
};

test('a profile\'s samples go to the part of the nearest frame with a script; a native leaf to its caller', () => {
  const parts = profileParts(profile, ROOT);
  assert.deepEqual(Object.fromEntries(parts), {
    loadtest: (100 + 200) / 1000, // writev counts for loadtest, which called it
    'ours driver/meter.js': (300 + 350) / 1000, // the last sample lasts the mean gap, 350 µs
    '(garbage collector)': 400 / 1000,
    '(idle)': (500 + 600) / 1000,
  });
});

test('CPU per response shares the thread\'s CPU by the busy samples, idle left out, and sums by group', () => {
  // 1,350 busy µs of samples; the thread used 2,700 µs of CPU over 10 responses: 270 µs each.
  const { busyMs, rows } = cpuPerResponse(profileParts(profile, ROOT), 2700, 10);
  assert.equal(busyMs, 1.35);
  const us = Object.fromEntries(rows.map((row) => [row.part, Math.round(row.us * 1000) / 1000]));
  assert.deepEqual(us, { 'ours driver/meter.js': 130, '(garbage collector)': 80, loadtest: 60 });
  assert.deepEqual(byGroup(rows).map(({ group }) => group), ['ours', 'gc', 'loadtest']);
});

test('script URLs name their part: a package (scoped too), Node\'s own module, our file', () => {
  assert.equal(partOfUrl('file:///repo/node_modules/@redis/client/dist/lib/client/index.js', ROOT), '@redis/client');
  assert.equal(partOfUrl('file:///repo/node_modules/loadtest/node_modules/agentkeepalive/index.js', ROOT),
    'agentkeepalive');
  assert.equal(partOfUrl('node:internal/stream_base_commons', ROOT), 'node internal/stream_base_commons');
  assert.equal(partOfUrl('node:net', ROOT), 'node net');
  assert.equal(partOfUrl('file:///repo/driver/engines/fast.js', ROOT), 'ours driver/engines/fast.js');
  assert.equal(partOfUrl('file:///elsewhere/script.js', ROOT), 'other');
});
