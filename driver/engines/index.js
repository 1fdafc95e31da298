// The HTTP engines --engine chooses between, loaded: the run, the tests and the benchmarks take
// them by name (engines/table.js names them). Both implement driver/step.js's Engine contract,
// so a step's figures mean the same whichever sent it; they differ in what a request costs
// the driver (docs/measurement.md, "Two HTTP engines").
import { HTTP_ENGINE_NAMES, loadEngine } from './table.js';

export { DEFAULT_HTTP_ENGINE, HTTP_ENGINE_NAMES } from './table.js';
export const HTTP_ENGINES = Object.freeze(Object.fromEntries(
  await Promise.all(HTTP_ENGINE_NAMES.map(async (name) => [name, await loadEngine(name)])),
));

/** The HTTP engine called `name`. */
export const httpEngineNamed = (name) => HTTP_ENGINES[name];
