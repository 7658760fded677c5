// k6's blockHostnames and blacklistIPs options (lib/netext/dialer.go): a request to a name that
// matches a blocked pattern fails before any lookup (1111, "hostname is blocked"), and one whose
// address, looked up or from the hosts option, is in a blacklisted range fails before the dial
// (1110, "ip is blacklisted"). IP literals are not checked against the names.
import net from 'node:net';
import { goParseIp } from './go-ip.js';
import { matchHostPattern } from './host-patterns.js';

/** k6's validHostnamePattern (the hosts option's, without a port). */
const HOSTNAME_PATTERN =
  /^(\*\.?)?((([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])\.)*([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9]))?$/;

export class HostnameBlocklist {
  private constructor(private readonly patterns: Set<string>) {}

  /** The list's table, or k6's error for the first pattern it refuses. */
  static parse(source: string[]): HostnameBlocklist | string {
    const patterns = new Set<string>();
    for (const text of source) {
      const pattern = text.toLowerCase();
      if (!HOSTNAME_PATTERN.test(pattern)) return `invalid hostname pattern '${pattern}'`;
      patterns.add(pattern);
    }
    return new HostnameBlocklist(patterns);
  }

  /** The pattern that blocks `hostname` (as k6 names it), or undefined; IP literals are never blocked. */
  blocking(hostname: string): string | undefined {
    if (net.isIP(hostname) !== 0) return undefined;
    return matchHostPattern((key) => this.patterns.has(key), hostname);
  }
}

interface Range {
  /** The network as Go writes it (the address masked): `10.0.0.0/8`. */
  text: string;
  family: 4 | 6;
  bits: bigint;
  prefix: number;
}

/** An address's 32 or 128 bits (IPv4-mapped IPv6 read as IPv4, as Go's net.IP holds it). */
function addressBits(address: string): { family: 4 | 6; bits: bigint } | undefined {
  const ip = goParseIp(address);
  if (ip === null) return undefined;
  if (!ip.includes(':'))
    return { family: 4, bits: ip.split('.').reduce((acc, p) => (acc << 8n) | BigInt(p), 0n) };
  const [head, tail = ''] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return { family: 6, bits: groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n) };
}

/** Go's text of an IPv6 address's bits (its shortest form). */
function ipv6Text(bits: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => ((bits >> BigInt(112 - 16 * i)) & 0xffffn).toString(16));
  return goParseIp(groups.join(':'))!;
}

/** Go's net.ParseCIDR error for `text`. */
export const goCidrError = (text: string): string => `invalid CIDR address: ${text}`;

/** k6's lib.ParseCIDR error for `text`, which the script's and K6_*'s ranges are refused with. */
export const cidrRefusal = (text: string): string => `failed to parse CIDR '${text}': ${goCidrError(text)}`;

export class IpBlacklist {
  private constructor(private readonly ranges: Range[]) {}

  /** The ranges of Go's net.ParseCIDR, or the text it refuses (whose error each source words its way). */
  static parse(source: string[]): IpBlacklist | { refused: string } {
    const ranges: Range[] = [];
    for (const text of source) {
      const slash = text.indexOf('/');
      const address = slash < 0 ? undefined : addressBits(text.slice(0, slash));
      const prefixText = slash < 0 ? '' : text.slice(slash + 1);
      const width = address?.family === 4 && !text.slice(0, slash).includes(':') ? 32 : 128;
      const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
      if (!address || !(prefix <= width)) return { refused: text };
      const family = width === 32 ? 4 : 6;
      const total = BigInt(width);
      const mask = ((1n << total) - 1n) ^ ((1n << (total - BigInt(prefix))) - 1n);
      const bits = address.bits & mask;
      const shown =
        family === 4 ? [24n, 16n, 8n, 0n].map((s) => String((bits >> s) & 255n)).join('.') : ipv6Text(bits);
      ranges.push({ text: `${shown}/${prefix}`, family, bits, prefix });
    }
    return new IpBlacklist(ranges);
  }

  /** The ranges as k6 shows them. */
  shown(): string[] {
    return this.ranges.map((r) => r.text);
  }

  /** The range `ip` is in (as Go writes it), or undefined. */
  containing(ip: string): string | undefined {
    const address = addressBits(ip);
    if (!address) return undefined;
    for (const range of this.ranges) {
      if (range.family !== address.family) continue;
      const shift = BigInt((range.family === 4 ? 32 : 128) - range.prefix);
      if (address.bits >> shift === range.bits >> shift) return range.text;
    }
    return undefined;
  }
}

/** The run's lists (VuFactory sets them once the options are known). */
export const runBlocklists: { hostnames?: HostnameBlocklist; ips?: IpBlacklist } = {};

export function useBlocklistOptions(blockHostnames: unknown, blacklistIPs: unknown): void {
  const hostnames = Array.isArray(blockHostnames)
    ? HostnameBlocklist.parse(blockHostnames.map(String))
    : undefined;
  const ips = Array.isArray(blacklistIPs) ? IpBlacklist.parse(blacklistIPs.map(String)) : undefined;
  runBlocklists.hostnames = hostnames instanceof HostnameBlocklist ? hostnames : undefined;
  runBlocklists.ips = ips instanceof IpBlacklist ? ips : undefined;
}
