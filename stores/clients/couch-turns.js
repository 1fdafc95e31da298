// One write at a time to each document from this process. Racing writers of one key lose all but one
// race a round to revision conflicts, each a request the server serves all the same: on the embedded
// stand-in 200 writers of one key spent their whole deadline so (docs/stores.md). Queued, each write
// goes over the revision the one before made, handed on, with no read.

// turn(docId, options, write) runs write(handed) once the writes of docId queued before it are done;
// handed: { rev } as the last left the document, or null when unknown. giveUpAt: a write whose turn has
// not come by then never runs; stuckMs: a write under way longer stops holding the queue.
export function documentQueues() {
  const queues = new Map(); // docId -> { tail: Promise<handed>, waiting, answered }

  const turn = (docId, { giveUpAt, stuckMs, notRun }, write) => {
    let queue = queues.get(docId);
    if (!queue) queues.set(docId, (queue = { tail: Promise.resolve(null), waiting: 0, answered: 0 }));
    queue.waiting += 1;
    const answeredWhenQueued = queue.answered;
    let state = 'waiting'; // then 'running' or 'gave up'

    // Busy (writes of docId were answered meanwhile): the key's other writers had its time. Else the
    // server was silent, and the operation deadline has answered for this write.
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
