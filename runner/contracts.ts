// Contracts between the runner's parts: the execution core (CLI, VUs, executors, k6 modules),
// the metrics engine (sinks, thresholds, summary) and the outputs (NDJSON, InfluxDB, live dashboard).
// Every part speaks k6's own vocabulary so reports never need to know which engine ran.

import type { Sample, ThresholdStates } from '@loadlab/k6-format/samples';

// k6's sample vocabulary lives in k6-format; the runner's parts name it from here too.
export type { MetricInfo, MetricType, Sample, ThresholdStates, ValueType } from '@loadlab/k6-format/samples';

/** Facts an output may use when it starts: script, options, where to write. */
export interface OutputContext {
  scriptPath: string;
  /** The final, merged test options (k6 `options` after CLI and env overrides). */
  options: Record<string, unknown>;
  /** The `--out` argument after `=`, e.g. `results/points.ndjson` or `http://127.0.0.1:8086/k6`. */
  argument: string;
  env: Record<string, string | undefined>;
  /** Where an output reports a problem (a store that is down) without stopping the run. */
  warn(message: string): void;
  /** A line with the output's own fields, as k6's output loggers write them (else `warn`'s line). */
  log?(level: 'warn' | 'error', message: string, fields: Record<string, string>): void;
}

/** A live consumer of samples. Must never throw into the run or block it. */
export interface Output {
  readonly description: string;
  start(): Promise<void>;
  /** Called from the main thread with batches of samples, in emission order. */
  addSamples(samples: readonly Sample[]): void;
  /** Flushes what is buffered; called once after the last sample. */
  stop(): Promise<void>;
}

/** Outputs that also want threshold verdicts as they change (the live dashboard). */
export interface ThresholdAwareOutput extends Output {
  setThresholds(states: ThresholdStates): void;
}

/**
 * What a k6 module implementation running inside a VU worker may use (k6/browser among them):
 * emitting samples, the tags currently in force, and the VU's identity.
 */
export interface VuModuleEnv {
  vuId: number;
  env: Record<string, string | undefined>;
  /** Tags every sample of this VU carries right now: scenario, group, user and `--tag` tags. */
  currentTags(): Record<string, string>;
  emit(samples: readonly Sample[]): void;
}
