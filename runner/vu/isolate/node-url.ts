// node:url's file-URL functions for the VU's code in an isolate (POSIX paths, as the runner's).

/** The characters Node's pathToFileURL percent-encodes besides what encodeURI does. */
const FILE_URL_ESCAPES: Record<string, string> = {
  '%': '%25',
  '\\': '%5C',
  '\n': '%0A',
  '\r': '%0D',
  '\t': '%09',
  '#': '%23',
  '?': '%3F',
  '~': '%7E',
};

/** Letters, digits and `/._-`: a path of only these is its own file URL path (most are). */
function isPlainPath(p: string): boolean {
  for (let i = 0; i < p.length; i++) {
    const c = p.charCodeAt(i);
    const plain =
      (c >= 0x61 && c <= 0x7a) ||
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x30 && c <= 0x39) ||
      c === 0x2f ||
      c === 0x2e ||
      c === 0x2d ||
      c === 0x5f;
    if (!plain) return false;
  }
  return true;
}

export function pathToFileURL(p: string): { href: string; toString(): string } {
  // Without a regex for the common path: each isolate compiles its own, at every VU's start.
  if (isPlainPath(p)) {
    const href = `file://${p}`;
    return { href, toString: () => href };
  }
  const escaped = p.replace(/[%\\\n\r\t#?~]/g, (c) => FILE_URL_ESCAPES[c]!);
  const href = `file://${encodeURI(escaped).replace(/%25([0-9A-F]{2})/g, '%$1')}`;
  return { href, toString: () => href };
}

export function fileURLToPath(url: string | { href: string }): string {
  const href = typeof url === 'string' ? url : url.href;
  if (!href.startsWith('file://')) throw new TypeError('The URL must be of scheme file');
  return decodeURIComponent(href.slice('file://'.length).replace(/^[^/]*/, ''));
}

export default { pathToFileURL, fileURLToPath };
