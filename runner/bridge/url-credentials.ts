// A URL's credentials as Go's url.URL.String() writes them (scheme://user:password@host...), hidden as
// k6 hides them: its tags mask both (httpext.URL.Clean), Go's client errors the password only
// (net/http's stripPassword). One reading of the userinfo for both.

/** scheme://userinfo@ at a URL's start. */
const USERINFO = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^@/?#]*)@/;

/** The URL with its userinfo (`user` or `user:password`) replaced by what `mask` makes of it. */
function replaceUserinfo(url: string, mask: (userinfo: string) => string): string {
  const found = USERINFO.exec(url);
  if (!found) return url;
  return `${found[1]}${mask(found[2]!)}${url.slice(found[0].length - 1)}`;
}

/** As k6 tags a URL: `user:password@` as `****:****@`, `user@` as `****@`. */
export function maskedCredentials(url: string): string {
  return replaceUserinfo(url, (info) => (info.includes(':') ? '****:****' : '****'));
}

/** As Go's client names a URL in its errors: the password as `***`, the user kept. */
export function withoutPassword(url: string): string {
  return replaceUserinfo(url, (info) =>
    info.includes(':') ? `${info.slice(0, info.indexOf(':'))}:***` : info,
  );
}
