// Objects a script made whose main-thread side waits for V8 to collect them (script cookie jars,
// reported by a FinalizationRegistry in modules/http): when this VU asks V8 for a full collection,
// and when its loop lets the event loop run so the registry's callbacks can report them.
import type { VuState } from './vu-state.js';

/**
 * V8 calls a FinalizationRegistry back only after a full (mark-compact) collection, which a VU's
 * small heap reached after tens of thousands of jar-making iterations, or not at all (a CI run held
 * all 60,000 jars of loop.e2e's test). So after this many such objects the VU asks for one itself:
 * a few ms on a VU's heap, a few µs per object, and only in scripts that make them.
 */
const COLLECT_AFTER = 1000;
/** How often a looping VU with objects awaiting collection lets its event loop run (a turn costs a few µs). */
const COLLECTION_TURN_MS = 1000;

let fullCollection: (() => void) | undefined;

/** At an iteration's end: a full collection when enough objects await one (COLLECT_AFTER). */
export function collectIfDue(vu: VuState): void {
  if (vu.madeSinceCollection < COLLECT_AFTER) return;
  vu.madeSinceCollection = 0;
  if (!fullCollection) {
    // gc() from a context made after the flag is set: the script's own global never gets one.
    process.getBuiltinModule('node:v8').setFlagsFromString('--expose-gc');
    fullCollection = process.getBuiltinModule('node:vm').runInNewContext('gc') as () => void;
  }
  fullCollection();
  vu.lastCollectionTurn = -Infinity; // the registry's callbacks run in the loop's next turn
}

/** A promise when the loop should let V8 report collected objects before its next iteration. */
export function eventLoopTurnDue(vu: VuState): Promise<void> | undefined {
  if (vu.awaitingCollection === 0 || vu.lastIterationEnd - vu.lastCollectionTurn < COLLECTION_TURN_MS)
    return undefined;
  vu.lastCollectionTurn = vu.lastIterationEnd;
  return new Promise((resolve) => setImmediate(resolve));
}
