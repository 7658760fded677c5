// Response bodies with a Content-Encoding, as k6 v1.3 decodes them: gzip,
// deflate (zlib), br and zstd undone whatever the request asked, several codings last first, unknown
// or upper-case names left alone, and a body that does not decode a failed request (status 0,
// error_code 1701 or 1000, k6's words, the text decoded so far). Both engines against one loopback server.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { assertSameRunLines, realK6OrSkip } from '../testing/log-lines.js';

const TEXT = JSON.stringify({ hello: 'world', n: [1, 2, 3] });
/** TEXT in one zstd frame (`zstd -c`): Node 20 has no zstd encoder. */
const ZSTD = Buffer.from(
  '28b52ffd0458e900007b2268656c6c6f223a22776f726c64222c226e223a5b312c322c335d7d53abecb1',
  'hex',
);
const gzipped = zlib.gzipSync(TEXT);
const badChecksum = Buffer.from(gzipped);
badChecksum[badChecksum.length - 6]! ^= 0xff;

/** Path -> [Content-Encoding, body, status]. */
const BODIES: Record<string, [string, Buffer, number?]> = {
  gzip: ['gzip', gzipped],
  deflate: ['deflate', zlib.deflateSync(TEXT)],
  rawdeflate: ['deflate', zlib.deflateRawSync(TEXT)],
  br: ['br', zlib.brotliCompressSync(TEXT)],
  zstd: ['zstd', ZSTD],
  gzipbr: ['gzip, br', zlib.brotliCompressSync(gzipped)],
  upper: ['GZIP', gzipped],
  identity: ['identity', Buffer.from(TEXT)],
  unknown: ['compress', Buffer.from(TEXT)],
  badgzip: ['gzip', Buffer.from('this is not gzip at all')],
  truncgzip: ['gzip', gzipped.subarray(0, 20)],
  crcgzip: ['gzip', badChecksum],
  baddeflate: ['deflate', Buffer.from('this is not deflate')],
  badbr: ['br', Buffer.from('this is not brotli at all, no no')],
  badzstd: ['zstd', Buffer.from('this is not zstd')],
  truncbr: ['br', zlib.brotliCompressSync(TEXT).subarray(0, 12)],
  empty204: ['gzip', Buffer.alloc(0), 204],
  emptygzip: ['gzip', Buffer.alloc(0)],
};

describe('runner/host content encodings on real k6 and the runner', function () {
  this.timeout(120_000);

  it('decodes gzip, deflate, br and zstd and fails a body that does not decode, in k6 words', async function () {
    realK6OrSkip(this);
    const server = createServer((req, res) => {
      const [coding, body, status] = BODIES[(req.url ?? '/').slice(1)] ?? ['', Buffer.from('?'), 404];
      res.writeHead(status ?? 200, { 'Content-Encoding': coding, 'Content-Type': 'application/json' });
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      // The decoded text where k6 decodes it (gzip, deflate, br, zstd), and k6's failures.
      await assertSameRunLines(
        'runner/host/fixtures/content-encoding.js',
        ['-e', `BASE=${base}`, '-e', `KEYS=${Object.keys(BODIES).join(',')}`],
        'badgzip status=0 code=1701',
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
