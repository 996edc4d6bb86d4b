/**
 * Keeps V8's young generation at one size in the `paylink sandbox` process (see {@link keepYoungGenerationSize}).
 */

/** V8's new space as `getHeapSpaceStatistics` reports it (both semi-spaces) right after the sandbox starts. */
export const YOUNG_GENERATION_BYTES = 8 * 1024 * 1024;

/**
 * How often the size is checked. V8 may double the young generation more than once between two checks, and
 * each check costs a few microseconds; ten a second is a compromise.
 */
export const CHECK_MS = 100;

/**
 * node:v8, loaded when first used: about 2 ms of a start (with its heap-statistics, serializer and profiler
 * modules), which the sandbox's first answer does not need (see {@link keepYoungGenerationSize}).
 */
const v8 = () => process.getBuiltinModule('node:v8');

/** What {@link keepYoungGenerationSize} reads and sets: V8 itself, or a stand-in in tests. */
export interface YoungGenerationControl {
  /** Current size of the new space, in bytes. */
  size(): number;
  /** Sets V8's `--semi-space-growth-factor` (2 lets the new space double after a scavenge, 1 stops it). */
  setGrowthFactor(factor: 1 | 2): void;
}

export const v8YoungGeneration: YoungGenerationControl = {
  // A V8 without a space of that name reads as full: growth stays stopped, as with the plain flag.
  size: () =>
    v8()
      .getHeapSpaceStatistics()
      .find((space) => space.space_name === 'new_space')?.space_size ?? Number.POSITIVE_INFINITY,
  setGrowthFactor: (factor) => v8().setFlagsFromString(`--semi-space-growth-factor=${factor}`),
};

/**
 * Holds V8's young generation at `bytes`: lets it grow back while it is smaller, stops it growing past.
 * Returns a function that stops the checks.
 *
 * Left alone, V8 grows the young generation under load to 32 MB here, which cost about 25 MB of RSS, and
 * its largest size can only be set by a flag given before start-up. Stopping growth for good
 * (`--semi-space-growth-factor=1`, what the sandbox did before) was not enough: a full collection while the
 * sandbox is idle shrinks the young generation to 2 MB, and it then never grew back. After a burst of GETs
 * and a pause, POSTs paid about twice the GC time (measured: 2,540 scavenges instead of 730 in 5 s, and 52
 * instead of 45 µs of server CPU per POST); that was the bench's POST run, which follows the GET runs. So
 * the growth factor is switched instead, checked ten times a second: 2 while the young generation is
 * smaller than `bytes`, 1 once it is there. It can overshoot by a doubling between two checks (8 MB more
 * RSS). One bench run of twelve, with checks every 250 ms, ended at 96 MB instead of 86-89 MB, which would
 * fit that; the cause was not confirmed.
 */
export function keepYoungGenerationSize(
  bytes: number,
  control: YoungGenerationControl = v8YoungGeneration,
  checkMs = CHECK_MS,
  /** Other tuning that waits for the same moment (the first check), done then, once, on the same timer. */
  atFirstCheck?: () => void,
): () => void {
  let growing: boolean | undefined;
  let first = atFirstCheck;
  const check = (): void => {
    if (first !== undefined) {
      first();
      first = undefined;
    }
    const grow = control.size() < bytes;
    if (grow === growing) return;
    growing = grow;
    control.setGrowthFactor(grow ? 2 : 1);
  };
  // The first check one interval after the start, not at it: V8 starts with a young generation far below
  // any size held here and lets it grow (its growth factor is 2 unless set), so a check at the start would
  // change nothing and only load node:v8 on the way to the sandbox's first answer.
  const timer = setInterval(check, checkMs);
  timer.unref();
  return () => clearInterval(timer);
}
