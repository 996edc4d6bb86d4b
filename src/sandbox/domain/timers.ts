/**
 * The infrastructure's time, injected beside the business clock (domain/clock.ts): the wall-clock now and
 * the waits of the delivery worker (retries, attempt timeouts), the time sweep and the event service. The
 * sandbox runs on {@link realTimers}; a test can start it on {@link ManualTimers} and move that time itself,
 * so it waits on what happens instead of sleeping past an internal constant (docs/testing.md, "Timers").
 * The business clock (`SandboxClock`, moved by `paylink clock`) stays as it is.
 */

/** A pending wait, as {@link Timers.setTimeout} and {@link Timers.setInterval} hand it out. */
export interface TimerHandle {
  /** Lets the process exit while the wait is pending (Node's `unref`); returns the handle. */
  unref(): TimerHandle;
}

export interface Timers {
  /** Wall-clock milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle | undefined): void;
  /** Calls `fn` every `ms` milliseconds. */
  setInterval(fn: () => void, ms: number): TimerHandle;
  clearInterval(handle: TimerHandle | undefined): void;
}

/** Node's timers and `Date.now`. */
export const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout | undefined),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout | undefined),
};

interface ManualTimer extends TimerHandle {
  at: number;
  ms: number;
  every: number | undefined;
  fn: () => void;
  seq: number;
  cleared: boolean;
}

/**
 * Timers whose time moves only when a test says so: {@link advance} runs every wait that falls due, in
 * order of due time (and of creation for the same time), as real time would. `now` starts at `start`.
 */
export class ManualTimers implements Timers {
  private time: number;
  private seq = 0;
  private readonly pending = new Set<ManualTimer>();

  constructor(start = Date.now()) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    return this.add(fn, ms, undefined);
  }

  setInterval(fn: () => void, ms: number): TimerHandle {
    return this.add(fn, ms, Math.max(1, ms));
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    const timer = handle as ManualTimer | undefined;
    if (timer === undefined) return;
    timer.cleared = true;
    this.pending.delete(timer);
  }

  clearInterval(handle: TimerHandle | undefined): void {
    this.clearTimeout(handle);
  }

  /** Waits not yet run or cleared. */
  get size(): number {
    return this.pending.size;
  }

  /** How many pending waits were set for `ms` or longer (a long poll's, say), so a test can wait for one. */
  waitingAtLeast(ms: number): number {
    let count = 0;
    for (const timer of this.pending) if (timer.ms >= ms) count += 1;
    return count;
  }

  /** When the next wait falls due, if any. */
  nextAt(): number | undefined {
    let next: number | undefined;
    for (const timer of this.pending) if (next === undefined || timer.at < next) next = timer.at;
    return next;
  }

  /**
   * Moves time on by `ms`, running each wait as it falls due (a wait a callback sets within the span runs
   * too). Between waits, pending promise callbacks and I/O get a turn, as they would in real time.
   */
  async advance(ms: number): Promise<void> {
    const end = this.time + Math.max(0, ms);
    for (;;) {
      const next = this.due(end);
      if (next === undefined) break;
      this.time = Math.max(this.time, next.at);
      if (next.every !== undefined) next.at += next.every;
      else this.pending.delete(next);
      next.fn();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    this.time = end;
  }

  private due(end: number): ManualTimer | undefined {
    let first: ManualTimer | undefined;
    for (const timer of this.pending) {
      if (timer.at > end) continue;
      if (first === undefined || timer.at < first.at || (timer.at === first.at && timer.seq < first.seq)) first = timer;
    }
    return first;
  }

  private add(fn: () => void, ms: number, every: number | undefined): TimerHandle {
    const timer: ManualTimer = {
      at: this.time + Math.max(0, ms),
      ms,
      every,
      fn,
      seq: this.seq++,
      cleared: false,
      unref: () => timer,
    };
    this.pending.add(timer);
    return timer;
  }
}
