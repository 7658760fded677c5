// `k6/encoding`: b64encode/b64decode with k6's encodings ('std', 'rawstd', 'url', 'rawurl').
function toBytes(input: unknown): Buffer {
  if (typeof input === 'string') return Buffer.from(input, 'utf8');
  if (input instanceof ArrayBuffer) return Buffer.from(input);
  if (ArrayBuffer.isView(input)) return Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  return Buffer.from(String(input), 'utf8');
}

export function createEncodingModule(): Record<string, unknown> {
  function b64encode(input: unknown, encoding = 'std'): string {
    const bytes = toBytes(input);
    switch (encoding) {
      case 'std':
        return bytes.toString('base64');
      case 'rawstd':
        return bytes.toString('base64').replace(/=+$/, '');
      case 'url':
        return bytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
      case 'rawurl':
        return bytes.toString('base64url');
      default:
        throw new Error(`unknown base64 encoding "${encoding}"`);
    }
  }
  function b64decode(input: string, encoding = 'std', format?: string): string | ArrayBuffer {
    const norm = encoding.includes('url')
      ? String(input).replace(/-/g, '+').replace(/_/g, '/')
      : String(input);
    const bytes = Buffer.from(norm, 'base64');
    if (format === 's') return bytes.toString('utf8');
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }
  const mod = { b64encode, b64decode };
  return { ...mod, default: mod, __esModule: true };
}
