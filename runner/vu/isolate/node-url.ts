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
};

export function pathToFileURL(p: string): { href: string; toString(): string } {
  const escaped = p.replace(/[%\\\n\r\t#?]/g, (c) => FILE_URL_ESCAPES[c]!);
  const href = `file://${encodeURI(escaped).replace(/%25([0-9A-F]{2})/g, '%$1')}`;
  return { href, toString: () => href };
}

export function fileURLToPath(url: string | { href: string }): string {
  const href = typeof url === 'string' ? url : url.href;
  if (!href.startsWith('file://')) throw new TypeError('The URL must be of scheme file');
  return decodeURIComponent(href.slice('file://'.length).replace(/^[^/]*/, ''));
}

export default { pathToFileURL, fileURLToPath };
