// How k6's Go modules see script values: bytes from a string, an ArrayBuffer or a Uint8Array, and for
// anything else the Go type sobek exports it as, which k6 names in its "invalid type" errors.
import { goError } from './go-error.js';

const TYPED_ARRAY_TYPES: [abstract new (...args: never[]) => ArrayBufferView, string][] = [
  [Int8Array, '[]int8'],
  [Int16Array, '[]int16'],
  [Uint16Array, '[]uint16'],
  [Int32Array, '[]int32'],
  [Uint32Array, '[]uint32'],
  [Float32Array, '[]float32'],
  [Float64Array, '[]float64'],
  [BigInt64Array, '[]int64'],
  [BigUint64Array, '[]uint64'],
];

/** The Go type of a script value as sobek exports it, e.g. `int64`, `<nil>`, `map[string]interface {}`. */
export function goTypeName(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  switch (typeof value) {
    case 'boolean':
      return 'bool';
    case 'number':
      // sobek keeps whole numbers as int64 and everything else (fractions, -0, beyond 2^53) as float64.
      return Number.isSafeInteger(value) && !Object.is(value, -0) ? 'int64' : 'float64';
    case 'bigint':
      return '*big.Int';
    case 'string':
      return 'string';
    case 'function':
      return 'func(sobek.FunctionCall) sobek.Value';
  }
  if (Array.isArray(value) || value instanceof Set) return '[]interface {}';
  if (value instanceof Map) return '[][2]interface {}';
  if (value instanceof Date) return 'time.Time';
  if (value instanceof Promise) return '*sobek.Promise';
  for (const [type, name] of TYPED_ARRAY_TYPES) if (value instanceof type) return name;
  return 'map[string]interface {}';
}

/** Bytes of a string (UTF-8), ArrayBuffer or Uint8Array; any other value is k6's "invalid type" GoError. */
export function goBytes(value: unknown, errorPrefix = ''): Buffer {
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (value instanceof Uint8Array || value instanceof Uint8ClampedArray) {
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  }
  throw goError(`${errorPrefix}invalid type ${goTypeName(value)}, expected string, []byte or ArrayBuffer`);
}

/** A copy of the bytes as the ArrayBuffer k6 returns for binary results. */
export function toArrayBuffer(bytes: Buffer): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** Go's %v of a float64 (strconv 'g', shortest, exponent below 1e-4 or from 1e+06 on, two digits at least). */
function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, e] = n.toExponential().split('e') as [string, string];
  const exp = Number(e);
  if (exp >= -4 && exp < 6) return String(n);
  return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/** fmt.Sprint of a script value as sobek exports it: how k6 writes a form or multipart field's value. */
export function goSprint(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && !Object.is(value, -0) ? String(value) : goFloat(value);
  }
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return `[${value.map(goSprint).join(' ')}]`;
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `map[${Object.keys(o)
      .sort()
      .map((k) => `${k}:${goSprint(o[k])}`)
      .join(' ')}]`;
  }
  return String(value);
}

/** Go's url.QueryEscape: only letters, digits and -_.~ stay, a space is '+'. */
export function goQueryEscape(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}
