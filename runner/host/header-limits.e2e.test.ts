// Response headers as large as Go's client takes them: k6 sets no limit of its
// own, so Go's Transport default (10 MiB) holds; undici's 16 KiB default failed 20 KB headers.
// Both engines against one loopback server that answers a header of the size asked.
import { assertSameRunLinesAgainst } from '../testing/raw-server.js';
import { realK6OrSkip } from '../testing/log-lines.js';

/** Header sizes in bytes: over undici's default, over Node's 16 KiB, large, over Go's 10 MiB. */
const SIZES = [20_000, 70_000, 2_000_000, 11_000_000];

describe('runner/host response header sizes on real k6 and the runner', function () {
  this.timeout(120_000);

  it("takes headers up to Go's 10 MiB and refuses larger ones in Go's words", async function () {
    realK6OrSkip(this);
    await assertSameRunLinesAgainst(
      (socket) =>
        socket.once('data', (head) => {
          const size = Number(/^GET \/(\d+)/.exec(head.toString())?.[1] ?? 0);
          socket.end(
            `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(size)}\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok`,
          );
        }),
      'runner/host/fixtures/header-sizes.js',
      '2000000 status=200',
      ['-e', `SIZES=${SIZES.join(',')}`],
    );
  });
});
