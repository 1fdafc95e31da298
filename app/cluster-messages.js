// IPC between app.js's primary and its workers. Our messages carry `storebench` (their type), so
// node:cluster's and prom-client's own pass by untouched.

const ANSWER = 'answer';

// ask() resolves to the answer (rejects with the other side's error, or after timeoutMs; 0 waits
// forever); handle(type, fn) answers with fn's value; close() rejects every question still waiting.
export function messenger(channel, { timeoutMs = 10_000 } = {}) {
  const waiting = new Map(); // id -> { resolve, reject, timer }
  const handlers = new Map();
  let next = 0;
  const send = (message) => {
    try {
      channel.send(message);
    } catch {} // the other side is gone: its exit is handled where it is watched
  };

  channel.on('message', (message) => {
    const type = message?.storebench;
    if (!type) return;
    if (type === ANSWER) {
      const question = waiting.get(message.id);
      if (!question) return;
      waiting.delete(message.id);
      clearTimeout(question.timer);
      if (message.error) question.reject(new Error(message.error));
      else question.resolve(message.value);
      return;
    }
    const handler = handlers.get(type);
    if (!handler) return;
    Promise.resolve().then(() => handler(message)).then(
      (value) => message.id !== undefined && send({ storebench: ANSWER, id: message.id, value }),
      (error) => message.id !== undefined && send({ storebench: ANSWER, id: message.id, error: error.message }),
    );
  });

  return {
    tell: (type, body = {}) => send({ ...body, storebench: type }),
    ask(type, body = {}, { timeout = timeoutMs } = {}) {
      const id = ++next;
      return new Promise((resolve, reject) => {
        const timer = timeout > 0 && setTimeout(() => {
          waiting.delete(id);
          reject(new Error(`no answer to ${type} within ${timeout / 1000} s`));
        }, timeout);
        if (timer) timer.unref();
        waiting.set(id, { resolve, reject, timer });
        send({ ...body, storebench: type, id });
      });
    },
    handle(type, fn) {
      handlers.set(type, fn);
    },
    close(reason = 'the other process is gone') {
      for (const { reject, timer } of waiting.values()) {
        clearTimeout(timer);
        reject(new Error(reason));
      }
      waiting.clear();
    },
  };
}

// arrive(id) resolves once every worker still alive has arrived; leave(id) counts an exited one out.
export function meeting(ids) {
  const expected = new Set(ids);
  const arrived = new Map(); // id -> resolve
  let met = false;
  const check = () => {
    if (met || ![...expected].every((id) => arrived.has(id))) return;
    met = true;
    for (const resolve of arrived.values()) resolve();
  };
  return {
    arrive(id) {
      if (met) return Promise.resolve();
      return new Promise((resolve) => {
        arrived.set(id, resolve);
        check();
      });
    },
    leave(id) {
      expected.delete(id);
      check();
    },
  };
}
