// Types of `storebench/app` (app.js): the target app, started from code (tests listen on port 0).
export interface StartAppOptions {
  /** Settings by key as config/settings.js names them (port, host, stores, redisUrl...); the rest come from env. */
  port?: number;
  host?: string;
  stores?: string[];
  /** App processes (app.js --workers): over 1, the app runs as a primary and that many workers (node:cluster). */
  workers?: number | 'auto';
  env?: Record<string, string | undefined>;
  log?: (line: string) => void;
  onServerReady?: (server: Record<string, unknown>) => void;
  onStoreOpened?: (store: Record<string, unknown>) => void;
  [setting: string]: unknown;
}

export interface RunningApp {
  /** Where this machine reaches the app: http://127.0.0.1:PORT */
  url: string;
  port: number;
  bound: { address: string; port: number; family: string; allInterfaces: boolean };
  /** How many processes serve: 1, or the workers setting. */
  workers: number;
  /** The node:http Server it listens with (one process only: the workers have their own). */
  server?: { close(callback?: (error?: Error) => void): unknown; [member: string]: unknown };
  /** Its stores (one process only). */
  stores?: unknown;
  /** Several workers: their pids, and a line once one exits on its own (the app is then a process short). */
  pids?: number[];
  lost?: Promise<string>;
  /** Stops accepting, lets requests in flight finish, closes the stores and the servers it started. */
  close(): Promise<void>;
}

/** Opens the stores, builds the app and listens. Rejects with a UsageError listing every malformed setting. */
export function startApp(options?: StartAppOptions): Promise<RunningApp>;

/** The Express app (a node:http request listener) over stores already opened (stores/index.js openStores). */
export function createApp(stores: unknown, options?: { log?: (line: string) => void; logRequests?: boolean; metrics?: boolean; serverTiming?: boolean; writes?: object }): (request: unknown, response: unknown) => void;
