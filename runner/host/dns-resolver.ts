// Host names resolved as k6 resolves them (lib/netext/resolver.go, the `dns` option): /etc/hosts,
// then the system's DNS servers asked directly (c-ares, no thread pool: Node's dns.lookup queues
// every lookup behind libuv's pool of four threads and waits out getaddrinfo's own timeouts), the
// answers cached for `ttl` after the lookup (default 5m; '0' none, 'inf' for the run), one
// address picked by `policy` (default preferIPv4) and `select` (default random). One resolver for
// the run, as k6's Runner has one; lookups of one name share one query, as Go's singleflight does.
import { promises as dns } from 'node:dns';
import { readFileSync } from 'node:fs';
import net from 'node:net';

export type DnsSelect = 'first' | 'random' | 'roundRobin';
export type DnsPolicy = 'preferIPv4' | 'preferIPv6' | 'onlyIPv4' | 'onlyIPv6' | 'any';

export interface DnsConfig {
  /** How long a name's answer is kept after its lookup; 0: never kept. */
  ttlMs: number;
  select: DnsSelect;
  policy: DnsPolicy;
}

export const DEFAULT_DNS: DnsConfig = { ttlMs: 5 * 60_000, select: 'random', policy: 'preferIPv4' };

/** A name no server knows: Go's "no such host" (k6 1101); `goDetail`, Go's whole error, where a server said so. */
const notFound = (goDetail?: string) =>
  Object.assign(new Error('lookup: no such host'), { code: 'ENOTFOUND', goDetail });

/** A DNS server as Go names it in its errors: `127.0.0.1:53`, `[::1]:53`. */
function goServerAddress(server: string): string {
  if (server.startsWith('[') || /^[\d.]+:\d+$/.test(server)) return server;
  return server.includes(':') ? `[${server}]:53` : `${server}:53`;
}

/** Addresses of /etc/hosts by lower-case name, read once (Go's resolver reads it before DNS). */
let hostsFile: Map<string, string[]> | undefined;
function hostsEntries(): Map<string, string[]> {
  if (hostsFile) return hostsFile;
  hostsFile = new Map();
  let text = '';
  try {
    text = readFileSync('/etc/hosts', 'utf8');
  } catch {
    // No hosts file: DNS only.
  }
  for (const line of text.split('\n')) {
    const [address, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (!address || net.isIP(address) === 0) continue;
    for (const name of names) {
      const key = name.toLowerCase();
      hostsFile.set(key, [...(hostsFile.get(key) ?? []), address]);
    }
  }
  return hostsFile;
}

/** One lookup's addresses: A and AAAA records both asked, as Go's resolver asks them. */
async function lookupAll(resolver: dns.Resolver, host: string): Promise<string[]> {
  const fromFile = hostsEntries().get(host.toLowerCase());
  if (fromFile) return fromFile;
  const settled = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
  const found = settled.flatMap((s) => (s.status === 'fulfilled' ? s.value : []));
  if (found.length > 0) return found;
  const failure = settled.find((s) => s.status === 'rejected') as PromiseRejectedResult | undefined;
  const code = (failure?.reason as NodeJS.ErrnoException | undefined)?.code;
  // No record of either kind, or a name the server does not know: Go's "no such host", which names
  // the server that said so (the first asked).
  if (!code || code === 'ENOTFOUND' || code === 'ENODATA') {
    const server = resolver.getServers()[0];
    throw notFound(
      server === undefined ? undefined : `lookup ${host} on ${goServerAddress(server)}: no such host`,
    );
  }
  throw Object.assign(new Error('lookup: temporary failure'), { code: 'EAI_AGAIN' });
}

function applyPolicy(ips: string[], policy: DnsPolicy): string[] {
  if (policy === 'any') return ips;
  const v4 = ips.filter((ip) => net.isIPv4(ip));
  const v6 = ips.filter((ip) => net.isIPv6(ip));
  switch (policy) {
    case 'preferIPv4':
      return v4.length > 0 ? v4 : v6;
    case 'preferIPv6':
      return v6.length > 0 ? v6 : v4;
    case 'onlyIPv4':
      return v4;
    case 'onlyIPv6':
      return v6;
  }
}

export class DnsResolver {
  private readonly resolver = new dns.Resolver();
  private readonly cache = new Map<string, { ips: string[]; at: number }>();
  private readonly inFlight = new Map<string, Promise<string[]>>();
  private readonly turns = new Map<string, number>();

  constructor(private config: DnsConfig = DEFAULT_DNS) {}

  configure(config: DnsConfig): void {
    this.config = config;
    this.cache.clear();
  }

  /** One address for `host` (an IP literal is its own), or Go's lookup error. */
  async resolve(host: string): Promise<string> {
    if (net.isIP(host) !== 0) return host;
    const ips = await this.addresses(host);
    if (ips.length === 0) throw notFound();
    return this.pick(host, ips);
  }

  private async addresses(host: string): Promise<string[]> {
    const { ttlMs, policy } = this.config;
    const cached = this.cache.get(host);
    if (cached && Date.now() < cached.at + ttlMs) return cached.ips;
    let query = this.inFlight.get(host);
    if (!query) {
      query = lookupAll(this.resolver, host).finally(() => this.inFlight.delete(host));
      this.inFlight.set(host, query);
    }
    const ips = applyPolicy(await query, policy);
    if (ttlMs > 0) this.cache.set(host, { ips, at: Date.now() });
    return ips;
  }

  private pick(host: string, ips: string[]): string {
    switch (this.config.select) {
      case 'first':
        return ips[0]!;
      case 'random':
        return ips[Math.floor(Math.random() * ips.length)]!;
      case 'roundRobin': {
        const turn = this.turns.get(host) ?? 0;
        this.turns.set(host, turn + 1);
        return ips[turn % ips.length]!;
      }
    }
  }
}

/** The run's resolver, shared by every VU's engine. */
export const runResolver = new DnsResolver();

/** k6's `dns` option (`{ ttl, select, policy }`) read into a config; what is missing keeps k6's default. */
export function dnsConfigOf(option: unknown, parseDurationMs: (text: string) => number): DnsConfig {
  const o = (option ?? {}) as { ttl?: unknown; select?: unknown; policy?: unknown };
  const ttl = o.ttl === undefined || o.ttl === null || o.ttl === '' ? undefined : String(o.ttl);
  const ttlMs =
    ttl === undefined
      ? DEFAULT_DNS.ttlMs
      : ttl === 'inf'
        ? Number.POSITIVE_INFINITY
        : ttl === '0'
          ? 0
          : parseDurationMs(ttl);
  return {
    ttlMs,
    select: (o.select as DnsSelect | undefined) ?? DEFAULT_DNS.select,
    policy: (o.policy as DnsPolicy | undefined) ?? DEFAULT_DNS.policy,
  };
}
