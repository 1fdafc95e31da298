import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createStepRunner } from '../../driver/workers.js';
import { HTTP_ENGINES } from '../../driver/engines/index.js';
import { decodeHistogram } from '../../result/recorder.js';
import { StepAborted } from '../../driver/step.js';
import { honestyWarnings } from '../../result/honesty.js';
import { startHoldServer, startTestServer } from '../helpers/driver-servers.js';

const load = (url, extra) => ({ url, keepAlive: true, timeoutMs: 10_000, ...extra });

function runner(t, workers, engine = HTTP_ENGINES.loadtest) {
  const notices = [];
  const stepRunner = createStepRunner({ workers, engine, onNotice: (text) => notices.push(text) });
  t.after(() => stepRunner.close());
  return { stepRunner, notices };
}

// What --workers promises, with each HTTP engine in the threads.
for (const [name, engine] of Object.entries(HTTP_ENGINES)) {
  const named = (title) => `${name} engine: ${title}`;

  for (const workers of [2, 3]) {
    test(named(`${workers} workers with -n 1000: their request counts add up to the step's, which is exactly -n, ` +
      'and every one reached the server'), async (t) => {
      const server = await startTestServer(t, { sleepMs: 2 });
      const { stepRunner } = runner(t, workers, engine);
      const step = await stepRunner.measure(load(`${server.url}/`, { concurrency: 10, maxRequests: 1000 }));
      assert.equal(step.workers.length, workers);
      assert.equal(step.requests, 1000);
      assert.equal(step.responses, 1000);
      assert.equal(step.workers.reduce((sum, worker) => sum + worker.requests, 0), 1000);
      assert.equal(step.workers.reduce((sum, worker) => sum + worker.responses, 0), 1000);
      assert.equal(server.heldMs.length, 1000);
      assert.equal(step.latency.count, 1000);
      assert.equal(decodeHistogram(step.histogram).totalCount, 1000,
        'the workers\' histograms added hold every sample');
      assert.equal(step.operations[0].requests, 1000);
      assert.equal(step.concurrency, 10);
      // rps is all responses over the workers' clients-weighted mean wallSeconds (each worker's
      // own is its responses / its rps), not the sum of their rps.
      const walls = step.workers.map((worker) => worker.responses / worker.rps);
      assert.ok(Math.abs(step.rps - step.responses / step.wallSeconds) < 1e-6, 'rps = responses / wallSeconds');
      const [shortest, longest] = [Math.min(...walls), Math.max(...walls)];
      assert.ok(step.wallSeconds >= shortest - 1e-9 && step.wallSeconds <= longest + 1e-9,
        `wallSeconds ${step.wallSeconds} within the workers' ${walls}`);
      for (const worker of step.workers) {
        assert.ok(worker.cpuPercent > 0 && worker.cpuPercent < 100, `a worker's CPU ${worker.cpuPercent}%`);
      }
    });
  }

  // rps is set by the server's hold, not the driver's CPU: 20 clients, each request held 50 ms,
  // give about 400 rps; the workers' figures added must say so (Little's law), as one thread's do.
  test(named('3 workers against a server holding each request 50 ms: ' +
    'rps = concurrency / mean within 10% (Little\'s law), mean within 10% of what the server held'), async (t) => {
    const server = await startHoldServer(t, [50]);
    const { stepRunner } = runner(t, 3, engine);
    await stepRunner.measure(load(`${server.url}/`, { concurrency: 20, maxRequests: 100 })); // warm-up
    const before = (await server.held()).length;
    const step = await stepRunner.measure(load(`${server.url}/`, { concurrency: 20, durationSeconds: 2 }));
    // The reference is what the server really held (its 50 ms timers fire late on a busy machine):
    // 20 clients over that hold, plus what the loopback adds, which a dropped or double-counted
    // round trip would far exceed.
    const held = (await server.held()).slice(before);
    const heldMs = held.reduce((sum, ms) => sum + ms, 0) / held.length;
    assert.equal(step.responses, held.length, 'every request the server answered is in the step');
    assert.ok(step.latency.meanMs >= heldMs && step.latency.meanMs < heldMs * 1.1 + 2,
      `mean ${step.latency.meanMs} ms vs the ${heldMs.toFixed(1)} ms the server held`);
    const expected = 20 / (step.latency.meanMs / 1000);
    assert.ok(Math.abs(step.rps - expected) / expected < 0.1, `rps ${step.rps} vs 20 / mean = ${expected}`);
    assert.equal(honestyWarnings(step).filter((warning) => warning.code === 'LITTLES_LAW').length, 0);
    assert.ok(step.wallSeconds > 1.9 && step.wallSeconds < 2.5, `wallSeconds ${step.wallSeconds}`);
  });

  test(named('the open model over 3 workers: each sends a third of the rate, the step the whole rate, ' +
    'recorded as asked'), async (t) => {
    const server = await startTestServer(t, { sleepMs: 5 });
    const { stepRunner } = runner(t, 3, engine);
    const step = await stepRunner.measure(load(`${server.url}/`, { rps: 200, maxRequests: 300 }));
    assert.equal(step.model, 'open');
    assert.equal(step.targetRps, 200); // not 66.67 x 3 = 200.00000000000003
    assert.equal(step.concurrency, null);
    assert.equal(step.maxRequests, 300);
    assert.deepEqual(step.workers.map((worker) => worker.requests), [100, 100, 100]);
    assert.ok(Math.abs(step.rps - 200) / 200 < 0.1, `rps ${step.rps}`);
  });

  test(named('concurrency 2 over 4 workers runs on 2 of them, and says so'), async (t) => {
    const server = await startTestServer(t);
    const { stepRunner, notices } = runner(t, 4, engine);
    const step = await stepRunner.measure(load(`${server.url}/`, { concurrency: 2, maxRequests: 50 }));
    assert.equal(step.workers.length, 2);
    assert.equal(step.responses, 50);
    assert.deepEqual(notices,
      ['concurrency 2 shared by 2 of the 4 workers (each needs at least one client and one request)']);
  });

  test(named('an abort mid-step rejects at once with StepAborted and ends the workers\' requests'), async (t) => {
    const server = await startTestServer(t);
    const { stepRunner } = runner(t, 2, engine);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const hang = load(`${server.url}/hang`, { concurrency: 4, durationSeconds: 30, signal: controller.signal });
    await assert.rejects(stepRunner.measure(hang), StepAborted);
    assert.ok(Date.now() - started < 5000, 'the abort did not wait for the 30 s step');
  });
}

