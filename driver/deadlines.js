// The deadlines of a step's requests in flight. One timeout per step, so deadlines come in start
// order: one timer for the oldest replaces a timer per request (setTimeout per request cost more
// than the rest of the accounting together). The list is intrusive: adding allocates nothing.

export class DeadlineList {
  /**
   * `now()`: the meter's clock in whole nanoseconds; `expire(request)`: a request is past its
   * deadline, and must leave the list (settled, or moved to the cancelled by `cancelling`).
   */
  constructor(timeoutMs, now, expire) {
    this.timeoutMs = timeoutMs;
    this.now = now;
    this.expire = expire;
    this.head = null;
    this.tail = null;
    this.timer = null;
    // Past their deadline and asked to cancel: the engine still owes their end.
    this.cancelled = new Set();
    this.onTimer = () => this.expireDue(); // the one timer callback, made once per step
  }

  add(request) {
    request.listed = true;
    request.prev = this.tail;
    if (this.tail) this.tail.next = request;
    else this.head = request;
    this.tail = request;
    this.timer ??= setTimeout(this.onTimer, this.timeoutMs);
  }

  unlink(request) {
    if (request.prev) request.prev.next = request.next;
    else this.head = request.next;
    if (request.next) request.next.prev = request.prev;
    else this.tail = request.prev;
    request.prev = null;
    request.next = null;
    request.listed = false;
  }

  settled(request) {
    if (request.listed) this.unlink(request);
    else this.cancelled.delete(request);
  }

  /** A request past its deadline that the engine was asked to end: no longer timed, still owed. */
  cancelling(request) {
    this.unlink(request);
    this.cancelled.add(request);
  }

  expireDue() {
    this.timer = null;
    const now = this.now();
    while (this.head !== null && this.head.deadlineNs <= now) this.expire(this.head);
    if (this.head === null) return;
    this.timer = setTimeout(this.onTimer, Math.max(1, Math.ceil((this.head.deadlineNs - now) / 1e6)));
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = null;
  }

  /** Every request still unsettled: the list, oldest first, then those asked to cancel. */
  unsettled() {
    const list = [];
    for (let request = this.head; request !== null; request = request.next) list.push(request);
    return list.concat([...this.cancelled]);
  }
}
