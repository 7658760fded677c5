// An IP address as Go's net.ParseIP reads it, which k6's hosts and blacklistIPs options use.

/**
 * `text` as Go's net.ParseIP reads it, in Go's canonical text (an IPv4-mapped IPv6 address as IPv4),
 * or null where Go refuses it (an IPv4 part with a leading zero among them).
 */
export function goParseIp(text: string): string | null {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4)
    return v4.slice(1).every((p) => Number(p) <= 255 && !/^0\d/.test(p))
      ? v4.slice(1).map(Number).join('.')
      : null;
  try {
    const host = new URL(`http://[${text}]/`).hostname.slice(1, -1);
    const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
    if (!mapped) return host;
    const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  } catch {
    return null;
  }
}
