// The driver's --metrics-port series: one per target, operation and step, so two URLs with the
// same store and key (two hosts, say) are two series, each with its own step's requests.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createDriverMetrics } from '../../driver/metrics-server.js';
import { fixedStep } from '../helpers/driver-fixtures.js';

test('two targets with the same store and key keep a series each, labelled with their URL', () => {
  const metrics = createDriverMetrics();
  const a = { ...fixedStep({ store: 'memory', concurrency: 5 }), url: 'http://a.example:3000/memory/key1' };
  const b = { ...fixedStep({ store: 'memory', concurrency: 5, maxRequests: 500 }), url: 'http://b.example:3000/memory/key1' };
  for (const step of [a, b]) metrics.onProgress({ type: 'step-done', step });
  const lines = metrics.render().split('\n').filter((line) => line.startsWith('storebench_driver_requests_total{'));
  assert.deepEqual(lines, [a, b].map((step) => 'storebench_driver_requests_total{store="memory",key="key1",' +
    `operation="read",step="c5",target="${step.url}"} ${step.requests}`));
});
