// Types of `storebench/app` (app.js): the target app, started from code (tests listen on port 0).
export interface StartAppOptions {
  /** Settings by key as config/settings.js names them (port, host, stores, redisUrl...); the rest come from env. */
  port?: number;
  host?: string;
  stores?: string[];
  /** App processes (app.js --workers): over 1, the app runs as a primary and that many workers (node:cluster). */
  workers?: number | 'auto';
  /** What serves the routes (app.js --framework): ['express'] by default, 'fastify', 'node' (bare node:http), or several, each on its own port. */
  framework?: Array<'express' | 'fastify' | 'node'> | string;
  /** Let node test --profile profile the app (POST /_profile/start and /stop; loopback or the write token). */
  allowProfiling?: boolean;
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
  /** Each framework the app serves on and where: the first is url and port. */
  frameworks: Array<{ framework: string; url: string; port: number; bound: RunningApp['bound'] }>;
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

/**
 * The app over stores already opened (stores/index.js openStores), served by `framework` (express by default,
 * fastify, or node: bare node:http): resolves to a node:http request listener.
 */
export function createApp(stores: unknown, options?: { framework?: 'express' | 'fastify' | 'node'; log?: (line: string) => void; logRequests?: boolean; metrics?: boolean; serverTiming?: boolean; writes?: object }): Promise<(request: unknown, response: unknown) => void>;
