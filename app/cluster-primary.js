// app.js --workers N: the primary. It starts the embedded servers once, forks N workers (each the
// whole app), owns the listener and hands each connection to the next worker in turn, and is where
// the workers meet: who opens a store first, seeded keys deleted, /metrics, and shutting down
// together (app/drain.js).
// The listener is the primary's own, not node:cluster's shared one: at shutdown node:cluster resets
// the connections its primary had accepted but not yet handed over when the last worker closes (20
// resets in 1 of 4 SIGTERMs under 50 keep-alive clients); here the primary closes its listener when
// nothing is arriving, and every connection it accepted reaches a worker.
// A worker that exits on its own is not replaced: a target a process short would measure less than
// it says, and one started late would seed and replay while the others serve.
// A connection goes to the next worker that has taken every one handed to it before (as node:cluster's
// round robin): a worker in a long pause gets none meanwhile, and none waits in a queue of Node's for
// a worker that dies (where it would stay open, never read, until the primary exits).
import cluster from 'node:cluster';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { resolveServices } from '../stores/index.js';
import { meeting, messenger } from './cluster-messages.js';
import { metricsOfAll } from './cluster-metrics.js';
import { quietListenerCloser } from './drain.js';
import { listen } from './listen.js';
import { createProfiler } from './profiler.js';

const WORKER_SCRIPT = fileURLToPath(new URL('../cli/app-worker.js', import.meta.url));

const howExited = ({ code, signal }) => (signal ? `was killed by ${signal}` : `exited with code ${code}`);

// The embedded servers, started once for every worker: what the workers are told of them, and
// how to stop them.
async function startServices(settings, { env, options, onServerReady }) {
  const { resolved, stopServers } = await resolveServices(settings.stores, {
    env, options, embedded: settings.embedded, onServer: onServerReady,
  });
  const stopServersOnce = () => Promise.allSettled(stopServers.map((stop) => stop()));
  const services = Object.fromEntries(Object.entries(resolved).map(([name, { stop: _stop, ...rest }]) => [name, rest]));
  return { services, stopServersOnce };
}

// Where the workers meet, as each asks: who opens a store first, each store told once, ready,
// seeded keys deleted in every worker, /metrics of all, a failed start, a connection taken, profiles.
function answerWorker(worker, talk, name, meet) {
  const { alive, openings, meetings, metrics, profiles, handOff, toldStores, onStoreOpened, run } = meet;
  talk.handle('opening', ({ store }) => openings.ask(store, worker.id));
  talk.handle('opened', ({ store, ok }) => openings.done(store, ok));
  talk.handle('store-opened', ({ store }) => {
    if (toldStores.has(store.name)) return;
    toldStores.add(store.name);
    onStoreOpened?.(store);
  });
  talk.handle('ready', () => meetings.ready.arrive(worker.id));
  talk.handle('deleting-seed', ({ store, key }) => Promise.allSettled([...alive.values()]
    .filter((other) => other.worker !== worker)
    .map((other) => other.talk.ask('seed-deleted', { store, key }))));
  talk.handle('metrics', () => metrics.text([...alive.values()]
    .map(({ talk: other }) => () => other.ask('metrics-json'))));
  talk.handle('failed', ({ reason }) => run.failStart(new Error(`${name} could not start: ${reason}`)));
  talk.handle('accepted', () => handOff.free(worker.id));
  talk.handle('profile-start', ({ intervalUs }) => profiles.start(intervalUs, [...alive.values()]));
  talk.handle('profile-stop', () => profiles.stop([...alive.values()]));
}

// Resolves when the worker exits, which takes it out of every meeting and hand-off. An exit the
// app did not ask for is told at once: lost once the app listens, a failed start before.
function workerExit(worker, talk, name, { alive, handOff, meetings, openings, run }) {
  return new Promise((resolve) => {
    worker.once('exit', (code, signal) => {
      alive.delete(worker.id);
      handOff.gone(worker.id);
      talk.close(`${name} is gone`);
      for (const one of Object.values(meetings)) one.leave(worker.id);
      openings.gone(worker.id);
      const told = !run.stopping; // its end is reported now, not again when the app stops
      if (told) {
        const line = `${name} ${howExited({ code, signal })}`;
        if (run.started) run.reportLost(line);
        else run.failStart(new Error(`${line} before listening`));
      }
      resolve({ name, code, signal, told });
    });
  });
}

