// Types of storebench's public API (index.js). docs/api.md shows each call; docs/results-format.md
// describes every field of a Result. `npm run lint` checks these against examples/types.ts.

/** The options of run(): the long flags of `node test` in camelCase (node test --help says what each does). */
export interface RunOptions {
  /** --url: sweep these URLs (no /stores listing is read). */
  url?: string | string[];
  /** --target: sweep a running app's stores. */
  target?: string;
  /** --direct: call the store adapters in this process instead of the app over HTTP. */
  direct?: boolean;
  /** --stores: only these stores. */
  stores?: string | string[];
  /** --keys: only these keys. */
  keys?: string | string[];
  /** -c: the concurrency steps. */
  concurrency?: number | string | Array<number | string>;
  /** -n: requests per step (instead of a duration). */
  requests?: number | string;
  /** -t: seconds per step. */
  duration?: number | string;
  /** --rps: the open model's rates, one step each. */
  rps?: number | string | Array<number | string>;
  /** --pipeline: with direct, each caller sends this many calls at once (redis-benchmark -P); not with rps. */
  pipeline?: number | string;
  warmup?: number | string;
  warmupMax?: number | string;
  order?: 'interleaved' | 'sequential';
  /** --no-control: do not measure the first step again after the last (the control). */
  noControl?: boolean;
  quick?: boolean;
  noKeepalive?: boolean;
  /** Per-request deadline in milliseconds. */
  timeout?: number | string;
  /** --threads: the driver's threads, a number or `auto`. */
  threads?: number | string;
  /** --threads' old name, still taken with a one-line note. */
  workers?: number | string;
  /** --app-workers: the processes of the app.js the run starts (app.js --workers), a number or `auto`. */
  appWorkers?: number | string;
  /** --framework: what serves the app.js the run starts: 'express' (the default), 'fastify', 'node', or several. */
  framework?: string[] | string;
  /** --profile: each step run again with a CPU profile of every app process; where its CPU went, per part. */
  profile?: boolean;
  /** --engine: what sends the HTTP requests, `fast` (the default) or `loadtest`; not with direct. */
  engine?: 'loadtest' | 'fast';
  probe?: boolean;
  /** --probe-size: the value of the probe's own key (direct mode, a key-space workload); 100 bytes by default. */
  probeSize?: number | string;
  /** --store-rtt, --store-jitter (ms) and --store-bandwidth: the network emulated between the stores and their servers. */
  storeRtt?: number | string;
  storeJitter?: number | string;
  storeBandwidth?: number | string;
  /** --no-server-timing: the app run() starts leaves out its Server-Timing header, so no step has a store time. */
  noServerTiming?: boolean;
  workload?: string;
  records?: number | string;
  valueSize?: number | string;
  distribution?: string;
  seed?: number | string;
  valueShape?: 'bytes' | 'hash';
  noLoad?: boolean;
  noVerify?: boolean;
  token?: string;
  repeat?: number | string;
  /** --part I/N ('2/4'): this run is part I of N (its share of the load); needs `seed`, the same in every part. */
  part?: string;
  /** --start-at: prepare, then wait until this time (ISO with its zone, or '+30s' from now) before the first step. */
  startAt?: string;
  /** Thresholds as --assert takes them: 'p99<5ms', 'memory:rps>=1000', 'errors=0'. */
  assert?: string | string[];
}

/** A warning a step, load or verification carries (docs/results-format.md lists the codes). */
export interface Warning {
  code: string;
  message: string;
  data: Record<string, unknown>;
}

export interface Latency {
  count: number;
  meanMs: number | null;
  maxMs: number | null;
  minMs: number | null;
  p50Ms: number | null;
  p90Ms: number | null;
  p99Ms: number | null;
  p999Ms: number | null;
}

/**
 * The store's own time (docs/measurement.md): from the target's Server-Timing `store` metric of each
 * 2xx response, or in direct mode the latency itself. null where the target sent none.
 */
export interface StoreTime {
  source: 'server-timing' | 'direct';
  count: number;
  meanMs: number;
  minMs: number;
  maxMs: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  histogram: { unit: string; encoding: string; data: string };
}

/** One measured step. Fields not listed here are in docs/results-format.md. */
export interface Step {
  url: string;
  store: string;
  key: string;
  workload: string | null;
  mode: 'http' | 'direct';
  model: 'closed' | 'open';
  concurrency: number | null;
  targetRps: number | null;
  requests: number;
  responses: number;
  rps: number;
  latency: Latency;
  /** Absent from results files written before it. */
  storeTime?: StoreTime | null;
  errors: { total: number; byKind: Record<string, number>; samples: Record<string, string> };
  warnings: Warning[];
  histogram: { unit: string; encoding: string; data: string };
  repeat: number;
  [field: string]: unknown;
}

