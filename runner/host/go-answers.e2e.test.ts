// Answers as Go's client reads them, on real k6 and the runner against one loopback server:
// 1xx answers have their headers dropped, and an endless stream of them fails the
// request at the sixth (`too many 1xx informational responses`) where the runner waited out the
// timeout; answers that break off are `unexpected EOF` (`invalid byte in chunk length` for
// a bad chunk size), logged without the request's `Get "url":`, the part that came kept in r.body,
// a connection closed before any answer is `EOF`, a reset names the connection's ends as Go's
// net.OpError does, and a malformed status line is Go's `malformed HTTP status code "abc"`.
import type { Socket } from 'node:net';
import { realK6OrSkip } from '../testing/log-lines.js';
import { assertSameRunLinesAgainst } from '../testing/raw-server.js';

const EARLY_HINTS = 'HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n';

function informational(socket: Socket): void {
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

/** Answers each request with the raw text its path names in `answers` ('RESET' resets the connection). */
const answering =
  (answers: Record<string, string>) =>
  (socket: Socket): void => {
    socket.once('data', (head) => {
      const answer = answers[/^GET \/(\S+)/.exec(head.toString())?.[1] ?? ''] ?? '';
      if (answer === 'RESET') socket.resetAndDestroy();
      else socket.end(answer);
    });
  };

const brokenOff = answering({
  midbody: 'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789',
  badchunk: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\nxx\r\n0\r\n\r\n',
  close: '',
  reset: 'RESET',
  midchunk: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n',
});

/** Status lines Go refuses, each followed by a small body. */
const statusLines = answering(
  Object.fromEntries(
    Object.entries({
      word: 'HTTP/1.1 abc OK',
      long: 'HTTP/1.1 2000 OK',
      negative: 'HTTP/1.1 -12 OK',
      short: 'HTTP/1.1 20 OK',
      nocode: 'HTTP/1.1',
      version: 'FOO/1.1 200 OK',
      garbage: 'hello there',
    }).map(([path, line]) => [path, `${line}\r\nContent-Length: 2\r\n\r\nok`]),
  ),
);

describe('runner/host answers as Go reads them, on real k6 and the runner', function () {
  this.timeout(60_000);

  for (const [name, onSocket, script, k6Shows] of [
    [
      'drops 1xx headers and fails an endless stream of them at the sixth',
      informational,
      'informational',
      'too many 1xx informational responses',
    ],
    [
      "keeps the body that came before a break and words the error as Go's client does",
      brokenOff,
      'broken-answers',
      'midbody status=0 code=1000 error=unexpected EOF',
    ],
    [
      "words a status line Go refuses in Go's words",
      statusLines,
      'status-lines',
      'word status=0 code=1000 error=malformed HTTP status code',
    ],
  ] as const) {
    it(name, async function () {
      realK6OrSkip(this);
      await assertSameRunLinesAgainst(onSocket, `runner/host/fixtures/${script}.js`, k6Shows);
    });
  }
});
