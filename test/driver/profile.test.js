// node test --profile on real runs: each step run again with the app profiled (driver/profile.js,
// routes/profile.js), its samples put in parts (result/profile-parts.js). Express's frames are the
// framework's, node-redis's the client's, and the parts add up to about what /proc read of the app
// in the same run. An app that was not started with profiling allowed is never profiled.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { run } from '../../index.js';
import { startAppProcess } from '../../driver/app-process.js';
import { runDriverCli } from '../helpers/driver-cli.js';
import { reachable, testRedisUrl, unavailable } from '../helpers/services.js';

test('--profile: express\'s frames are the framework\'s, node-redis\'s the client\'s, and the parts add up to ' +
  'the app\'s CPU per response from /proc (within 20%)', async (t) => {
  if (!await reachable(testRedisUrl) && unavailable(t, `no Redis at ${testRedisUrl}`)) return;
  const events = [];
  const result = await run({
    stores: ['memory', 'redis'], keys: ['key1'], concurrency: [10], duration: 2, profile: true, noControl: true,
  }, { env: { ...process.env, REDIS_URL: testRedisUrl }, onProgress: (event) => events.push(event) });
  assert.equal(result.settings.profile, true);
  const stepOf = (store) => result.steps.find((step) => step.store === store);
  for (const store of ['memory', 'redis']) {
    const { profile, framework } = stepOf(store);
    assert.equal(framework, 'express');
    assert.ok(profile, `${store} has a profile`);
    assert.ok(profile.responses > 100, `${store}: ${profile.responses} responses in the profiled run`);
    const sum = Object.values(profile.parts).reduce((all, micros) => all + micros, 0);
    assert.ok(Math.abs(sum - profile.microsPerResponse) < 1e-6);
    assert.ok(profile.procMicrosPerResponse > 0, `${store}: /proc read the app`);
    assert.equal(profile.scaledTo, 'proc');
    const near = (a, b, within) => Math.abs(a - b) / b <= within;
    assert.ok(near(sum, profile.procMicrosPerResponse, 0.05), // /proc's 10 ms ticks, read twice
      `${store}: parts ${Math.round(sum)} µs against /proc ${Math.round(profile.procMicrosPerResponse)} µs`);
    // The samples' own time, before they are scaled to /proc, against the main threads' CPU from
    // /proc: the same order (on a quiet machine within 5-15%; a thread that waits for a core stretches
    // its samples, which is why the parts are scaled to /proc: docs/measurement.md). A profile of
    // the wrong process, or in ms for µs, is off by far more.
    const ratio = profile.sampledMicrosPerResponse / profile.mainThreadMicrosPerResponse;
    assert.ok(ratio > 0.6 && ratio < 1.6, `${store}: sampled ${Math.round(profile.sampledMicrosPerResponse)} µs ` +
      `against the main thread's ${Math.round(profile.mainThreadMicrosPerResponse)} µs`);
    assert.equal(profile.processes.length, result.steps[0].tiers.app.processes ?? 1);
    assert.ok(profile.parts.framework > 0, `${store}: express's frames are the framework's`);
    assert.ok(profile.parts.node > 0);
    assert.equal(profile.files.length, profile.processes.length);
    assert.ok(profile.flame.value > 0 && profile.flame.children.length === profile.processes.length);
  }
  assert.equal(stepOf('memory').profile.parts.client, 0, 'memory has no client library');
  assert.ok(stepOf('redis').profile.parts.client > 0, 'node-redis\'s frames are the client\'s');
  // The raw profiles go out as events, for the caller to keep as the files the steps name.
  const taken = events.filter((event) => event.type === 'profile');
  assert.equal(taken.length, 2);
  for (const event of taken) {
    assert.deepEqual(event.files, stepOf(event.step.store).profile.files);
    assert.ok(event.processes.every(({ profile }) => Array.isArray(profile.nodes) && profile.samples.length > 0));
  }
});

test('--profile --target an app beyond loopback started without --allow-profiling: refused in one line, ' +
  'exit 2, before any load', async (t) => {
  const app = await startAppProcess({ stores: ['memory'], args: ['--no-embedded', '--host', '0.0.0.0'] });
  t.after(() => app.stop());
  const port = new URL(app.url).port;
  const { status, stdout, stderr } = await runDriverCli([
    '--target', `http://127.0.0.1:${port}`, '--profile', '-c', '2', '-t', '1',
  ]);
  assert.equal(status, 2, stderr);
  assert.match(stderr, /--profile: the app at http:\/\/127\.0\.0\.1:\d+\/? was not started with profiling allowed: /);
  assert.match(stderr, /node app\.js --allow-profiling/);
  assert.doesNotMatch(stderr, /\n\s+at /, 'no stack');
  assert.doesNotMatch(stdout, /rps/, 'no step ran');
});

test('--profile --target an app beyond loopback that allows profiling: refused without its write token', async (t) => {
  const app = await startAppProcess({
    stores: ['memory'],
    args: ['--no-embedded', '--host', '0.0.0.0', '--allow-profiling'],
    env: { ...process.env, STOREBENCH_WRITE_TOKEN: 'profile-token-0123456789' },
  });
  t.after(() => app.stop());
  const port = new URL(app.url).port;
  const env = { ...process.env };
  delete env.STOREBENCH_WRITE_TOKEN;
  const { status, stderr } = await runDriverCli([
    '--target', `http://127.0.0.1:${port}`, '--profile', '-c', '2', '-t', '1',
  ], { env });
  assert.equal(status, 2, stderr);
  assert.match(stderr, /takes profile requests only with its write token: give --token/);
  assert.doesNotMatch(stderr, /profile-token/, 'the token is never shown');
});

test('--framework and --profile refuse what they cannot do: an unknown framework names the choices, and ' +
  'neither goes with --url', async () => {
  const koa = await runDriverCli(['--framework', 'koa']);
  assert.equal(koa.status, 2);
  assert.match(koa.stderr, /--framework must be express, fastify, node, not "koa"/);
  const url = await runDriverCli(['--framework', 'fastify', '--url', 'http://127.0.0.1:1/memory/key1']);
  assert.equal(url.status, 2);
  assert.match(url.stderr, /--framework chooses what serves the app\.js node test starts/);
  const profile = await runDriverCli(['--profile', '--url', 'http://127.0.0.1:1/memory/key1']);
  assert.equal(profile.status, 2);
  assert.match(profile.stderr, /--profile asks a storebench app to profile itself/);
});
