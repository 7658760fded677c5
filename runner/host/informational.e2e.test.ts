// 1xx answers as Go's client reads them (issue 39, row 7): their headers dropped, and an endless
// stream of them failing the request at the sixth (`too many 1xx informational responses`), where
// the runner waited out the request's timeout. Both engines against one loopback server.
import type { Socket } from 'node:net';
import { assertSameRunLines, realK6OrSkip } from '../testing/log-lines.js';
import { startRawServer } from '../testing/raw-server.js';

const EARLY_HINTS = 'HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n';

function answer(socket: Socket): void {
  socket.once('data', (head) => {
    if (head.toString().startsWith('GET /few')) {
      socket.end(
        `${EARLY_HINTS}${EARLY_HINTS}HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Final: yes\r\n\r\nok`,
      );
      return;
    }
    // One every 50 ms, at most 100: far more than Go reads, bounded all the same.
    let sent = 0;
    const timer = setInterval(() => {
      if (socket.destroyed || ++sent > 100) clearInterval(timer);
      else socket.write(EARLY_HINTS);
    }, 50);
    socket.on('close', () => clearInterval(timer));
  });
}

describe('runner/host informational answers on real k6 and the runner', function () {
  this.timeout(60_000);

  it('drops 1xx headers and fails an endless stream of them at the sixth', async function () {
    realK6OrSkip(this);
    const server = await startRawServer(answer);
    try {
      await assertSameRunLines(
        'runner/host/fixtures/informational.js',
        ['-e', `BASE=http://${server.host}`],
        'too many 1xx informational responses',
        (l) => l.replaceAll(server.host, 'HOST'),
      );
    } finally {
      server.close();
    }
  });
});
