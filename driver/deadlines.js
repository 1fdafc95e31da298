// The deadlines of a step's requests in flight. Every request of a step has the same timeout, so
// deadlines come in the order requests start: the requests in flight form a list, oldest first,
// and one timer armed for the oldest deadline replaces a timer per request (a setTimeout and
// clearTimeout per request cost more than the rest of the accounting together, and made
// garbage). The list is intrusive: each request carries its own links (prev, next, listed,
// deadlineNs), so adding and removing one allocates nothing.

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

  /** A request has started: its deadline goes last, and the timer runs if none does. */
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

  /** A request has ended: it leaves the list, or the cancelled. */
  settled(request) {
    if (request.listed) this.unlink(request);
    else this.cancelled.delete(request);
  }

  /** A request past its deadline that the engine was asked to end: no longer timed, still owed. */
  cancelling(request) {
    this.unlink(request);
    this.cancelled.add(request);
  }

  /** Expires every request whose deadline has passed, then arms the timer for the next one. */
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
