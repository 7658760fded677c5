// What constant- and ramping-arrival-rate share: k6's preAllocatedVUs/maxVUs rules, the VU column
// and the run loop that starts iterations on the executor's clock.
import type { ArrivalsConfig, ScenarioConfig, ScenarioDriver, ScenarioSnapshot } from './executor.js';
import { fixedInt } from './fixed-width.js';

/** k6's errors for the VU pool, in its order; maxVUs defaults to preAllocatedVUs. */
export function vuPoolErrors(s: ScenarioConfig, raw: Record<string, unknown>): string[] {
  const errors: string[] = [];
  if (raw.preAllocatedVUs === undefined) errors.push("the number of preAllocatedVUs isn't specified");
  else if (s.preAllocatedVUs < 0) errors.push("the number of preAllocatedVUs can't be negative");
  if (raw.maxVUs === undefined) s.maxVUs = Math.max(s.preAllocatedVUs, 0);
  else if (s.maxVUs < s.preAllocatedVUs) errors.push("maxVUs can't be less than preAllocatedVUs");
  return errors;
}

/** k6's error for an arrival-rate timeUnit, or undefined. */
export function timeUnitError(s: ScenarioConfig): string | undefined {
  return s.timeUnitMs > 0 ? undefined : 'the timeUnit must be more than 0';
}

/** "02/10 VUs": VUs in an iteration now over the VUs the pool holds, as wide as maxVUs. */
export function vuColumn(snap: ScenarioSnapshot): string {
  const c = snap.config;
  return `${fixedInt(snap.runningVus, c.maxVUs)}/${fixedInt(snap.allocatedVus, c.maxVUs)} VUs`;
}

/** The banner's pool: "maxVUs: 2-3", or one number when maxVUs is preAllocatedVUs (k6's GetDescription). */
export function maxVusFact(s: ScenarioConfig): string {
  return s.maxVUs > s.preAllocatedVUs
    ? `maxVUs: ${s.preAllocatedVUs}-${s.maxVUs}`
    : `maxVUs: ${s.preAllocatedVUs}`;
}

/**
 * k6's arrival-rate loop (lib/executor/constant_arrival_rate.go, ramping_arrival_rate.go): the
 * iterations `arrivalsBy` says are due start on free VUs; one due while no VU is free is dropped at
 * once, never delayed, and each drop asks for one more VU in the background (none while one is
 * initialising, none beyond maxVUs), which joins the free pool when ready. Initialising VUs one at
 * a time keeps worker start-ups from starving the VUs that are running iterations.
 */
export async function runArrivals(
  driver: ScenarioDriver,
  end: number,
  arrivalsBy: (s: ArrivalsConfig, elapsedMs: number) => number,
): Promise<void> {
  const c = driver.config;
  let started = 0;
  let unplanned = Math.max(0, c.maxVUs - driver.vus.length);
  let initialising: Promise<void> | undefined;
  let warned = false;
  const growOne = () => {
    unplanned -= 1;
    initialising = driver
      .growVu()
      .catch((error: unknown) =>
        driver.error(`Error while allocating unplanned VU: ${(error as Error).message}`),
      )
      .finally(() => (initialising = undefined));
  };
  const tick = () => {
    if (driver.stopping) return;
    const now = Date.now();
    const due = arrivalsBy(c, Math.min(now, end) - driver.startedAt);
    for (; started < due; started++) {
      const free = driver.vus.find((p) => !p.busy);
      if (free) {
        void driver.iterate(free);
        continue;
      }
      driver.dropped();
      if (unplanned === 0) {
        if (!warned) {
          warned = true;
          driver.warn(`Insufficient VUs, reached ${c.maxVUs} active VUs and cannot initialize more`);
        }
      } else if (!initialising) {
        growOne();
      }
    }
  };
  const ticker = setInterval(tick, 2);
  tick();
  await driver.untilEndOrStop(end);
  tick();
  clearInterval(ticker);
  await driver.gracefulEnd(driver.inFlight());
  // As k6 does before it returns: a VU still initialising finishes (and joins the idle pool).
  await initialising;
}
