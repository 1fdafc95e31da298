import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderSystemLine } from '../../report/system.js';
import { systemInfo } from '../../util/system-info.js';

const system = { node: 'v20.0.0', platform: 'linux 6 x64', cpuModel: 'Test CPU', cpuCount: 2, loadtest: '8.2.1', target: 'http://t', date: '2026-01-01T00:00:00.000Z' };

test('one System: line for every report: Node, OS, CPUs, loadtest when it took part, the date', () => {
  assert.equal(
    renderSystemLine(system),
    'System: Node v20.0.0 · linux 6 x64 · 2 x Test CPU · loadtest 8.2.1 · 2026-01-01T00:00:00.000Z',
  );
  const { loadtest, ...withoutLoadtest } = system;
  assert.equal(
    renderSystemLine(withoutLoadtest),
    'System: Node v20.0.0 · linux 6 x64 · 2 x Test CPU · 2026-01-01T00:00:00.000Z',
  );
});

test('the System line names the engine that sent the load: loadtest with its version, fast or direct alone', () => {
  assert.equal(
    renderSystemLine(system, { date: false, engine: 'loadtest' }),
    'System: Node v20.0.0 · linux 6 x64 · 2 x Test CPU · engine loadtest 8.2.1',
  );
  assert.equal(
    renderSystemLine(system, { date: false, engine: 'fast' }),
    'System: Node v20.0.0 · linux 6 x64 · 2 x Test CPU · engine fast',
  );
  assert.equal(
    renderSystemLine(system, { date: false, engine: 'direct' }),
    'System: Node v20.0.0 · linux 6 x64 · 2 x Test CPU · engine direct',
  );
});

test('the System line says why the engine ran: the default or --engine; nothing for direct or old files', () => {
  assert.equal(
    renderSystemLine(system, { date: false, engine: 'fast', choice: 'default' }),
    'System: Node v20.0.0 · linux 6 x64 · 2 x Test CPU · engine fast (default)',
  );
  assert.equal(
    renderSystemLine(system, { date: false, engine: 'loadtest', choice: 'option' }),
    'System: Node v20.0.0 · linux 6 x64 · 2 x Test CPU · engine loadtest 8.2.1 (--engine loadtest)',
  );
  assert.equal(
    renderSystemLine(system, { date: false, engine: 'direct', choice: 'default' }),
    'System: Node v20.0.0 · linux 6 x64 · 2 x Test CPU · engine direct',
  );
  assert.equal(
    renderSystemLine(system, { date: false, engine: 'loadtest' }),
    'System: Node v20.0.0 · linux 6 x64 · 2 x Test CPU · engine loadtest 8.2.1',
  );
});

test('the driver header pads the label to line up with Target: and Date: and leaves the date to its own line', () => {
  assert.equal(
    renderSystemLine(system, { labelWidth: 9, date: false }),
    'System:   Node v20.0.0 · linux 6 x64 · 2 x Test CPU · loadtest 8.2.1',
  );
});

test('systemInfo names loadtest only for reports it played a part in', () => {
  assert.match(systemInfo({ engine: 'loadtest' }).loadtest, /^\d+\.\d+\.\d+$/);
  assert.equal('loadtest' in systemInfo(), false);
  assert.doesNotMatch(renderSystemLine(systemInfo()), /loadtest/);
});
