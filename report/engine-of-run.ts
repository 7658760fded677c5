// Which engine ran a scenario, from the line scripts/run-k6.sh writes at the top of its log
// (`run-k6: engine node (<why>); version loadlab 0.1.0`). The Node runner's numbers and k6's are not
// interchangeable (the runner's own cost shows in its latencies), so every report names the engine.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

export interface EngineInfo {
  /** run-k6.sh's name: k6, docker (k6 in a container) or node (the Node runner). */
  name: string;
  /** What it reported as its version (`k6 v1.3.0`, `grafana/k6:1.3.0`, `loadlab 0.1.0`), when the log has it. */
  version?: string;
  /** describeEngine's words, for the HTML client (which has no access to this module). */
  label?: string;
}

const ENGINE_LINE = /^run-k6: engine (\S+) .*?(?:; version (.+))?$/;

/** The engine named by the last run-k6 engine line of a log, if any. */
export function parseEngineLine(log: string): EngineInfo | undefined {
  let found: EngineInfo | undefined;
  for (const line of log.split('\n')) {
    const m = ENGINE_LINE.exec(line.trimEnd());
    if (m) found = m[2] ? { name: m[1] as string, version: m[2] } : { name: m[1] as string };
  }
  return found;
}

/** `<stem>.log` beside a run's summary or series file: where test:report keeps run-k6.sh's output. */
export function logPathFor(input: { summaryPath?: string; seriesPath?: string }): string | undefined {
  const path = input.summaryPath ?? input.seriesPath;
  return path ? path.replace(/\.(json|ndjson|jsonl)(\.gz)?$/, '') + '.log' : undefined;
}

/** The engine of a run, from its log (explicit or beside its files); undefined when nothing says. */
export async function readEngine(input: {
  logPath?: string;
  summaryPath?: string;
  seriesPath?: string;
}): Promise<EngineInfo | undefined> {
  const path = input.logPath ?? logPathFor(input);
  if (!path) return undefined;
  const text = await readFile(path, 'utf8').catch(() => '');
  // No engine line in a kept log: the suite's handleSummary wrote one beside the summary (<stem>.engine).
  const beside = path.replace(/\.log$/, '.engine');
  return (
    parseEngineLine(text.slice(0, 64 * 1024)) ??
    parseEngineLine(await readFile(beside, 'utf8').catch(() => ''))
  );
}

/** How a report names the engine: `Node runner (loadlab 0.1.0)`, `k6 (k6 v1.3.0)`, `not recorded`. */
export function describeEngine(engine: EngineInfo | undefined): string {
  if (!engine) return 'not recorded';
  const name =
    engine.name === 'node' ? 'Node runner' : engine.name === 'docker' ? 'k6 in a container' : engine.name;
  return engine.version ? `${name} (${engine.version})` : name;
}

/** Same engine and version on both sides? Unknown on either side counts as different. */
export function sameEngine(a: EngineInfo | undefined, b: EngineInfo | undefined): boolean {
  return !!a && !!b && describeEngine(a) === describeEngine(b);
}

/** The Node runner of this checkout, as run-k6.sh names it (its package's version): the live dashboard runs inside it. */
export function thisNodeRunner(): EngineInfo {
  const { version } = JSON.parse(
    readFileSync(new URL('../runner/package.json', import.meta.url), 'utf8'),
  ) as {
    version: string;
  };
  const engine: EngineInfo = { name: 'node', version: `loadlab ${version}` };
  return { ...engine, label: describeEngine(engine) };
}
