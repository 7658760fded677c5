// The run's VUs: each an isolate or a worker with the same script, environment, hooks and shared memory, kept in
// one list so the run closes every one of them, whatever phase it ends in.
import type { RunFlags } from '../options/run-flags.js';
import { includesSystemEnv } from '../options/options.js';
import { createVu, INSTANCE_STATS_BYTES, type Vu, type VuConfig, type VuHooks } from '../host/hosted-vu.js';
import { testStartIn } from '../bridge/protocol.js';
import type { StartVuCode } from '../host/vu-code-host.js';
import type { MetricsEngine } from '../metrics/index.js';
import { DEFAULT_DNS, dnsConfigOf, runResolver } from '../host/dns-resolver.js';
import { useHostsOption } from '../host/hosts-option.js';
import { useBlocklistOptions } from '../host/blocklists.js';
import { K6_IDLE_LIMITS } from '../host/go-connection-pool.js';
import { dnsTtlMs } from '../options/dns-ttl.js';
import type { SecretRedactor } from '../options/secret-sources.js';
import type { Output, Sample } from '../contracts.js';
import type { RunLog } from './run-log.js';
import type { TestScript } from './open-script.js';

/** Where the VUs' samples go: the metrics engine and the outputs, once each is there. */
export class SampleRoute {
  engine: MetricsEngine | undefined;
  outputs: Output[] = [];

  add(samples: Sample[]): void {
    this.engine?.add(samples);
    for (const o of this.outputs) o.addSamples(samples);
  }
}

/** What every VU reports to the run: samples, log lines and the secrets to redact. */
export function runHooks(
  flags: RunFlags,
  log: RunLog,
  redactor: SecretRedactor,
  route: SampleRoute,
): VuHooks {
  return {
    onSamples: (samples) => route.add(samples),
    onLog(level, message, fields) {
      // k6 prints debug lines (console.debug) only with -v.
      if (level === 'debug' && !flags.verbose) return;
      // Lines without fields of their own (k6 module warnings) keep the console's source tag.
      log(level, message, fields ?? { source: 'console' });
    },
    onSecret: (value) => redactor.add(value),
  };
}

/**
 * k6 run exposes the system environment in __ENV (unless --include-system-env-vars=false or
 * K6_INCLUDE_SYSTEM_ENV_VARS=false); -e values win.
 */
export function scriptEnv(env: NodeJS.ProcessEnv, flags: RunFlags): Record<string, string> {
  const result: Record<string, string> = {};
  if (includesSystemEnv(env, flags))
    for (const [k, v] of Object.entries(env)) if (v !== undefined) result[k] = v;
  return Object.assign(result, flags.env);
}

export class VuFactory {
  /** exec.instance's numbers, shared by every VU (VU 0, which runs setup and teardown, is not counted). */
  readonly instanceStats = new Int32Array(new SharedArrayBuffer(INSTANCE_STATS_BYTES));
  /** HTTP-affecting options reach the VUs once the script's options are known (VU 0 reads them). */
  private readonly httpOptions: Pick<
    VuConfig,
    'systemTags' | 'userAgent' | 'insecureSkipTLSVerify' | 'noConnectionReuse' | 'idleLimits'
  > = {};
  /** k6/data's SharedArrays: the first VU to make one shares it with every VU started after it. */
  private readonly sharedArrays = new Map<string, SharedArrayBuffer>();
  private readonly made: Vu[] = [];

  constructor(
    private readonly script: TestScript,
    private readonly env: Record<string, string>,
    private readonly hooks: VuHooks,
    /** What runs each VU's code (host/vu-host-choice.ts). */
    private readonly startCode: StartVuCode,
  ) {}

  /** A new VU (not initialised yet) with these run tags. */
  make(vuId: number, runTags: Record<string, string>): Vu {
    const vu = createVu(
      {
        scriptPath: this.script.scriptPath,
        bundle: this.script.bundle,
        vuId,
        env: this.env,
        runTags,
        ...this.httpOptions,
        instanceStats: this.instanceStats.buffer as SharedArrayBuffer,
        secretSources: this.script.secretSources,
        sharedArrays: this.sharedArrays,
        startCode: this.startCode,
      },
      this.hooks,
    );
    this.made.push(vu);
    return vu;
  }

  /** The test options every VU made from now on gets (VU 0 made before they were known). */
  useOptions(testOptions: Record<string, unknown>): void {
    if (Array.isArray(testOptions.systemTags))
      this.httpOptions.systemTags = testOptions.systemTags.map(String);
    if (typeof testOptions.userAgent === 'string') this.httpOptions.userAgent = testOptions.userAgent;
    if (testOptions.insecureSkipTLSVerify === true) this.httpOptions.insecureSkipTLSVerify = true;
    if (testOptions.noConnectionReuse === true) this.httpOptions.noConnectionReuse = true;
    // k6 hands batch and batchPerHost to Go's transport as its idle-connection limits.
    this.httpOptions.idleLimits = {
      maxIdle: typeof testOptions.batch === 'number' ? testOptions.batch : K6_IDLE_LIMITS.maxIdle,
      maxIdlePerHost:
        typeof testOptions.batchPerHost === 'number'
          ? testOptions.batchPerHost
          : K6_IDLE_LIMITS.maxIdlePerHost,
    };
    // One resolver for the run, as k6's Runner has (a bad ttl was refused with the options).
    runResolver.configure(dnsConfigOf(testOptions.dns, (t) => dnsTtlMs(t) ?? DEFAULT_DNS.ttlMs));
    // And one hosts table (a bad one was refused with the options).
    useHostsOption(testOptions.hosts);
    useBlocklistOptions(testOptions.blockHostnames, testOptions.blacklistIPs);
  }

  /** When the test started, in ms since the Unix epoch: every VU's exec.instance counts from it. */
  markTestStart(epochMs: number): void {
    testStartIn(this.instanceStats.buffer)[0] = epochMs;
  }

  closeAll(): Promise<unknown> {
    return Promise.allSettled(this.made.map((v) => v.close()));
  }

  /**
   * Ends the scenarios' VUs (all but VU 0) without waiting: their threads end while VU 0 runs
   * teardown and handleSummary, and closeAll() waits for the same ends (a VU's close() is one
   * promise). Ending 124 threads took 0.3-0.5 s of a run's end on this host.
   */
  releaseScenarioVus(): void {
    void Promise.allSettled(this.made.filter((v) => v.id !== 0).map((v) => v.close()));
  }
}
