// MD4 (RFC 1320), which k6/crypto offers and Node's OpenSSL 3 no longer does outside its legacy
// provider. Obsolete as a hash; here only so scripts that ask for it get k6's answer.

const rotl = (x: number, n: number) => (x << n) | (x >>> (32 - n));

/** MD4 digest of `message` (16 bytes). */
export function md4(message: Buffer): Buffer {
  // Pad: 0x80, zeros to 56 mod 64, then the bit length as a little-endian 64-bit number.
  const padded = Buffer.alloc(Math.ceil((message.length + 9) / 64) * 64);
  message.copy(padded);
  padded[message.length] = 0x80;
  const bits = message.length * 8;
  padded.writeUInt32LE(bits >>> 0, padded.length - 8);
  padded.writeUInt32LE(Math.floor(bits / 2 ** 32), padded.length - 4);

  let a = 0x67452301;
  let b = 0xefcdab89;
  let c = 0x98badcfe;
  let d = 0x10325476;
  const x = new Array<number>(16);
  const f = (p: number, q: number, r: number) => (p & q) | (~p & r);
  const g = (p: number, q: number, r: number) => (p & q) | (p & r) | (q & r);
  const h = (p: number, q: number, r: number) => p ^ q ^ r;
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) x[i] = padded.readUInt32LE(offset + 4 * i);
    const [aa, bb, cc, dd] = [a, b, c, d];
    // Round 1: words in order, shifts 3 7 11 19.
    for (const i of [0, 4, 8, 12]) {
      a = rotl((a + f(b, c, d) + x[i]!) | 0, 3);
      d = rotl((d + f(a, b, c) + x[i + 1]!) | 0, 7);
      c = rotl((c + f(d, a, b) + x[i + 2]!) | 0, 11);
      b = rotl((b + f(c, d, a) + x[i + 3]!) | 0, 19);
    }
    // Round 2: words by column, constant 0x5a827999, shifts 3 5 9 13.
    for (const i of [0, 1, 2, 3]) {
      a = rotl((a + g(b, c, d) + x[i]! + 0x5a827999) | 0, 3);
      d = rotl((d + g(a, b, c) + x[i + 4]! + 0x5a827999) | 0, 5);
      c = rotl((c + g(d, a, b) + x[i + 8]! + 0x5a827999) | 0, 9);
      b = rotl((b + g(c, d, a) + x[i + 12]! + 0x5a827999) | 0, 13);
    }
    // Round 3: words in bit-reversed order, constant 0x6ed9eba1, shifts 3 9 11 15.
    for (const i of [0, 2, 1, 3]) {
      a = rotl((a + h(b, c, d) + x[i]! + 0x6ed9eba1) | 0, 3);
      d = rotl((d + h(a, b, c) + x[i + 8]! + 0x6ed9eba1) | 0, 9);
      c = rotl((c + h(d, a, b) + x[i + 4]! + 0x6ed9eba1) | 0, 11);
      b = rotl((b + h(c, d, a) + x[i + 12]! + 0x6ed9eba1) | 0, 15);
    }
    a = (a + aa) | 0;
    b = (b + bb) | 0;
    c = (c + cc) | 0;
    d = (d + dd) | 0;
  }
  const digest = Buffer.alloc(16);
  [a, b, c, d].forEach((word, i) => digest.writeInt32LE(word, 4 * i));
  return digest;
}

/** HMAC (RFC 2104) over MD4, whose block is 64 bytes. */
export function hmacMd4(key: Buffer, message: Buffer): Buffer {
  const block = Buffer.alloc(64);
  (key.length > 64 ? md4(key) : key).copy(block);
  const pad = (byte: number) => Buffer.from(block.map((k) => k ^ byte));
  return md4(Buffer.concat([pad(0x5c), md4(Buffer.concat([pad(0x36), message]))]));
}
