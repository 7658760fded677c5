// `npm run start:services` as a real process on loopback ports: one "listening" line per service,
// one line and the services' exit codes when it cannot start.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { freePort } from '../devkit/processes.js';
import { startScript, untilOutput } from '../devkit/script-process.js';

/** Runs start-services.ts in an empty folder, so a developer's .env is not read. */
function start(env: Record<string, string>) {
  const proc = startScript('scripts/start-services.ts', { env: { LOG_LEVEL: 'info', ...env } });
  return { ...proc, output: () => proc.out() + proc.err() };
}

describe('start:services', function () {
  this.timeout(30_000);
  // Everything the services need (no .env is read in the empty folder).
  const demo = {
    DEMO_EMAIL: 'demo@loadlab.local',
    DEMO_PASSWORD: 'start-services-test',
    ADMIN_USER: 'admin',
    ADMIN_PASSWORD: 'start-services-admin',
  };

  it('logs each service listening once, then one ready line, and drains on SIGTERM', async () => {
    const ports = {
      PORT: await freePort(),
      CLINIC_PORT: await freePort(),
      CLINIC_SECURE_PORT: await freePort(),
    };
    const run = start({
      ...demo,
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
    });
    await untilOutput(run, /all services ready/);
    const code = await run.stop('SIGTERM');
    const lines = run.output().split('\n');
    for (const port of Object.values(ports)) {
      assert.equal(lines.filter((l) => l.includes(`127.0.0.1:${port}`)).length, 1, run.output());
    }
    assert.equal(lines.filter((l) => l.includes('all services ready')).length, 1, run.output());
    // The ready line comes after every service's listening line (one stdout stream for all loggers).
    const ready = lines.findIndex((l) => l.includes('all services ready'));
    for (const port of Object.values(ports))
      assert.ok(lines.findIndex((l) => l.includes(`127.0.0.1:${port}`)) < ready, run.output());
    assert.equal(code, 0);
  });

  it('says in one line that a port is taken and exits 1, as start:sandbox does', async () => {
    const taken: Server = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as { port: number }).port;
    try {
      const run = start({ ...demo, PORT: String(port), CLINIC_PORT: '0', CLINIC_SECURE_PORT: '0' });
      const code = await run.exit;
      assert.equal(code, 1, run.output());
      assert.equal(run.output().trim().split('\n').length, 1, run.output());
      assert.match(
        run.output(),
        /^start:services: listen EADDRINUSE: address already in use 127\.0\.0\.1:\d+$/m,
      );
    } finally {
      await new Promise((r) => taken.close(r));
    }
  });

  it('exits 2 on a configuration error (no demo password), as start:sandbox does', async () => {
    const run = start({ DEMO_EMAIL: 'demo@loadlab.local', DEMO_PASSWORD: '', PORT: '0' });
    const code = await run.exit;
    assert.equal(code, 2, run.output());
    assert.match(run.output(), /^start:services: DEMO_EMAIL and DEMO_PASSWORD must be set/);
  });

  it('exits 2 on a port that is not a port, as on any other configuration error', async () => {
    const run = start({ ...demo, PORT: '0', CLINIC_PORT: 'http' });
    const code = await run.exit;
    assert.equal(code, 2, run.output());
    assert.match(
      run.output(),
      /^start:services: CLINIC_PORT must be an integer from 0 to 65535, got "http"$/m,
    );
    // Checked before anything started: the sandbox never listened.
    assert.doesNotMatch(run.output(), /sandbox listening/);
  });
});
