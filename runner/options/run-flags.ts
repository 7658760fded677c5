// The flags of `loadlab run` as the run reads them (k6 run's names): parsed by cli/args.ts, given meaning
// by options.ts, read by the run's phases.

/** k6 v1's summary modes (flag and K6_SUMMARY_MODE). */
export const SUMMARY_MODES = ['compact', 'full', 'legacy', 'disabled'] as const;

export interface RunFlags {
  script: string;
  vus?: number;
  duration?: string;
  iterations?: number;
  stages: string[];
  env: Record<string, string>;
  tags: Record<string, string>;
  outs: string[];
  summaryExport?: string;
  summaryTrendStats?: string[];
  summaryMode?: (typeof SUMMARY_MODES)[number];
  summaryTimeUnit?: string;
  /** --dns in k6's text form (`ttl=1m,select=first,policy=any`), read by options/dns-option.ts. */
  dns?: string;
  /** Parsed only to be refused with exit 104 (options.ts): the runner is one process, never a segment. */
  executionSegment?: string;
  executionSegmentSequence?: string;
  quiet: boolean;
  /** -v/--verbose: debug lines (console.debug) are printed too. */
  verbose: boolean;
  noColor: boolean;
  noThresholds: boolean;
  /**
   * The k6 options set by their flags (--no-setup, --throw, --max-redirects, ...: OPTION_FLAGS in
   * cli/args.ts), by option name; they override K6_* and the script's options.
   */
  options: Record<string, boolean | number | string | string[]>;
  /** --include-system-env-vars (default true): __ENV holds the process's environment, not only -e. */
  includeSystemEnvVars?: boolean;
  /** --secret-source values in order (read by options/secret-sources.ts when the run starts, as k6 does). */
  secretSources: string[];
  /** What k6's flag parser prints for deprecated flags, one line each, before anything else. */
  deprecations: string[];
}
