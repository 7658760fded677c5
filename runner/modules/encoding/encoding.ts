// `k6/encoding`: b64encode/b64decode with Go's four base64 variants ('std' when none or another is named)
// and its strict decoding; b64decode gives a string for format 's', an ArrayBuffer otherwise.
import { goBase64Decode, goBase64Encode, type Base64Variant } from './go-base64.js';
import { goBytes, toArrayBuffer } from '../api/go-values.js';

const VARIANTS: readonly Base64Variant[] = ['std', 'rawstd', 'url', 'rawurl'];

function variantOf(encoding: unknown): Base64Variant {
  return VARIANTS.find((variant) => variant === encoding) ?? 'std';
}

export function createEncodingModule(): Record<string, unknown> {
  function b64encode(input: unknown, encoding?: unknown): string {
    return goBase64Encode(goBytes(input), variantOf(encoding));
  }
  function b64decode(input: unknown, encoding?: unknown, format?: unknown): string | ArrayBuffer {
    const bytes = goBase64Decode(input == null ? '' : String(input), variantOf(encoding));
    return format === 's' ? bytes.toString('utf8') : toArrayBuffer(bytes);
  }
  const mod = { b64encode, b64decode };
  return mod;
}
