// The names --engine takes, apart from the engines themselves so that parsing flags loads
// neither loadtest nor the sockets code (driver/engines/index.js maps each name to its engine).
export const HTTP_ENGINE_NAMES = Object.freeze(['loadtest', 'fast']);
export const DEFAULT_HTTP_ENGINE = 'loadtest';
