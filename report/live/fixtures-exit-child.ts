// Child process for dashboard-output.e2e.test.ts: starts the dashboard, prints its URL, calls stop() when told
// on stdin, and then simply returns. If anything the dashboard owns stayed referenced, it would never exit.
import { createInterface } from 'node:readline';
import { createDashboardOutput } from './dashboard-output.js';

const out = createDashboardOutput({
  scriptPath: 'child.js',
  options: {},
  argument: '',
  env: {},
  warn: (m) => console.error(m),
  host: '127.0.0.1',
  port: 0,
  period: 100,
});
await out.start();
console.log(out.url);
const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  if (line === 'stop') break;
}
rl.close();
process.stdin.destroy();
await out.stop();
console.log('stopped');
