// How long a store's close() took, for the tests that hold it to its grace (stores/clients/close-within.js).

/** The ms close() took, or null if it had not settled after withinMs. */
export async function closeTime(store, withinMs) {
  const started = performance.now();
  let timer;
  const settled = await Promise.race([
    store.close().then(() => true),
    new Promise((resolve) => { timer = setTimeout(resolve, withinMs, false); }),
  ]);
  clearTimeout(timer);
  return settled ? performance.now() - started : null;
}
