// One write at a time to each document from this process. Writers of one key that race each
// other lose all but one race a round to revision conflicts, and each lost race is a request
// or two that the server must serve all the same: on the embedded stand-in, one event loop,
// 200 writers of one key spent their whole operation deadline there (docs/stores.md). Queued
// instead, each write goes over the revision the write before it made, handed on, so it needs
// no read of the revision either.

/**
 * The queues of a CouchDB client's writes, by document id. turn(docId, options, write)
 * runs write(handed) once every write of docId queued before it is done, and settles as it does.
 * handed: { rev } as the last of those left the document (rev undefined: there is none), or
 * null when that is not known (read it); write resolves to what it hands on, in that form.
 *
 * options.giveUpAt (Date.now() time): a write whose turn has not come by then is never run: it
 * rejects with notRun() if writes of docId were answered while it waited (the key was busy,
 * the server was not), else with a plain error once its turn comes (the server was silent:
 * the operation deadline has answered for it). options.stuckMs: a write under way longer than
 * that stops holding the queue; the next reads the revision afresh.
 */
export function documentQueues() {
  const queues = new Map(); // docId -> { tail: Promise<handed>, waiting, answered }

  const turn = (docId, { giveUpAt, stuckMs, notRun }, write) => {
    let queue = queues.get(docId);
    if (!queue) queues.set(docId, (queue = { tail: Promise.resolve(null), waiting: 0, answered: 0 }));
    queue.waiting += 1;
    const answeredWhenQueued = queue.answered;
    let state = 'waiting'; // then 'running' or 'gave up'

    // Busy (writes of docId were answered meanwhile): the key's other writers had its time. Else
    // the server was silent, and the operation deadline has answered for this write.
    const whyNotRun = () => (queue.answered > answeredWhenQueued
      ? notRun()
      : new Error('the writes of this document ahead of it got no answer within the operation deadline; ' +
        'nothing was sent'));
    const ran = queue.tail.then((handed) => {
      if (state === 'gave up') return { handed };
      if (Date.now() >= giveUpAt) {
        state = 'gave up';
        return { handed, error: whyNotRun() };
      }
      state = 'running';
      const work = Promise.resolve().then(() => write(handed));
      work.then(() => { queue.answered += 1; }, () => { queue.answered += 1; });
      return { work };
    });
    // The next write's turn: when this one is done, or stuck, or gave up.
    const done = ran.then(({ handed, work }) => {
      if (!work) return handed;
      let timer;
      const stuck = new Promise((resolve) => { timer = setTimeout(() => resolve(null), stuckMs); });
      return Promise.race([work.catch(() => null), stuck]).finally(() => clearTimeout(timer));
    });
    queue.tail = done;
    done.then(() => {
      queue.waiting -= 1;
      if (!queue.waiting && queues.get(docId) === queue) queues.delete(docId);
    });

    return new Promise((resolve, reject) => {
      const wait = Math.max(0, giveUpAt - Date.now());
      const timer = setTimeout(() => {
        if (state !== 'waiting' || queue.answered === answeredWhenQueued) return;
        state = 'gave up';
        reject(notRun());
      }, wait);
      ran.then(({ work, error }) => {
        clearTimeout(timer);
        if (work) work.then(resolve, reject);
        else if (error) reject(error);
      });
    });
  };

  return { turn, size: () => queues.size };
}
