// The HTTP engines `--engine` chooses between, in one place: the run, the worker threads and
// the benchmarks look them up here by name. Both implement driver/step.js's Engine contract,
// so a step's figures mean the same whichever sent it; they differ in what a request costs
// the driver (docs/measurement.md, "Two HTTP engines").
import { httpEngine } from './http.js';
import { fastEngine } from './fast.js';
import { DEFAULT_HTTP_ENGINE } from './names.js';

export { DEFAULT_HTTP_ENGINE, HTTP_ENGINE_NAMES } from './names.js';
export const HTTP_ENGINES = Object.freeze({ loadtest: httpEngine, fast: fastEngine });

/** The HTTP engine called `name` (default loadtest). */
export const httpEngineNamed = (name = DEFAULT_HTTP_ENGINE) => HTTP_ENGINES[name];
