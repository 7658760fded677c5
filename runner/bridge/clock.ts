// The wall clock of samples, the same on both threads (the main thread times HTTP hops with it).

/** Read once: the timeOrigin getter is slow enough to show in profiles (every sample takes a time). */
const TIME_ORIGIN = performance.timeOrigin;

/** Wall-clock ms with sub-ms precision, for sample times. */
export function nowMs(): number {
  return TIME_ORIGIN + performance.now();
}

/** The wall-clock ms of a performance.now() reading already taken (one clock call fewer). */
export function epochMs(perfNow: number): number {
  return TIME_ORIGIN + perfNow;
}
