// The stack job's image build and the paths its steps name, read as the tools on GitHub's runner read
// them (no container engine here): each image's build context and Dockerfile as `docker buildx bake`
// resolves them from the workflow's bake step must be the ones `docker compose build` resolves from the
// same compose file (stack/testing/build-paths.ts cites both rules), and every file the workflow names
// must exist.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { bakeBuildPaths, composeBuildPaths, type ComposeBuild } from '../../stack/testing/build-paths.js';

const ROOT = resolve('.'); // mocha runs from the repository root
const FILE = '.github/workflows/load-tests.yml';

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}
interface Job {
  env?: Record<string, string>;
  steps: Step[];
}
const workflow = parse(readFileSync(FILE, 'utf8')) as {
  env?: Record<string, string>;
  jobs: Record<string, Job>;
};

/** A run script's lines with bash's backslash-newline continuations joined. */
const logicalLines = (run: string) => run.replace(/\\\n\s*/g, ' ').split('\n');

/** Words of one simple command, single and double quotes removed (enough for the workflow's lines). */
const words = (line: string) =>
  [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');

interface BakeCall {
  cwd: string;
  file: string;
  targets: string[];
  env: Record<string, string>;
}

/** Where the workflow's bake step runs bake, on which compose file, for which targets. */
export function bakeCall(job: Job, step: Step): BakeCall {
  let cwd = resolve(ROOT, step['working-directory'] ?? '.');
  const env: Record<string, string> = { ...workflow.env, ...job.env, ...step.env };
  for (const line of logicalLines(step.run ?? '').map((l) => l.trim())) {
    const cd = /^cd\s+(\S+)$/.exec(line);
    if (cd) cwd = resolve(cwd, cd[1]!.replace(/^"|"$/g, ''));
    const exported = /^(?:export\s+)?(BUILDX_\w+)=(\S+)$/.exec(line);
    if (exported) env[exported[1]!] = exported[2]!;
    if (!line.startsWith('docker buildx bake')) continue;
    const args = words(line).slice(3);
    const withValue = new Set(['-f', '--file', '--set', '--builder', '--progress', '--metadata-file']);
    let file = 'docker-compose.yml';
    const targets: string[] = [];
    for (let i = 0; i < args.length; i += 1) {
      const arg = args[i]!;
      if (arg === '-f' || arg === '--file') file = args[i + 1]!;
      if (withValue.has(arg)) i += 1;
      else if (!arg.startsWith('-')) targets.push(arg);
    }
    return { cwd, file: resolve(cwd, file), targets, env };
  }
  throw new Error(`${step.name}: no docker buildx bake line`);
}

/** A buildx new enough for the opt-in, and one without it: GitHub's runner image decides which it is. */
const BUILDX_VERSIONS = ['v0.36.1', undefined];

describe('the stack job builds each image from the files compose builds it from', () => {
  const job = workflow.jobs.stack!;
  const bakeStep = job.steps.find((s) => s.run?.includes('docker buildx bake'))!;

  it("bake resolves every target's context and Dockerfile as `docker compose build` does, on any buildx", () => {
    assert.ok(bakeStep, 'a bake step');
    const call = bakeCall(job, bakeStep);
    assert.ok(existsSync(call.file), `bake's -f ${relative(ROOT, call.file)} exists`);
    const services = (
      parse(readFileSync(call.file, 'utf8')) as { services: Record<string, { build?: ComposeBuild }> }
    ).services;
    assert.ok(call.targets.length >= 3, call.targets.join(' '));
    const problems: string[] = [];
    for (const target of call.targets) {
      const build = services[target]?.build;
      if (!build) {
        problems.push(`${target}: not a compose service that builds`);
        continue;
      }
      const compose = composeBuildPaths(call.file, build);
      for (const buildxVersion of BUILDX_VERSIONS) {
        const bake = bakeBuildPaths(
          {
            cwd: call.cwd,
            composeFile: call.file,
            fileRelativePaths: call.env.BUILDX_BAKE_FILE_RELATIVE_PATHS,
            buildxVersion,
          },
          build,
        );
        const on = buildxVersion ?? 'a buildx without BUILDX_BAKE_FILE_RELATIVE_PATHS';
        const shown = (p: string) => relative(ROOT, p) || '.';
        if (bake.context !== compose.context)
          problems.push(
            `${target} (${on}): bake's context ${shown(bake.context)}, compose's ${shown(compose.context)}`,
          );
        if (bake.dockerfile !== compose.dockerfile)
          problems.push(
            `${target} (${on}): bake's Dockerfile ${shown(bake.dockerfile)}, compose's ${shown(compose.dockerfile)}`,
          );
      }
      if (!existsSync(compose.context)) problems.push(`${target}: context ${compose.context} does not exist`);
      if (!existsSync(compose.dockerfile))
        problems.push(`${target}: Dockerfile ${compose.dockerfile} does not exist`);
      // BuildKit's Dockerfile frontend reads <Dockerfile>.dockerignore beside it before the context's own.
      if (!existsSync(`${compose.dockerfile}.dockerignore`))
        problems.push(
          `${target}: no ${relative(ROOT, compose.dockerfile)}.dockerignore (the whole repository would be sent)`,
        );
    }
    assert.deepEqual(problems, []);
  });

  it('the resolution itself: bake from the repository root on the old step leaves the checkout', () => {
    const composeFile = join(ROOT, 'stack/docker-compose.yml');
    const build = { context: '..', dockerfile: 'stack/k6.Dockerfile' };
    assert.deepEqual(composeBuildPaths(composeFile, build), {
      context: ROOT,
      dockerfile: join(ROOT, 'stack/k6.Dockerfile'),
    });
    const fromRoot = bakeBuildPaths({ cwd: ROOT, composeFile }, build);
    assert.equal(fromRoot.context, dirname(ROOT));
    assert.equal(fromRoot.dockerfile, join(dirname(ROOT), 'stack/k6.Dockerfile'));
    // The opt-in rebases on the compose file's folder, but only where buildx has it.
    const optIn = { cwd: ROOT, composeFile, fileRelativePaths: '1' };
    assert.equal(bakeBuildPaths({ ...optIn, buildxVersion: 'v0.36.0' }, build).context, ROOT);
    assert.equal(bakeBuildPaths({ ...optIn, buildxVersion: 'v0.35.2' }, build).context, dirname(ROOT));
    assert.equal(bakeBuildPaths(optIn, build).context, dirname(ROOT));
    // From the compose file's folder both agree on every buildx.
    assert.deepEqual(
      bakeBuildPaths({ cwd: dirname(composeFile), composeFile }, build),
      composeBuildPaths(composeFile, build),
    );
  });

  it("every bind mount of the compose file exists where compose reads it (the compose file's folder)", () => {
    const composeFile = join(ROOT, 'stack/docker-compose.yml');
    const services = (
      parse(readFileSync(composeFile, 'utf8')) as { services: Record<string, { volumes?: string[] }> }
    ).services;
    const sources = Object.values(services).flatMap((s) =>
      (s.volumes ?? []).map((v) => v.split(':')[0]!).filter((source) => /^\.{1,2}\//.test(source)),
    );
    assert.ok(sources.length >= 4, sources.join(' '));
    // ../results is made by compose.sh (make_results_dirs) before any container mounts it.
    const missing = sources.filter(
      (s) => s !== '../results' && !existsSync(resolve(dirname(composeFile), s)),
    );
    assert.deepEqual(missing, []);
  });
});

describe('every path the workflow names exists', () => {
  /** Repository paths a run script names, each resolved from the folder its line runs in. */
  function namedPaths(step: Step): { path: string; line: string }[] {
    let cwd = resolve(ROOT, step['working-directory'] ?? '.');
    const found: { path: string; line: string }[] = [];
    for (const line of logicalLines(step.run ?? '').map((l) => l.trim())) {
      const cd = /^cd\s+(\S+)$/.exec(line);
      if (cd) cwd = resolve(cwd, cd[1]!);
      for (const word of words(line)) {
        if (/^(\.{1,2}\/)*(stack|scripts|k6|dashboards|provisioning|services|\.github)\/[\w./-]+$/.test(word))
          found.push({ path: resolve(cwd, word), line });
        else if (/^(\.{1,2}\/)?[\w-]+\.(yml|yaml|env|sh)$/.test(word) && word !== '.env' && word !== './.env')
          found.push({ path: resolve(cwd, word), line });
      }
      // `npm run stream:grafana -- <scenario>` streams k6/<scenario>.ts's bundle.
      const stream = /npm run (?:-s )?stream:\w+ -- (\S+)/.exec(line);
      if (stream) found.push({ path: join(ROOT, 'k6', `${stream[1]}.ts`), line });
    }
    return found;
  }

  it('files the steps read (versions.env, the compose file, scripts, scenarios) are in the repository', () => {
    const all = Object.values(workflow.jobs).flatMap((job) => job.steps.flatMap(namedPaths));
    assert.ok(
      all.some((p) => p.path.endsWith('stack/docker-compose.yml')),
      'the compose file is named',
    );
    assert.ok(
      all.some((p) => p.path.endsWith('k6/scenarios/browser/login-page.ts')),
      'the browser scenario',
    );
    const missing = all
      .filter((p) => !existsSync(p.path))
      .map((p) => `${relative(ROOT, p.path)} (in: ${p.line})`);
    assert.deepEqual(missing, []);
  });

  it('a path that is not there is found (the check can fail)', () => {
    const step = {
      run: 'cd stack\n. stack/versions.env\nnpm run stream:grafana -- scenarios/nope/none smoke',
    };
    const missing = namedPaths(step)
      .filter((p) => !existsSync(p.path))
      .map((p) => relative(ROOT, p.path));
    assert.deepEqual(missing, ['stack/stack/versions.env', 'k6/scenarios/nope/none.ts']);
  });
});

describe("stack/README.md's account of the stack job matches the workflow and compose", () => {
  const readme = readFileSync('stack/README.md', 'utf8');
  const section = readme.slice(readme.indexOf('## The stack job: what ran where'));
  const text = readFileSync(FILE, 'utf8');

  it("the weekly schedule, the cache scopes and the bake folder it names are the workflow's", () => {
    const cron = /cron: '(\d+) (\d+) \* \* 1'/.exec(text);
    assert.ok(cron, 'a Monday cron in the workflow');
    const [, minute, hour] = cron;
    assert.match(section, new RegExp(`Mondays ${hour!.padStart(2, '0')}:${minute!.padStart(2, '0')} UTC`));
    const scopes = [...new Set([...text.matchAll(/scope=(loadlab-[\w-]+)/g)].map((m) => m[1]))];
    assert.equal(scopes.length, 3);
    for (const scope of scopes) assert.ok(section.includes(`\`${scope}\``), scope);
    assert.match(text, /^\s+cd stack$/m);
    assert.match(section, /bake runs from `stack\/`/);
  });

  it('the versions its table names are the ones compose pins', () => {
    const compose = readFileSync('stack/docker-compose.yml', 'utf8');
    const prometheus = /image: prom\/prometheus:(v[\d.]+)/.exec(compose)?.[1];
    const grafana = /image: grafana\/grafana-oss:(\d+\.\d+)\./.exec(compose)?.[1];
    const influx = /image: influxdb:(\d+)\./.exec(compose)?.[1];
    assert.ok(section.includes(`Prometheus ${prometheus}`), `Prometheus ${prometheus}`);
    // A table row's first cell, however prettier pads it.
    const row = (cell: string) => new RegExp(`^\\| ${cell.replace(/\./g, '\\.')} +\\|`, 'm');
    assert.match(section, row(`Grafana ${grafana}`));
    assert.match(section, row(`InfluxDB ${influx}`));
  });
});
