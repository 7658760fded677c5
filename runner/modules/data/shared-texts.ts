// The JSON texts of a SharedArray's elements in one SharedArrayBuffer, built once per run and
// read by every VU worker of the run, as k6 keeps one copy of them for all its VUs. Layout: the
// element count, then count + 1 byte offsets (Uint32), then the UTF-8 bytes of every text.

/** What a SharedArray reads its elements from: a string array or a shared buffer's view. */
export interface Texts {
  readonly length: number;
  at(i: number): string | undefined;
}

export function sharedTexts(items: readonly string[]): SharedArrayBuffer {
  const bytes = items.map((s) => Buffer.from(s, 'utf8'));
  const head = 4 * (items.length + 2);
  const total = bytes.reduce((n, b) => n + b.length, 0);
  const buffer = new SharedArrayBuffer(head + total);
  const index = new Uint32Array(buffer, 0, items.length + 2);
  index[0] = items.length;
  let at = head;
  bytes.forEach((b, i) => {
    index[i + 1] = at;
    new Uint8Array(buffer, at, b.length).set(b);
    at += b.length;
  });
  index[items.length + 1] = at;
  return buffer;
}

/** The texts a buffer from sharedTexts holds, decoded on each read. */
export function textsOf(buffer: SharedArrayBuffer): Texts {
  const length = new Uint32Array(buffer, 0, 1)[0]!;
  const index = new Uint32Array(buffer, 0, length + 2);
  return {
    length,
    at(i: number) {
      if (!(i >= 0 && i < length)) return undefined;
      const from = index[i + 1]!;
      return Buffer.from(buffer, from, index[i + 2]! - from).toString('utf8');
    },
  };
}

/** A run's SharedArrays by name, as one VU sees them: made elsewhere, or to be made and shared. */
export interface SharedArrays {
  get(name: string): Texts | undefined;
  /** Shares what this VU made under `name` with the VUs started after it. */
  publish(name: string, items: readonly string[]): Texts;
}
