// k6's `hosts` option (lib/types/hosts.go, lib/netext/dialer.go): names, or name:port pairs, each
// dialled at an address of the script's instead of its DNS answer. A pattern is matched lower-cased;
// `*.example.com` (a leading `*`) matches the names ending in what follows it. The dialler first
// looks up `name:port`, then `name` alone (whose port, when its address has none, is the request's).
// One table for the run, as k6's dialler has one; IP literals are looked up too.

import { goParseIp } from './go-ip.js';
import { matchHostPattern } from './host-patterns.js';

/** Where a pattern sends a dial: an IP (null where k6's net.ParseIP failed) and a port (0: none). */
export interface HostsTarget {
  ip: string | null;
  port: number;
}

/** k6's validHostPattern. */
const HOST_PATTERN =
  /^(\*\.?)?((([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])\.)*([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9]))?(:[0-9]{1,5})?$/;

/** Go's net.SplitHostPort: [host, port], or undefined where it fails (no port, or a bare IPv6). */
function splitHostPort(text: string): [string, string] | undefined {
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end < 0 || text[end + 1] !== ':' || text.slice(end + 2).includes(':')) return undefined;
    return [text.slice(1, end), text.slice(end + 2)];
  }
  const colon = text.lastIndexOf(':');
  if (colon < 0 || text.indexOf(':') !== colon) return undefined;
  return [text.slice(0, colon), text.slice(colon + 1)];
}

/** How k6 writes a target back (exec.test.options): the IP, or IP:port once it has a port. */
export function hostsTargetText({ ip, port }: HostsTarget): string {
  const shown = ip ?? '<nil>';
  if (port === 0) return shown;
  return `${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

export class HostsTable {
  private constructor(private readonly entries: Map<string, HostsTarget>) {}

  /**
   * The table of the option's value (an object of strings, its types checked by the options'
   * decoder), or k6's error: a port that is no number, then a pattern it refuses.
   */
  static parse(source: Record<string, string>): HostsTable | string {
    const entries = new Map<string, HostsTarget>();
    const keys = Object.keys(source).sort();
    for (const key of keys) {
      const value = source[key] ?? '';
      const split = splitHostPort(value);
      let target: HostsTarget = { ip: goParseIp(value), port: 0 };
      if (split) {
        if (!/^[+-]?\d+$/.test(split[1]))
          return `strconv.Atoi: parsing ${JSON.stringify(split[1])}: invalid syntax`;
        target = { ip: goParseIp(split[0]), port: Number(split[1]) };
      }
      entries.set(key.toLowerCase(), target);
    }
    for (const key of keys)
      if (!HOST_PATTERN.test(key.toLowerCase())) return `invalid host pattern '${key.toLowerCase()}'`;
    return new HostsTable(entries);
  }

  /** The option as k6 shows it: lower-cased patterns, sorted, each with its target's text. */
  shown(): Record<string, string> {
    return Object.fromEntries(
      [...this.entries.keys()].sort().map((k) => [k, hostsTargetText(this.entries.get(k)!)]),
    );
  }

  /** k6's trie lookup: the pattern itself, else `*` and the longest suffix of `name` that follows one. */
  match(name: string): HostsTarget | undefined {
    const pattern = matchHostPattern((key) => this.entries.has(key), name);
    return pattern === undefined ? undefined : this.entries.get(pattern);
  }

  /** Where the dialler sends `host`:`port` (the URL's port, or the scheme's), or undefined: resolve it. */
  remoteFor(host: string, port: number): { ip: string | null; port: number } | undefined {
    const withPort = this.match(`${host.includes(':') ? `[${host}]` : host}:${port}`);
    if (withPort) return withPort;
    const byName = this.match(host);
    if (!byName) return undefined;
    return byName.port !== 0 ? byName : { ip: byName.ip, port };
  }
}

/** The run's table (VuFactory sets it once the options are known); undefined without the option. */
export let runHosts: HostsTable | undefined;

export function useHostsOption(value: unknown): void {
  const table =
    value && typeof value === 'object' ? HostsTable.parse(value as Record<string, string>) : undefined;
  runHosts = typeof table === 'string' ? undefined : table;
}
