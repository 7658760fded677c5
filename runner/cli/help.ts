// `loadlab --help`, `loadlab run --help` and `loadlab version`, laid out as k6 v1.3 lays out its
// own (cobra's sections, k6's flag descriptions), listing only what the runner does.
import { readFileSync } from 'node:fs';

/** @loadlab/runner's own manifest: beside cli/ in the workspace and in the installed package alike. */
const PACKAGE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** The k6 version whose behaviour the runner follows (reference/k6.md). */
export const K6_COMPATIBLE = 'v1.3.0';

/** As `k6 version`: name, version, then what it was built with and for. */
export function versionLine(): string {
  return `loadlab v${PACKAGE.version} (k6 ${K6_COMPATIBLE} compatible, node ${process.version}, ${process.platform}/${process.arch})\n`;
}

/** Flags every command takes (k6's persistent flags), before or after the command. */
export const GLOBAL_FLAGS = ['-q', '--quiet', '--no-color'];

const GLOBAL_FLAGS_HELP = `      --no-color                    disable colored output
  -q, --quiet                       disable progress updates
      --secret-source stringArray   setting secret sources for k6 file[=./path.fileformat],
`;

export const ROOT_HELP = `loadlab runs k6 scripts on Node.js: k6 run's flags, modules, outputs and exit codes.
See runner/README.md for what it does and where it differs from k6.

Usage:
  loadlab [command]

Available Commands:
  help        Help about any command
  run         Start a test
  version     Show application version

Flags:
  -h, --help                        help for loadlab
${GLOBAL_FLAGS_HELP}      --version                     version for loadlab

Use "loadlab [command] --help" for more information about a command.
`;

export const RUN_HELP = `Start a test.

Usage:
  loadlab run [flags]

Examples:
  # Run a single VU, once.
  loadlab run script.js

  # Run a single VU, 10 times.
  loadlab run -i 10 script.js

  # Run 5 VUs, splitting 10 iterations between them.
  loadlab run -u 5 -i 10 script.js

  # Run 5 VUs for 10s.
  loadlab run -u 5 -d 10s script.js

  # Ramp VUs from 0 to 100 over 10s, stay there for 60s, then 10s down to 0.
  loadlab run -u 0 -s 10s:100 -s 60s:100 -s 10s:0 script.js

  # Send metrics to an influxdb server
  loadlab run -o influxdb=http://1.2.3.4:8086/k6 script.js

Flags:
  -u, --vus int                             number of virtual users (default 1)
  -d, --duration duration                   test duration limit
  -i, --iterations int                      script total iteration limit (among all VUs)
  -s, --stage stage                         add a stage, as \`[duration]:[target]\`
      --no-setup                            don't run setup()
      --no-teardown                         don't run teardown()
      --max-redirects int                   follow at most n redirects (default 10)
      --batch int                           max parallel batch reqs (default 20)
      --batch-per-host int                  max parallel batch reqs per host (default 6)
      --user-agent string                   user agent for http requests (default "Grafana k6/1.3.0")
      --insecure-skip-tls-verify            skip verification of TLS certificates
      --no-connection-reuse                 disable keep-alive connections
      --no-vu-connection-reuse              don't reuse connections between iterations
      --min-iteration-duration duration     minimum amount of time k6 will take executing a single iteration
  -w, --throw                               throw warnings (like failed http requests) as errors
      --blacklist-ip ip range               blacklist an ip range from being called
      --block-hostnames pattern             block a case-insensitive hostname pattern, with optional leading
                                            wildcard, from being called
      --summary-trend-stats stats           define stats for trend metrics (response times), one or more as
                                            'avg,p(95),...' (default 'avg, min, med, max, p(90), p(95)')
      --summary-time-unit string            define the time unit used to display the trend stats. Possible units
                                            are: 's', 'ms' and 'us'
      --system-tags strings                 only include these system tags in metrics (default "proto, subproto,
                                            status, method, url, name, group, check, error, error_code,
                                            tls_version, scenario, service, expected_response")
      --tag tag                             add a tag to be applied to all samples, as \`[name]=[value]\`
      --discard-response-bodies             Read but don't process or save HTTP response bodies
      --dns string                          DNS resolver configuration. Possible ttl values are: 'inf' for a
                                            persistent cache, '0' to disable the cache, or a positive duration,
                                            e.g. '1s', '1m', etc. Milliseconds are assumed if no unit is provided.
                                            Possible select values to return a single IP are: 'first', 'random' or
                                            'roundRobin'. Possible policy values are: 'preferIPv4', 'preferIPv6',
                                            'onlyIPv4', 'onlyIPv6' or 'any'. (default
                                            "ttl=5m,select=random,policy=preferIPv4")
      --include-system-env-vars             pass the real system environment variables to the runtime (default true)
  -e, --env VAR=value                       add/override environment variable with VAR=value
      --no-thresholds                       don't run thresholds
      --summary-mode string                 determine the summary mode, "compact", "full" or "disabled" (default
                                            "compact")
      --summary-export string               output the end-of-test summary report to JSON file
  -o, --out uri                             uri for an external metrics database: json=FILE,
                                            influxdb=URL, xk6-influxdb[=URL], web-dashboard
      --no-usage-report                     don't send anonymous usagestats
  -h, --help                                help for run

Global Flags:
${GLOBAL_FLAGS_HELP}`;
