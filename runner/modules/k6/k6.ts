// The `k6` module: check, group, sleep, fail, randomSeed (internal/js/modules/k6/k6.go semantics).
import { measuredMs } from '@loadlab/k6-format/duration';
import { epochMs, nowMs, type VuRuntime } from '../api/runtime.js';
import { goError } from '../api/go-error.js';

type CheckSet = Record<string, unknown>;

/** A seeded PRNG (mulberry32) so randomSeed(n) makes Math.random repeatable per VU. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function isAsyncFunction(fn: unknown): boolean {
  return typeof fn === 'function' && fn.constructor?.name === 'AsyncFunction';
}

export function createK6Module(rt: VuRuntime): Record<string, unknown> {
  /**
   * A check's tag set while the base tags stay the same object (rt.baseTags()): the same object for
   * every sample of that check, so a batch of them clones it once.
   */
  const checkTagSets = new Map<string, Record<string, string>>();
  let checkTagsBase: Record<string, string> | undefined;
  function checkTags(name: string): Record<string, string> {
    const base = rt.baseTags();
    if (base !== checkTagsBase) {
      checkTagSets.clear();
      checkTagsBase = base;
    }
    let tags = checkTagSets.get(name);
    if (tags === undefined) {
      tags = { ...base, check: name };
      checkTagSets.set(name, tags);
    }
    return tags;
  }

  function check(value: unknown, sets: CheckSet, tags?: Record<string, unknown>): boolean {
    if (rt.phase === 'init') throw new Error('check() is not allowed in the init context');
    rt.checkInterrupted();
    // One time for every sample of the call, taken before its conditions run, as k6's Check does
    // (it also saves a clock read per condition in a cold VU isolate).
    const time = nowMs();
    let all = true;
    // Made only when the call has tags: most checks have none.
    let extra: Record<string, string> | undefined;
    if (tags && typeof tags === 'object') {
      for (const [k, v] of Object.entries(tags)) (extra ??= {})[k] = String(v);
    }
    const checks = sets ?? {};
    // Keys, then each value: the same order and reads as Object.entries, without a pair array each.
    const names = Object.keys(checks);
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const cond = checks[name];
      if (name.includes('::')) throw new Error("group and check names may not contain '::'");
      if (isAsyncFunction(cond)) throw new Error('check() does not support async functions');
      let ok: boolean;
      let thrown: unknown;
      let didThrow = false;
      try {
        ok = Boolean(typeof cond === 'function' ? (cond as (v: unknown) => unknown)(value) : cond);
      } catch (err) {
        ok = false;
        didThrow = true;
        thrown = err;
      }
      // record(), not emit(): no Sample object per condition.
      const sampleTags = extra ? { ...rt.currentTags(), check: name, ...extra } : checkTags(name);
      rt.record('checks', 'rate', 'default', ok ? 1 : 0, sampleTags, time);
      if (didThrow) throw thrown;
      if (!ok) all = false;
    }
    return all;
  }

  function group<T>(name: string, fn: () => T): T {
    if (rt.phase === 'init') throw new Error('group() is not allowed in the init context');
    if (typeof name !== 'string' || name.includes('::')) {
      throw new Error("group and check names may not contain '::'");
    }
    if (typeof fn !== 'function') throw new Error('group() requires a callback as a second argument');
    if (isAsyncFunction(fn)) throw new Error('group() does not support async functions as arguments');
    const parent = rt.groupPath;
    const path = `${parent}::${name}`;
    rt.groupPath = path;
    const start = performance.now();
    try {
      return fn();
    } finally {
      // One clock read for the duration and the sample's time, as k6 takes one time.Now() for both.
      const end = performance.now();
      const tags = rt.currentTags();
      rt.groupPath = parent;
      rt.emit({
        metric: 'group_duration',
        type: 'trend',
        contains: 'time',
        value: measuredMs(end - start),
        tags,
        time: epochMs(end),
      });
    }
  }

  function sleep(seconds: unknown): void {
    const s = Number(seconds);
    if (!Number.isFinite(s) || s <= 0) {
      rt.checkInterrupted();
      return;
    }
    rt.sleepMs(s * 1000);
    rt.checkInterrupted();
  }

  function fail(msg?: unknown): never {
    // k6's stack names the Go function above the script's frames (runner/script/errors.ts prints it).
    throw Object.defineProperty(goError(msg === undefined ? '' : String(msg)), 'goFrame', {
      value: 'go.k6.io/k6/internal/js/modules/k6.(*K6).Fail-fm',
    });
  }

  function randomSeed(seed: unknown): void {
    const n = Number(seed);
    if (!Number.isFinite(n)) throw new Error('randomSeed() requires a number');
    Math.random = seededRandom(n);
  }

  const mod = { check, group, sleep, fail, randomSeed };
  return mod;
}
