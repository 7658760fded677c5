// k6's sample metadata of one VU (metrics.TagsAndMeta's Metadata): one map of the `vu` and `iter`
// system tags, when options.systemTags enables them, and what the script sets through
// exec.vu.metrics.metadata. Every sample a VU emits carries the map as it stands (--out json writes
// it); nothing aggregates by it. The rows share one map until it changes, so a change replaces it.
import type { SampleBatcher } from './sample-batch.js';

export class SampleMetadata {
  #map: Readonly<Record<string, string>> = {};

  constructor(
    private readonly rows: SampleBatcher,
    private readonly enabledSystemTags: ReadonlySet<string> | undefined,
  ) {}

  get current(): Readonly<Record<string, string>> {
    return this.#map;
  }

  /** The scenario this VU was last activated for. */
  #scenario: string | undefined;

  /**
   * An iteration of `scenario`: the first of this VU's in it is k6's activation (once per VU and
   * scenario, arrival-rate executors included), which starts the map afresh, with `vu`.
   */
  enterScenario(vuId: number, scenario: string): void {
    if (scenario === this.#scenario) return;
    this.#scenario = scenario;
    this.#replace(this.enabledSystemTags?.has('vu') ? { vu: String(vuId) } : {});
  }

  /** Setup and teardown run on a VU k6 never activates: no `vu`, nothing a scenario set. */
  outsideScenarios(): void {
    this.#scenario = undefined;
    this.#replace({});
  }

  /** A run of one of the script's functions (an iteration, setup, teardown): its `iter`. */
  run(iteration: number): void {
    if (this.enabledSystemTags?.has('iter')) this.#replace({ ...this.#map, iter: String(iteration) });
  }

  set(key: string, value: string): void {
    this.#replace({ ...this.#map, [key]: value });
  }

  delete(key: string): void {
    if (!(key in this.#map)) return;
    const next = { ...this.#map };
    delete next[key];
    this.#replace(next);
  }

  #replace(map: Record<string, string>): void {
    this.#map = map;
    this.rows.metadata = Object.keys(map).length > 0 ? map : undefined;
  }
}
