// The queue in front of the password derivations (scrypt, about 33 ms of CPU each). A flood of
// wrong passwords must not delay everyone else's first login, nor grow without bound:
// - at most `parallel` derivations run at once (libuv's pool, leaving a core to the event loop);
// - waiting checks are served round-robin by username, so a flood on one name puts at most one
//   of its checks ahead of another user's;
// - each username and each client address may hold only a few checks (waiting or running); past
//   that the request is refused at once with 429, and when the whole queue is full with 503, both
//   with Retry-After (as nginx's limit_req refuses rather than queue past its burst);
// - a check whose request has gone (client closed) leaves the queue without being derived;
// - identical checks (same username, same password) in flight are run once and shared, so fifty
//   virtual users logging in as one user cost one derivation.

export interface CheckQueueLimits {
  /** Derivations at once. */
  parallel: number;
  /** Checks waiting (not running) in all; past it: 503. */
  maxWaiting: number;
  /** Checks one username may hold, waiting or running; past it: 429. */
  perUser: number;
  /** Checks one client address may hold, waiting or running; past it: 429. */
  perClient: number;
}

/** Why a check was not queued: the status it answers. */
export class CheckRefused extends Error {
  constructor(
    readonly status: 429 | 503,
    message: string,
  ) {
    super(message);
  }
}

/** The check's request has gone: nothing was derived, nobody is waiting for the answer. */
export class CheckAbandoned extends Error {
  constructor() {
    super('the client went away before its password was checked');
  }
}

export interface CheckRequest {
  user: string;
  client: string;
  /** Same key, same work: joined to a check already in flight. */
  key: string;
  /** True once nobody waits for the answer any more (checked before the work starts). */
  gone(): boolean;
  /** Called when the request goes, so the check leaves the queue at once. */
  onGone(listener: () => void): void;
}

interface Job {
  user: string;
  client: string;
  key: string;
  waiters: Set<CheckRequest>;
  work: () => Promise<unknown>;
  settle: { resolve: (value: unknown) => void; reject: (error: unknown) => void };
  done: Promise<unknown>;
  started: boolean;
  /** Abandoned: counted out once, however many waiters leave. */
  ended: boolean;
}

export interface CheckQueue {
  /** Runs `work` for `request` in its turn; rejects with CheckRefused or CheckAbandoned. Requests
   * with the same key share one run, so the key must name the work and everything it reads. */
  run<T>(request: CheckRequest, work: () => Promise<T>): Promise<T>;
  /** Counts for tests and /metrics. */
  stats(): { running: number; waiting: number; derived: number; abandoned: number; refused: number };
}

export function createCheckQueue(limits: CheckQueueLimits): CheckQueue {
  /** Waiting jobs per username, in arrival order. */
  const waitingByUser = new Map<string, Job[]>();
  const inFlight = new Map<string, Job>();
  const heldByUser = new Map<string, number>();
  const heldByClient = new Map<string, number>();
  /** When each user holding checks was last served: the round-robin turn. */
  const servedAt = new Map<string, number>();
  let served = 0;
  let running = 0;
  let waiting = 0;
  let derived = 0;
  let abandoned = 0;
  let refused = 0;

  const add = (counts: Map<string, number>, key: string, delta: number) => {
    const n = (counts.get(key) ?? 0) + delta;
    if (n > 0) counts.set(key, n);
    else counts.delete(key);
  };
  const release = (job: Job) => {
    add(heldByUser, job.user, -1);
    if (!heldByUser.has(job.user)) servedAt.delete(job.user);
    add(heldByClient, job.client, -1);
    if (inFlight.get(job.key) === job) inFlight.delete(job.key);
  };
  const unqueue = (job: Job) => {
    const queue = waitingByUser.get(job.user);
    const at = queue?.indexOf(job) ?? -1;
    if (!queue || at < 0) return;
    queue.splice(at, 1);
    if (queue.length === 0) waitingByUser.delete(job.user);
    waiting -= 1;
  };
  const abandon = (job: Job) => {
    if (job.ended) return;
    job.ended = true;
    abandoned += 1;
    release(job);
    job.settle.reject(new CheckAbandoned());
  };
  const live = (job: Job) => {
    for (const w of job.waiters) if (w.gone()) job.waiters.delete(w);
    return job.waiters.size > 0;
  };

  /** The waiting user served longest ago (never: first), in arrival order among equals. */
  const nextUser = (): [string, Job[]] => {
    let best: [string, Job[]] | undefined;
    let bestAt = Infinity;
    for (const entry of waitingByUser) {
      const at = servedAt.get(entry[0]) ?? -1;
      if (at < bestAt) [best, bestAt] = [entry, at];
    }
    return best!;
  };
  /** Starts waiting jobs while a slot is free, one user after the other. */
  const pump = () => {
    while (running < limits.parallel && waitingByUser.size > 0) {
      const [user, queue] = nextUser();
      const job = queue.shift()!;
      waiting -= 1;
      if (queue.length === 0) waitingByUser.delete(user);
      servedAt.set(user, ++served);
      if (!live(job)) {
        abandon(job);
        continue;
      }
      job.started = true;
      running += 1;
      derived += 1;
      job
        .work()
        .then(job.settle.resolve, job.settle.reject)
        .finally(() => {
          running -= 1;
          release(job);
          pump();
        });
    }
  };

  return {
    stats: () => ({ running, waiting, derived, abandoned, refused }),
    run<T>(request: CheckRequest, work: () => Promise<T>): Promise<T> {
      const joined = inFlight.get(request.key);
      if (joined) {
        joined.waiters.add(request);
        return joined.done as Promise<T>;
      }
      const refuse = (status: 429 | 503, why: string) => {
        refused += 1;
        return Promise.reject(new CheckRefused(status, why));
      };
      if ((heldByUser.get(request.user) ?? 0) >= limits.perUser)
        return refuse(429, 'Too many password checks in progress for this user');
      if ((heldByClient.get(request.client) ?? 0) >= limits.perClient)
        return refuse(429, 'Too many password checks in progress from this client');
      if (waiting >= limits.maxWaiting) return refuse(503, 'Too many password checks waiting');
      let settle!: Job['settle'];
      const done = new Promise<unknown>((resolve, reject) => (settle = { resolve, reject }));
      const job: Job = {
        user: request.user,
        client: request.client,
        key: request.key,
        waiters: new Set([request]),
        work,
        settle,
        done,
        started: false,
        ended: false,
      };
      // Every waiter that leaves is checked; the last one out takes the job out of the queue.
      const leave = () => {
        if (job.started || live(job)) return;
        unqueue(job);
        abandon(job);
      };
      request.onGone(leave);
      const join = job.waiters.add.bind(job.waiters);
      job.waiters.add = (w: CheckRequest) => {
        w.onGone(leave);
        return join(w);
      };
      done.catch(() => {}); // a waiter that left is not an unhandled rejection
      inFlight.set(job.key, job);
      add(heldByUser, job.user, 1);
      add(heldByClient, job.client, 1);
      const queue = waitingByUser.get(job.user);
      if (queue) queue.push(job);
      else waitingByUser.set(job.user, [job]);
      waiting += 1;
      pump();
      return done as Promise<T>;
    },
  };
}
