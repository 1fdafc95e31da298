// What sent the load is what a Result and its reports name. Pins a direct-mode scenario (the
// serial and batch kinds) recording loadtest's version and printing "loadtest 8.2.1" on its
// System line, though the direct engine sent every request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDirectSteps } from '../../studies/direct-result.js';
import { fromJson, toJson } from '../../result/format.js';
import { renderScenario } from '../../report/scenario.js';
import { report } from '../../index.js';
import { systemInfo } from '../../util/system-info.js';
import { scenarioRecord } from '../helpers/driver-fixtures.js';

const record = scenarioRecord();

test('systemInfo records loadtest\'s version only when loadtest sends the load', () => {
  assert.match(systemInfo({ engine: 'loadtest' }).loadtest, /^\d+\.\d+\.\d+$/);
  for (const engine of ['fast', 'direct', undefined]) {
    assert.equal('loadtest' in systemInfo({ engine }), false, `engine ${engine}`);
  }
});

test('a direct scenario\'s Result names the direct engine, and its report says so, never loadtest', () => {
  const result = createDirectSteps({ name: 's', stores: ['memory'], timeoutMs: 1000 }).result();
  assert.equal(result.settings.engine, 'direct');
  assert.equal('loadtest' in result.system, false);

  const back = fromJson(toJson({ ...result, scenario: record }));
  const text = renderScenario(back.scenario, { system: back.system, engine: back.settings.engine });
  const [system] = text.split('\n').filter((line) => line.startsWith('System:'));
  assert.match(system, / · engine direct · /);
  assert.doesNotMatch(system, /loadtest/);
  // The library's report() of the saved file prints the same line.
  assert.ok(report(back).includes(`${system}\n`));
});