// One listener per framework, each paused until a worker reads it: the primary reads nothing of
// any connection. noDelay as http.Server's own accepts have it: Nagle's algorithm held a pipelined
// second answer for the client's delayed ACK (44 ms against 0.8 for one process, on loopback).
const frameworkListeners = (frameworks, handOff) => frameworks.map((framework) => {
  const listener = createServer({ pauseOnConnect: true, noDelay: true });
  listener.on('connection', (socket) => handOff.arrived(socket, framework));
  return { framework, listener, close: quietListenerCloser(listener) };
});

// Resolves once every worker says it serves, each asking first for what it is to start with.
const allServing = (forked, alive, startWith) => Promise.all(forked.map((worker) => new Promise((resolve) => {
  const { talk } = alive.get(worker.id);
  talk.handle('start', startWith);
  talk.handle('serving', resolve);
})));

// Each framework's listener: the first on the port asked for, the next ones on the ports after it.
async function listenAll(listeners, settings) {
  const places = [];
  for (const [i, { listener }] of listeners.entries()) {
    places.push(await listen(listener, { ...settings, port: settings.port === 0 ? 0 : settings.port + i }));
  }
  return places;
}

// Shutting down together: the workers told to stop; the listeners closed once nothing arrives;
// every connection accepted handed out; the workers' exits, then the servers. A worker that ended
// badly, and was not told of already, is the error.
async function closeCluster({ run, alive, listeners, handOff, exits, stopServersOnce }) {
  run.stopping = true;
  for (const { talk } of alive.values()) talk.tell('stop');
  // The workers hold new connections' requests while the listener is open, then answer them 503.
  await Promise.all(listeners.filter(({ listener }) => listener.listening).map(({ close: closeOne }) => closeOne()));
  await handOff.handedOut();
  for (const { talk } of alive.values()) talk.tell('listener-closed');
  const ended = await Promise.all(exits);
  await stopServersOnce();
  const unclean = ended.filter(({ code, signal, told }) => !told && (code !== 0 || signal));
  if (unclean.length) {
    throw new Error(unclean.map((one) => `${one.name} ${howExited(one)}`).join('; '));
  }
}

