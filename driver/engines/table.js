// The engines by name, each with its `mode`; implementations load only when asked for, so that
// parsing flags loads neither loadtest nor the sockets code.
export const ENGINES = Object.freeze({
  loadtest: { mode: 'http', load: async () => (await import('./loadtest.js')).loadtestEngine },
  fast: { mode: 'http', load: async () => (await import('./fast.js')).fastEngine },
  direct: { mode: 'direct', load: async () => (await import('./direct.js')).directEngine },
});

/** An engine's mode: the table's for an engine it names, else the engine's own `mode` (default 'http'). */
export const engineMode = (engine) => ENGINES[engine?.name]?.mode ?? engine?.mode ?? 'http';

export const loadEngine = async (name) => ENGINES[name]?.load();
