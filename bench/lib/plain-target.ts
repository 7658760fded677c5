// A bare node:http target answering `ok` to everything, in its own process so the engines under
// test do not share its event loop. `child.send('stop')` closes it; it exits with its parent.
// `requests()` asks it how many requests it has answered (to time an engine's run from outside).
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const TARGET_CODE = `
const http = require('node:http');
let answered = 0;
const server = http.createServer((req, res) => { answered++; res.setHeader('content-type', 'text/plain'); res.end('ok'); });
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
process.on('disconnect', () => process.exit(0)); // the bench is gone: never outlive it
process.on('message', (m) => {
  if (m === 'count') return process.send({ answered });
  if (m === 'stop') server.close(() => process.exit(0));
  server.closeAllConnections();
});
`;

/** Starts the target; its code is written into `dir` (a temporary folder the caller removes). */
export async function startTarget(
  dir: string,
): Promise<{ url: string; child: ChildProcess; requests(): Promise<number> }> {
  const file = join(dir, 'target.cjs');
  await writeFile(file, TARGET_CODE);
  const child = fork(file, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [port] = (await once(child, 'message')) as [number];
  const requests = async () => {
    child.send('count');
    const [reply] = (await once(child, 'message')) as [{ answered: number }];
    return reply.answered;
  };
  return { url: `http://127.0.0.1:${port}/`, child, requests };
}