// Resolves once every worker listens; lost resolves to a line when a worker exits on its own.
export async function startAppCluster({ env, onServerReady, onStoreOpened, options, settings }) {
  const { services, stopServersOnce } = await startServices(settings, { env, options, onServerReady });

  cluster.setupPrimary({ exec: WORKER_SCRIPT, args: [], silent: false });
  const forked = Array.from({ length: settings.workers }, () => cluster.fork());
  const alive = new Map(); // id -> { worker, talk }
  const handOff = connectionHandOff(alive);
  const run = { stopping: false, started: false };
  const lost = new Promise((resolve) => { run.reportLost = resolve; });
  const startFailed = new Promise((resolve, reject) => { run.failStart = reject; });
  startFailed.catch(() => {});
  const meet = {
    alive,
    handOff,
    run,
    meetings: { ready: meeting(forked.map((worker) => worker.id)) },
    openings: storeOpenings(),
    metrics: settings.metrics ? metricsOfAll() : null,
    profiles: profilesOfAll(),
    toldStores: new Set(),
    onStoreOpened,
  };

  const exits = forked.map((worker, index) => {
    const talk = messenger(worker);
    alive.set(worker.id, { worker, talk });
    const name = `worker ${index + 1} (pid ${worker.process.pid})`;
    answerWorker(worker, talk, name, meet);
    return workerExit(worker, talk, name, meet);
  });
  const listeners = frameworkListeners(settings.framework, handOff);
  let closing;
  const close = () => (closing ??= closeCluster({ run, alive, listeners, handOff, exits, stopServersOnce }));

  try {
    const startWith = () => ({ env, options, services, workers: settings.workers });
    await Promise.race([allServing(forked, alive, startWith), startFailed]);
    for (const worker of forked) handOff.free(worker.id);
    const places = await listenAll(listeners, settings);
    const bound = Object.fromEntries(listeners.map(({ framework }, i) => [framework, places[i].bound]));
    for (const { talk } of alive.values()) talk.tell('listening', { bound });
    run.started = true;
    const frameworks = listeners.map(({ framework }, i) => ({ framework, ...places[i] }));
    const { url, port } = places[0];
    return {
      url,
      port,
      bound: places[0].bound,
      frameworks,
      workers: settings.workers,
      pids: forked.map((w) => w.process.pid),
      close,
      lost,
    };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}

// Each accepted connection to a free worker, in the order they became free; a worker is free again
// once it says it took the last one. Connections wait here while none is free, and are closed when
// no worker is left.
function connectionHandOff(alive) {
  const free = []; // worker ids
  const waiting = []; // { socket, framework }
  let drained = null; // resolves handedOut()
  const handOut = () => {
    while (waiting.length && free.length) {
      const id = free.shift();
      const entry = alive.get(id);
      if (!entry) continue;
      const { socket, framework } = waiting.shift();
      entry.worker.send({ storebench: 'connection', framework }, socket, (error) => { if (error) socket.destroy(); });
    }
    if (!alive.size) for (const { socket } of waiting.splice(0)) socket.destroy();
    if (!waiting.length) drained?.();
  };
  return {
    arrived(socket, framework) {
      waiting.push({ socket, framework });
      handOut();
    },
    free(id) {
      if (alive.has(id) && !free.includes(id)) free.push(id);
      handOut();
    },
    gone(id) {
      if (free.includes(id)) free.splice(free.indexOf(id), 1);
      handOut();
    },
    handedOut: () => (waiting.length ? new Promise((resolve) => { drained = resolve; }) : Promise.resolve()),
  };
}

// Who opens each store first, so its start-up work is done once: the first asker gets { first: true },
// the others wait, and get true in turn if the owner failed or exited.
function storeOpenings() {
  const stores = new Map(); // store -> { open: boolean, owner, waiting: [{ id, resolve }] }
  const finish = (store, ok) => {
    const state = stores.get(store);
    if (!state || state.open) return;
    if (ok) {
      state.open = true;
      for (const { resolve } of state.waiting) resolve({ first: false });
      state.waiting = [];
      return;
    }
    const next = state.waiting.shift();
    if (!next) return void stores.delete(store);
    state.owner = next.id;
    next.resolve({ first: true });
  };
  return {
    ask(store, id) {
      const state = stores.get(store);
      if (!state) {
        stores.set(store, { open: false, owner: id, waiting: [] });
        return { first: true };
      }
      if (state.open) return { first: false };
      return new Promise((resolve) => state.waiting.push({ id, resolve }));
    },
    done: finish,
    gone(id) {
      for (const [store, state] of stores) {
        state.waiting = state.waiting.filter((waiter) => waiter.id !== id);
        if (!state.open && state.owner === id) finish(store, false);
      }
    },
  };
}

// A profile of every process of the app: the primary's own (it relays connections, and runs the
// --store-rtt delay proxy) and each worker's. A conflict is answered, not thrown: its code must
// reach the worker that asked.
function profilesOfAll() {
  const own = createProfiler({ role: 'primary' });
  let taking = false;
  return {
    async start(intervalUs, workers) {
      if (taking) return { conflict: 'a profile is already being taken' };
      taking = true;
      const starting = workers.map(({ talk }) => talk.ask('profile-start-local', { intervalUs }));
      return { processes: await Promise.all([own.start(intervalUs), ...starting]) };
    },
    async stop(workers) {
      if (!taking) return { conflict: 'no profile is being taken' };
      taking = false;
      const stopping = workers.map(({ talk }) => talk.ask('profile-stop-local'));
      const taken = await Promise.allSettled([own.stop(), ...stopping]);
      return { processes: taken.filter((one) => one.status === 'fulfilled').map((one) => one.value) };
    },
  };
}
