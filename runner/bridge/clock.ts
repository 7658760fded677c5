// The wall clock of samples, the same on both threads (the main thread times HTTP hops with it).

/**
 * Read once, on first use: the timeOrigin getter is slow enough to show in profiles (every sample
 * takes a time), and a VU isolate's code is evaluated (its snapshot) before its clock is there.
 */
let timeOrigin: number | undefined;

/** Wall-clock ms with sub-ms precision, for sample times. */
export function nowMs(): number {
  return (timeOrigin ??= performance.timeOrigin) + performance.now();
}

/** The wall-clock ms of a performance.now() reading already taken (one clock call fewer). */
export function epochMs(perfNow: number): number {
  return (timeOrigin ??= performance.timeOrigin) + perfNow;
}
