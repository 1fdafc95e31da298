// The engines by name, each with its `mode`; implementations load only when asked for, so that
// parsing flags loads neither loadtest nor the sockets code.
export const ENGINES = Object.freeze({
  loadtest: { mode: 'http', load: async () => (await import('./loadtest.js')).loadtestEngine },
  fast: { mode: 'http', load: async () => (await import('./fast.js')).fastEngine },
  direct: { mode: 'direct', load: async () => (await import('./direct.js')).directEngine },
});

export const HTTP_ENGINE_NAMES = Object.freeze(Object.keys(ENGINES).filter((name) => ENGINES[name].mode === 'http'));
// fast by default: on a 20 ms server it reads wrk's mean within 1% at a third of loadtest's CPU per
// response; loadtest stays for a study run with loadtest (docs/measurement.md, "The default engine").
export const DEFAULT_HTTP_ENGINE = 'fast';

/** An engine's mode: the table's for an engine it names, else the engine's own `mode` (default 'http'). */
export const engineMode = (engine) => ENGINES[engine?.name]?.mode ?? engine?.mode ?? 'http';

export const loadEngine = async (name) => ENGINES[name]?.load();
