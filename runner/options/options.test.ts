import assert from 'node:assert/strict';
import { parseRunArgs, UsageError } from '../cli/args.js';
import {
  consolidate,
  includesSystemEnv,
  OptionsError,
  OptionsLoadError,
  runtimeEnvError,
  scenarioMaxVus,
} from './options.js';

const flags = (...argv: string[]) => parseRunArgs(['script.js', ...argv]);

describe('runner options', () => {
  it('parses k6 run flags, repeated ones included', () => {
    const f = flags(
      '-u',
      '3',
      '--duration=10s',
      '-e',
      'A=1',
      '--env',
      'B=x=y',
      '--tag',
      't=v',
      '-o',
      'json=a.ndjson',
      '--out',
      'influxdb=http://h/db',
      '-q',
      '--no-color',
      '--summary-trend-stats',
      'avg,p(99)',
    );
    assert.deepEqual(
      [f.vus, f.duration, f.env, f.tags, f.outs, f.quiet, f.noColor, f.summaryTrendStats],
      [
        3,
        '10s',
        { A: '1', B: 'x=y' },
        { t: 'v' },
        ['json=a.ndjson', 'influxdb=http://h/db'],
        true,
        true,
        ['avg', 'p(99)'],
      ],
    );
    assert.equal(flags('--no-summary').summaryMode, 'disabled');
    assert.deepEqual(flags('--no-summary').deprecations, [
      'Flag --no-summary has been deprecated, use --summary-mode=disabled instead',
    ]);
    assert.deepEqual(flags('--summary-mode=disabled').deprecations, []);
  });

  it("--tag replaces the script's options.tags as a whole, as k6 does (seen on real k6 v1.3)", () => {
    const script = { iterations: 1, tags: { run_tag: 'y', shared: 'script' } };
    assert.deepEqual(consolidate(script, {}, flags()).runTags, { run_tag: 'y', shared: 'script' });
    assert.deepEqual(consolidate(script, {}, flags('--tag', 'shared=cli')).runTags, { shared: 'cli' });
  });

  it("refuses summary trend stats and a summary mode that k6 refuses, with k6's words", () => {
    const script = { vus: 1, iterations: 1 };
    const stats =
      (...s: string[]) =>
      () =>
        consolidate(script, {}, flags('--summary-trend-stats', s.join(',')));
    assert.throws(stats('avg', 'p(abc)'), {
      name: 'Error',
      message: "invalid percentile trend stat value 'p(abc)', provide a number between 0 and 100",
    });
    assert.throws(stats('p(101)'), /invalid percentile trend stat value 'p\(101\)'/);
    assert.throws(stats('mean'), { message: "invalid trend stat 'mean', unknown format" });
    assert.throws(
      () => consolidate({ ...script, summaryTrendStats: ['p95'] }, {}, flags()),
      (e: Error) => e instanceof OptionsError && e.message === "invalid trend stat 'p95', unknown format",
    );
    assert.deepEqual(
      consolidate(script, {}, flags('--summary-trend-stats', 'avg,min,med,max,count,p(0),p(99.9),p(100)'))
        .summaryTrendStats,
      ['avg', 'min', 'med', 'max', 'count', 'p(0)', 'p(99.9)', 'p(100)'],
    );
    assert.throws(() => consolidate(script, { K6_SUMMARY_MODE: 'verbose' }, flags()), {
      message: 'invalid summary mode',
    });
    // The flag wins and the environment is not read, as in k6.
    assert.equal(
      consolidate(script, { K6_SUMMARY_MODE: 'verbose' }, flags('--summary-mode', 'full')).summaryMode,
      'full',
    );
  });

  it('refuses bad flags in one line', () => {
    assert.throws(() => parseRunArgs([]), UsageError);
    assert.throws(() => flags('--vus', 'many'), /invalid argument "many"/);
    assert.throws(() => flags('--bogus'), /unknown flag: --bogus/);
    assert.throws(() => flags('-e', 'novalue'), /KEY=VALUE/);
    assert.throws(() => flags('--summary-mode', 'pretty'), UsageError);
  });

  it('--no-setup and --no-teardown: the flag (=false too) over K6_NO_* (true/false only) over the script', () => {
    const c = (script: Record<string, unknown>, env: Record<string, string>, ...argv: string[]) => {
      const config = consolidate(script, env, flags(...argv));
      return [config.noSetup, config.noTeardown, config.options.noSetup, config.options.noTeardown];
    };
    assert.deepEqual(c({}, {}), [false, false, undefined, undefined]);
    assert.deepEqual(c({ noSetup: true, noTeardown: true }, {}), [true, true, true, true]);
    assert.deepEqual(c({}, {}, '--no-setup', '--no-teardown'), [true, true, true, true]);
    assert.deepEqual(c({ noSetup: true }, { K6_NO_SETUP: 'false' }), [false, false, false, undefined]);
    assert.deepEqual(c({}, { K6_NO_SETUP: 'true' }, '--no-setup=false'), [false, false, false, undefined]);
    assert.deepEqual(c({}, { K6_NO_TEARDOWN: 'null' }), [false, false, undefined, undefined]);
    assert.throws(() => c({}, { K6_NO_SETUP: '1' }), {
      message:
        "envconfig.Process: assigning K6_NO_SETUP to NoSetup: converting '1' to type null.Bool. details: invalid input:1",
    });
    assert.throws(() => flags('--no-teardown=yes'), /invalid argument "yes" for "--no-teardown" flag/);
  });

  it('minIterationDuration: the flag (Go units only) over K6_* over the script (bare numbers ms), shown as Go prints it', () => {
    const shown = (script: Record<string, unknown>, env: Record<string, string>, ...argv: string[]) =>
      consolidate(script, env, flags(...argv)).options.minIterationDuration;
    assert.equal(shown({}, {}), undefined);
    assert.equal(shown({ minIterationDuration: 1500 }, {}), '1.5s');
    assert.equal(shown({ minIterationDuration: '1500' }, {}), '1.5s');
    assert.equal(shown({ minIterationDuration: '-1s' }, {}), '-1s');
    assert.equal(shown({ minIterationDuration: '1d' }, {}), '24h0m0s');
    assert.equal(shown({ minIterationDuration: '1s' }, { K6_MIN_ITERATION_DURATION: '3000' }), '3s');
    assert.equal(shown({}, { K6_MIN_ITERATION_DURATION: '3000' }, '--min-iteration-duration=250ms'), '250ms');
    assert.throws(() => flags('--blacklist-ip', '10.0.0.0/8,nope'), {
      message: "error parsing blacklist-ip 'nope': invalid CIDR address: nope",
    });
    assert.throws(() => flags('--block-hostnames', 'a b'), { message: "invalid hostname pattern 'a b'" });
    assert.deepEqual(
      flags('--block-hostnames', 'a.test,b.test', '--block-hostnames=c.test').options.blockHostnames,
      ['a.test', 'b.test', 'c.test'],
    );
    assert.throws(() => flags('--min-iteration-duration', '3000'), {
      message:
        'invalid argument "3000" for "--min-iteration-duration" flag: time: missing unit in duration "3000"',
    });
    assert.throws(() => shown({}, { K6_MIN_ITERATION_DURATION: 'abc' }), {
      message:
        'envconfig.Process: assigning K6_MIN_ITERATION_DURATION to MinIterationDuration: converting \'abc\' to type types.NullDuration. details: time: invalid duration "abc"',
    });
    // The script's value is decoded with the script: refused even where K6_* would replace it.
    assert.throws(() => shown({ minIterationDuration: 'abc' }, { K6_MIN_ITERATION_DURATION: '1s' }), {
      message: 'time: invalid duration "abc"',
    });
  });

  it('warns of each k6 option the runner ignores, when the script or K6_* asks for it', () => {
    const warned = (script: Record<string, unknown>, env: Record<string, string> = {}) =>
      consolidate(script, env, flags()).warnings.map((w) => /the (\w+) option/.exec(w)?.[1]);
    assert.deepEqual(warned({ consoleOutput: '', tlsAuth: [], rps: 0, httpDebug: false }), []);
    assert.deepEqual(warned({ httpDebug: 'full', rps: 10 }), ['rps', 'httpDebug']);
    assert.deepEqual(warned({}, { K6_TLS_VERSION: 'tls1.2', K6_LOCAL_IPS: '' }), ['tlsVersion']);
  });

  it('the option flags (-w, --max-redirects, --user-agent...) over K6_* over the script, each read as its type', () => {
    const shown = (script: Record<string, unknown>, env: Record<string, string>, ...argv: string[]) => {
      const o = consolidate(script, env, flags(...argv)).options;
      return [o.throw, o.maxRedirects, o.userAgent, o.insecureSkipTLSVerify, o.discardResponseBodies];
    };
    const script = { throw: false, maxRedirects: 1, userAgent: 'script' };
    assert.deepEqual(shown(script, {}), [false, 1, 'script', undefined, undefined]);
    assert.deepEqual(
      shown(script, {
        K6_THROW: 'true',
        K6_MAX_REDIRECTS: '2',
        K6_USER_AGENT: 'env',
        K6_DISCARD_RESPONSE_BODIES: 'true',
      }),
      [true, 2, 'env', undefined, true],
    );
    assert.deepEqual(
      shown(
        script,
        { K6_MAX_REDIRECTS: '2' },
        '-w',
        '--max-redirects=3',
        '--user-agent',
        '',
        '--insecure-skip-tls-verify',
      ),
      [true, 3, '', true, undefined],
    );
    assert.throws(() => shown({}, { K6_MAX_REDIRECTS: 'x' }), {
      message:
        'envconfig.Process: assigning K6_MAX_REDIRECTS to MaxRedirects: converting \'x\' to type null.Int. details: strconv.ParseInt: parsing "x": invalid syntax',
    });
    assert.throws(() => flags('--max-redirects', 'x'), /invalid argument "x" for "--max-redirects" flag/);
    assert.throws(() => flags('-w=maybe'), /invalid argument "maybe" for "-w, --throw" flag/);
    // --system-tags adds its untrimmed names at each use; K6_SYSTEM_TAGS trims them; empty is none.
    const tags = (env: Record<string, string>, ...argv: string[]) =>
      consolidate({ systemTags: ['url'] }, env, flags(...argv)).options.systemTags;
    assert.deepEqual(tags({}, '--system-tags=status, url', '--system-tags', 'method'), [
      'status',
      ' url',
      'method',
    ]);
    assert.deepEqual(tags({ K6_SYSTEM_TAGS: 'status, url' }), ['status', 'url']);
    assert.deepEqual(tags({ K6_SYSTEM_TAGS: '' }), ['']);
    assert.deepEqual(tags({}), ['url']);
    // pflag reads a short flag's value after `=` as well.
    assert.deepEqual([flags('-u=2').vus, flags('-w=false').options.throw], [2, false]);
    assert.throws(() => flags('--user-agent'), /flag needs an argument: --user-agent/);
  });

  it('--include-system-env-vars and K6_INCLUDE_SYSTEM_ENV_VARS decide whether __ENV holds the environment', () => {
    assert.equal(includesSystemEnv({}, flags()), true);
    assert.equal(includesSystemEnv({ K6_INCLUDE_SYSTEM_ENV_VARS: 'f' }, flags()), false);
    assert.equal(
      includesSystemEnv({ K6_INCLUDE_SYSTEM_ENV_VARS: 'false' }, flags('--include-system-env-vars')),
      true,
    );
    assert.equal(includesSystemEnv({}, flags('--include-system-env-vars=false')), false);
    assert.match(runtimeEnvError({ K6_INCLUDE_SYSTEM_ENV_VARS: 'no' })!, /not a valid boolean value/);
  });

  it("K6_NO_THRESHOLDS and K6_NO_SUMMARY as Go's strconv.ParseBool reads them", () => {
    assert.equal(runtimeEnvError({ K6_NO_THRESHOLDS: '1', K6_NO_SUMMARY: 'False' }), undefined);
    assert.equal(
      runtimeEnvError({ K6_NO_SUMMARY: '' }),
      'env var \'K6_NO_SUMMARY\' is not a valid boolean value: strconv.ParseBool: parsing "": invalid syntax',
    );
    assert.equal(consolidate({}, { K6_NO_THRESHOLDS: 'T' }, flags()).noThresholds, true);
    assert.equal(consolidate({}, { K6_NO_SUMMARY: '1' }, flags()).summaryMode, 'disabled');
    assert.equal(consolidate({}, { K6_NO_SUMMARY: '0' }, flags()).summaryMode, 'compact');
  });

  it("derives k6's default scenario from shortcuts", () => {
    const kind = (script: Record<string, unknown>, ...argv: string[]) =>
      consolidate(script, {}, flags(...argv)).scenarios[0]!;
    assert.equal(kind({}).executor, 'per-vu-iterations');
    assert.equal(kind({ vus: 2, duration: '5s' }).executor, 'constant-vus');
    assert.deepEqual(
      [kind({ vus: 2, iterations: 4 }).executor, kind({ vus: 2, iterations: 4 }).iterations],
      ['shared-iterations', 4],
    );
    const ramp = kind({ stages: [{ duration: '2s', target: 4 }] });
    assert.deepEqual([ramp.executor, ramp.startVUs, scenarioMaxVus(ramp)], ['ramping-vus', 1, 4]);
    assert.equal(kind({ vus: 2, duration: '5s' }).name, 'default');
  });

  it('lets CLI and env durations replace the script scenarios, CLI over env', () => {
    const script = {
      scenarios: { main: { executor: 'ramping-vus', stages: [{ duration: '1m', target: 10 }] } },
    };
    assert.equal(consolidate(script, {}, flags()).scenarios[0]!.name, 'main');
    const cli = consolidate(script, { K6_DURATION: '9s' }, flags('--vus', '2', '--duration', '3s')).scenarios;
    assert.deepEqual(
      cli.map((s) => [s.name, s.executor, s.vus, s.durationMs]),
      [['default', 'constant-vus', 2, 3000]],
    );
    const env = consolidate(script, { K6_ITERATIONS: '5' }, flags()).scenarios[0]!;
    assert.deepEqual([env.executor, env.iterations], ['shared-iterations', 5]);
    const stages = consolidate(script, {}, flags('-s', '1s:2', '-s', '1s:0')).scenarios[0]!;
    assert.deepEqual(stages.stages, [
      { durationMs: 1000, target: 2 },
      { durationMs: 1000, target: 0 },
    ]);
    const commaStages = consolidate(script, {}, flags('--stage', '1s:2,1s:0')).scenarios[0]!;
    assert.deepEqual(commaStages.stages, stages.stages, 'the comma form k6 accepts');
  });

  it('refuses execution segments from the flags, K6_* and the script options', () => {
    const script = { scenarios: { s: { executor: 'constant-vus', vus: 1, duration: '1s' } } };
    assert.throws(
      () => consolidate(script, {}, flags('--execution-segment', '0:1/2')),
      (e: Error) =>
        e instanceof OptionsError &&
        /^execution segments \(--execution-segment\) are not supported/.test(e.message),
    );
    assert.throws(
      () => consolidate(script, {}, flags('--execution-segment-sequence=0,1/2,1')),
      /\(--execution-segment-sequence\) are not supported/,
    );
    assert.throws(
      () =>
        consolidate(
          script,
          { K6_EXECUTION_SEGMENT: '1/2:1', K6_EXECUTION_SEGMENT_SEQUENCE: '0,1/2,1' },
          flags(),
        ),
      /\(--execution-segment, --execution-segment-sequence\)/,
    );
    assert.throws(() => consolidate({ ...script, executionSegment: '0:1/2' }, {}, flags()), OptionsError);
    assert.doesNotThrow(() => consolidate(script, { K6_EXECUTION_SEGMENT: '' }, flags()));
  });

  it('validates scenarios with k6 messages (exit 104)', () => {
    const bad = (scenarios: Record<string, unknown>) => () => consolidate({ scenarios }, {}, flags());
    assert.throws(
      bad({ s: { executor: 'constant-arrival-rate', rate: 1, duration: '1s' } }),
      /scenario s has configuration errors: the number of preAllocatedVUs isn't specified/,
    );
    assert.throws(bad({ s: { executor: 'teleport' } }), OptionsError);
    // Real k6 v1.3 refuses it too (conformance corpus): a shared-iterations VU would have nothing to do.
    assert.throws(
      bad({ few: { executor: 'shared-iterations', vus: 3, iterations: 2 } }),
      /scenario few has configuration errors: the number of iterations \(2\) can't be less than the number of VUs \(3\)/,
    );
    assert.throws(
      bad({ 'bad name': { executor: 'constant-vus', duration: '1s' } }),
      /scenario bad name has configuration errors: the scenario name should contain only numbers, latin letters, underscores, and dashes/,
    );
    // A problem of decoding, not of validation: k6's "could not load JS test" family.
    assert.throws(
      bad({ s: { executor: 'constant-vus', duration: 'soon' } }),
      (e: Error) => e instanceof OptionsLoadError && e.message === 'time: invalid duration "soon"',
    );
    // Every problem of a scenario on its line, joined as k6 joins them.
    assert.throws(
      bad({ s: { executor: 'constant-vus', vus: 0, duration: '0s' } }),
      (e: Error) =>
        e.message ===
        'There were problems with the specified script configuration:\n\t- scenario s has configuration ' +
          'errors: the number of VUs must be more than 0, the duration must be at least 1s, but is 0s',
    );
    assert.throws(
      () =>
        consolidate(
          { scenarios: { s: { executor: 'constant-vus', duration: '1s' } }, duration: '5s' },
          {},
          flags(),
        ),
      /using `duration` and `scenarios` options simultaneously is not allowed/,
    );
  });

  it("words Go's json type errors with the line of k6's indented options JSON", () => {
    const decoding = (options: Record<string, unknown>) => () => consolidate(options, {}, flags());
    const cases: [Record<string, unknown>, string][] = [
      [
        { scenarios: { a: { executor: 123 } } },
        'parsing options from script got error while parsing "": json: cannot unmarshal number into Go struct field Options.scenarios of type string',
      ],
      [
        { tags: { a: 1 } },
        'parsing options from script got error while parsing "\\"a\\": 1": json: cannot unmarshal number into Go struct field Options.tags of type string',
      ],
      [
        { vus: 1.5 },
        'parsing options from script got error while parsing "\\"vus\\":": json: cannot unmarshal number 1.5 into Go struct field Options.vus of type int64',
      ],
      [{ iterations: 'x' }, 'strconv.ParseInt: parsing "x": invalid syntax'],
      [{ scenarios: { a: {} } }, "scenario 'a' doesn't have a specified executor type"],
    ];
    for (const [options, message] of cases)
      assert.throws(decoding(options), (e: Error) => e instanceof OptionsLoadError && e.message === message);
  });

  it('reads summary and output settings from env and flags', () => {
    const c = consolidate(
      { summaryTrendStats: ['avg'] },
      { K6_OUT: 'json=e.ndjson', K6_SUMMARY_EXPORT: 'x.json', K6_NO_THRESHOLDS: 'true' },
      flags('--tag', 'testid=1'),
    );
    assert.deepEqual(
      [c.outs, c.summaryExport, c.noThresholds, c.summaryTrendStats, c.runTags],
      [['json=e.ndjson'], 'x.json', true, ['avg'], { testid: '1' }],
    );
    assert.deepEqual(consolidate({}, { K6_OUT: 'json=e.ndjson' }, flags('-o', 'json=f.ndjson')).outs, [
      'json=f.ndjson',
    ]);
  });
});