/** What a run produced (docs/results-format.md): what run() resolves to, and what a --json file holds. */
export interface Result {
  format: string;
  interrupted: boolean;
  appExit: string | null;
  settings: { assert: string[]; workload: string; [field: string]: unknown };
  system: { node: string; platform: string; cpuModel: string; cpuCount: number; target: string; date: string; hostname: string; [field: string]: unknown };
  targets: Array<{ url: string; store: string; key: string; named: boolean; [field: string]: unknown }>;
  skipped: Array<{ store: string; status: string; reason: string | null; [field: string]: unknown }>;
  steps: Step[];
  comparison: Array<Record<string, unknown>>;
  [field: string]: unknown;
}

/** A progress event of run(), in the order driver/run.js lists them. */
export type ProgressEvent =
  | { type: 'app-starting'; servers: string[] }
  | { type: 'app-started'; app: { url: string; [field: string]: unknown } }
  | { type: 'stores-opening'; servers: string[] }
  | { type: 'start'; settings: Result['settings']; system: Result['system']; targets: Result['targets']; skipped: Result['skipped']; totalSteps: number; estimateSeconds: number | null; estimateLoad: { seconds: number; records: number; targets: number; unknown: string[] } | null }
  | { type: 'load'; target: Result['targets'][number]; done: number; total: number; bytes: number }
  | { type: 'load-done'; load: Record<string, unknown> }
  | { type: 'step'; index: number; total: number; target: Result['targets'][number]; load: Record<string, unknown> }
  | { type: 'app-warmup-done'; warmup: { url: string; concurrency: number; seconds: number; windows: number; steady: boolean; speeds: number[] } }
  | { type: 'step-done'; step: Step }
  | { type: 'verify-done'; verification: Record<string, unknown> }
  | { type: 'target-done'; target: Result['targets'][number]; steps: Step[]; load: unknown; verification: unknown }
  | { type: 'notice'; message: string };

export interface RunHooks {
  /** Stops the run: it resolves with the finished steps and `interrupted: true`. */
  signal?: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
  /** The environment the run reads its settings from and gives the servers it starts (default: process.env). */
  env?: Record<string, string | undefined>;
}

/** A Result, or the path of a results file a run wrote with --json. */
export type ResultInput = Result | string;

export function run(options: RunOptions, hooks?: RunHooks): Promise<Result>;

/** run() as an async iterator: its progress events, then { type: 'done', result }; leaving the loop aborts it. */
export function runEvents(
  options: RunOptions,
  hooks?: { signal?: AbortSignal },
): AsyncGenerator<ProgressEvent | { type: 'done'; result: Result }, void, undefined>;

export function normalizeOptions(object: RunOptions & Record<string, unknown>, env?: Record<string, string | undefined>): {
  command: 'run' | 'parts' | 'scenario' | 'list';
  help: boolean;
  /** The checked options; `settings` (present when there are no problems) is the Result's `settings`, frozen. */
  options: Record<string, unknown> & { settings?: Result['settings'] };
  problems: string[];
};

export function failure(result: ResultInput): StorebenchError | null;

export function report(input: ResultInput, options?: { format?: 'text' | 'html' | 'csv' | 'json'; assert?: string | string[]; verbose?: boolean }): string;

export interface ThresholdRow {
  threshold: { text: string; store: string | null; [field: string]: unknown };
  store: string;
  checked: number;
  failed: number;
  worst: { key: string; model: string; load: number; value: number | null } | null;
  pass: boolean;
}

export function check(input: ResultInput, assert?: string | string[]): {
  pass: boolean;
  rows: ThresholdRow[];
  text: string;
  error: ThresholdError | null;
};

export interface Comparison {
  rows: Array<{ store: string; key: string; model: string; load: number; repeats: number[]; figures: Array<{ name: string; a: number | null; b: number | null; changePercent: number | null; withinNoise: boolean | null; regression: boolean; ignored: boolean }>; [field: string]: unknown }>;
  onlyA: string[];
  onlyB: string[];
  settings: unknown;
  regressions: unknown[];
  ignored: unknown[];
  failOnRegression: number | null;
  ignoreBusy: boolean;
  identical: boolean;
  /** The text `node test compare` prints. */
  render(): string;
}

export function compare(a: ResultInput, b: ResultInput, options?: { failOnRegression?: number | null; ignoreBusy?: boolean }): Comparison;

export function merge(inputs: Iterable<ResultInput | { file: string; result: ResultInput }>): Result;

export const RESULTS_FORMAT: string;
export const ERROR_CODES: Readonly<Record<string, { status?: number; exit?: number; meaning: string }>>;
export const WARNING_CODES: Readonly<Record<string, { meaning: string }>>;

export class StorebenchError extends Error {
  code: string;
  status: number;
}
/** Bad options: `problems` holds every one, in the command line's words (code USAGE). */
export class UsageError extends StorebenchError {
  problems: string[];
}
export class RunError extends StorebenchError {}
export class ResultsFormatError extends StorebenchError {}
export class MergeError extends StorebenchError {}
export class ThresholdError extends StorebenchError {}
export class VerifyError extends StorebenchError {}
