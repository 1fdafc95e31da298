// The HTTP engines, loaded. They differ only in what a request costs the driver
// (docs/measurement.md, "Two HTTP engines").
import { loadEngine } from './table.js';
import { HTTP_ENGINE_NAMES } from '../../config/run-defaults.js';

export const HTTP_ENGINES = Object.freeze(Object.fromEntries(
  await Promise.all(HTTP_ENGINE_NAMES.map(async (name) => [name, await loadEngine(name)])),
));

export const httpEngineNamed = (name) => HTTP_ENGINES[name];
