// The long-running npm scripts as a supervisor stops them: SIGTERM to the `npm run` process must
// stop the service. npm signals its child, `sh -c <script>`, and a shell that does not exec its
// command (Debian's dash) dies alone, leaving the server running on its port: the scripts `exec`.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { freePort } from '../devkit/processes.js';
import { startProcess, untilReady } from '../devkit/script-process.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/** Resolves true once nothing accepts connections on the port, false if something still does at the deadline. */
async function portClosed(port: number, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (!accepted) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

describe('npm run start:* under a supervisor', function () {
  this.timeout(60_000);
  const credentials = {
    DEMO_EMAIL: 'signals@loadlab.local',
    DEMO_PASSWORD: 'npm-signals-test',
    ADMIN_USER: 'admin',
    ADMIN_PASSWORD: 'npm-signals-admin',
  };

  for (const [script, listening] of [
    ['start:sandbox', 1],
    ['start:clinic', 2],
    ['start:services', 3],
  ] as const) {
    it(`${script}: a SIGTERM to npm stops every server it started`, async () => {
      const ports = {
        PORT: await freePort(),
        CLINIC_PORT: await freePort(),
        CLINIC_SECURE_PORT: await freePort(),
      };
      // The SIGTERM goes to npm itself, as a supervisor sends it: stop() signals the process it started.
      const npm = startProcess('npm', ['run', '-s', script], {
        cwd: REPO,
        env: {
          ...process.env,
          ...credentials,
          CLINIC_DB: 'memory',
          LOG_LEVEL: 'info',
          ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
        },
      });
      const out = () => npm.output();
      const listened = async () =>
        (out().match(/ listening"/g) ?? []).length >= listening ? true : undefined;
      // The count is asserted below, with the output, whether the wait ended in time, early or not at all.
      await untilReady(npm, `${listening} listening lines`, listened, 30_000).catch(() => undefined);
      assert.equal((out().match(/ listening"/g) ?? []).length, listening, out());
      await npm.stop('SIGTERM');
      const used = [ports.PORT, ports.CLINIC_PORT, ports.CLINIC_SECURE_PORT].filter((port) =>
        out().includes(`127.0.0.1:${port}"`),
      );
      assert.equal(used.length, listening, out());
      for (const port of used)
        assert.ok(await portClosed(port, Date.now() + 10_000), `port ${port} still open:\n${out()}`);
    });
  }
});
