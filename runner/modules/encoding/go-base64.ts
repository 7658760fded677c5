// Base64 as Go's encoding/base64 does it, which k6/encoding and k6/crypto use: four alphabets (padded
// and raw, standard and URL-safe), and a strict decoder that skips only \r and \n, refuses a missing
// or misplaced '=' and anything after the padding, and names the offending byte's offset.
import { goError } from '../api/go-error.js';

export type Base64Variant = 'std' | 'rawstd' | 'url' | 'rawurl';

const STD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const PAD = 0x3d; // '='

function decodeTable(alphabet: string): Int16Array {
  const table = new Int16Array(256).fill(-1);
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
}
const STD_TABLE = decodeTable(STD_ALPHABET);
const URL_TABLE = decodeTable(URL_ALPHABET);

const urlSafe = (variant: Base64Variant) => variant === 'url' || variant === 'rawurl';
const padded = (variant: Base64Variant) => variant === 'std' || variant === 'url';

export function goBase64Encode(bytes: Buffer, variant: Base64Variant): string {
  let text = bytes.toString('base64');
  if (urlSafe(variant)) text = text.replace(/\+/g, '-').replace(/\//g, '_');
  return padded(variant) ? text : text.replace(/=+$/, '');
}

const isNewline = (byte: number | undefined) => byte === 0x0a || byte === 0x0d;

function corrupt(offset: number): Error {
  return goError(`illegal base64 data at input byte ${offset}`);
}

/** Decodes as Go's Encoding.DecodeString; offsets in errors count the UTF-8 bytes of `text`. */
export function goBase64Decode(text: string, variant: Base64Variant): Buffer {
  const src = Buffer.from(text, 'utf8');
  const table = urlSafe(variant) ? URL_TABLE : STD_TABLE;
  const withPadding = padded(variant);
  const out: number[] = [];
  let si = 0;
  for (;;) {
    const quantum = [0, 0, 0, 0];
    let length = 4; // sextets in this quantum
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return Buffer.from(out);
        if (j === 1 || withPadding) throw corrupt(si - j);
        length = j;
        break;
      }
      const byte = src[si++]!;
      const sextet = table[byte]!;
      if (sextet >= 0) {
        quantum[j] = sextet;
        continue;
      }
      if (isNewline(byte)) {
        j--;
        continue;
      }
      if (!withPadding || byte !== PAD || j < 2) throw corrupt(si - 1);
      if (j === 2) {
        // "==" closes a quantum of two sextets; the first '=' was just read.
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) throw corrupt(src.length);
        if (src[si] !== PAD) throw corrupt(si - 1);
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      if (si < src.length) throw corrupt(si); // data after the padding
      length = j;
      break;
    }
    const bits = (quantum[0]! << 18) | (quantum[1]! << 12) | (quantum[2]! << 6) | quantum[3]!;
    out.push((bits >> 16) & 0xff);
    if (length > 2) out.push((bits >> 8) & 0xff);
    if (length > 3) out.push(bits & 0xff);
    if (length < 4) return Buffer.from(out);
  }
}