test('an engine worker threads cannot run is refused with one line, before any load', () => {
  const engine = { mode: 'pigeon', run: async () => ({ reported: null }) };
  assert.throws(() => createStepRunner({ workers: 2, engine }), {
    code: 'USAGE', message: '--threads 2 runs http, direct steps only; pigeon mode runs on one thread (--threads 1)',
  });
  assert.doesNotThrow(() => createStepRunner({ workers: 1, engine }));
});

test('each worker draws its own keys and operations from the seed: stream 0 is the main thread\'s, ' +
  'others differ', async () => {
  const { createWorkload } = await import('../../driver/workloads/workload.js');
  const spec = {
    mix: [{ operation: 'read', share: 0.5 }, { operation: 'update', share: 0.5 }],
    distribution: { name: 'uniform' },
    records: 100_000,
    valueSize: { min: 10, max: 10 },
    seed: 7,
  };
  const sequence = (options) => {
    const workload = createWorkload(spec, options);
    return Array.from({ length: 50 }, () => {
      const request = workload.next();
      request.settle(204, 0);
      return `${request.operation} ${request.path}`;
    });
  };
  assert.deepEqual(sequence({ stream: 0 }), sequence({}));
  assert.deepEqual(sequence({ stream: 1 }), sequence({ stream: 1 }), 'a stream is reproducible');
  const [zero, one, two] = [0, 1, 2].map((stream) => new Set(sequence({ stream })));
  assert.ok([...one].filter((request) => zero.has(request)).length < 5, 'streams 0 and 1 send different requests');
  assert.ok([...two].filter((request) => one.has(request)).length < 5, 'streams 1 and 2 send different requests');
});

test('DRIVER_CPU is checked per worker: one thread at 95% warns, two at 50% (100% in all) do not', () => {
  const step = {
    responses: 5000,
    wallSeconds: 2,
    latency: { meanMs: 1 },
    rps: 2500,
    concurrency: 2.5,
    model: 'closed',
    errors: { total: 0, byKind: {}, samples: {} },
    targetRps: null,
  };
  const cpuWarnings = (figures) => {
    return honestyWarnings({ ...step, ...figures }).filter((warning) => warning.code === 'DRIVER_CPU');
  };
  assert.deepEqual(cpuWarnings({ cpuPercent: 100, workers: [{ cpuPercent: 50 }, { cpuPercent: 50 }] }), []);
  const [busy] = cpuWarnings({ cpuPercent: 140, workers: [{ cpuPercent: 45 }, { cpuPercent: 95 }] });
  assert.equal(busy.message,
    'the busiest of 2 worker threads used 95% of a CPU core: the client may be the bottleneck, not the server');
  assert.deepEqual(busy.data, { cpuPercent: 95, threshold: 90 });
  assert.equal(cpuWarnings({ cpuPercent: 95, workers: null }).length, 1, 'one thread: the step\'s own CPU, as before');
});
