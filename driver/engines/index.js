// The HTTP engines, loaded. They differ only in what a request costs the driver
// (docs/measurement.md, "Two HTTP engines").
import { HTTP_ENGINE_NAMES, loadEngine } from './table.js';

export { DEFAULT_HTTP_ENGINE, HTTP_ENGINE_NAMES } from './table.js';
export const HTTP_ENGINES = Object.freeze(Object.fromEntries(
  await Promise.all(HTTP_ENGINE_NAMES.map(async (name) => [name, await loadEngine(name)])),
));

export const httpEngineNamed = (name) => HTTP_ENGINES[name];
