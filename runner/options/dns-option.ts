// The dns option from its three places, as k6 consolidates it (lib/options.go Apply, field by
// field): the script's `dns` object < K6_DNS < --dns, the last two in k6's text form
// `ttl=1m,select=first,policy=any` (types.DNSConfig.UnmarshalText).
import { envconfigError } from './envconfig.js';

export interface DnsFields {
  ttl?: string;
  select?: string;
  policy?: string;
}

/** k6's DNS enums (lib/types/dns.go): Go's type name and the names it takes, as written. */
export const DNS_ENUMS: Record<'select' | 'policy', [string, string[]]> = {
  select: ['DNSSelect', ['first', 'roundRobin', 'random']],
  policy: ['DNSPolicy', ['preferIPv4', 'preferIPv6', 'onlyIPv4', 'onlyIPv6', 'any']],
};

/** The --dns default k6 prints in its help, which sets nothing (DefaultDNSConfig's fields are not Valid). */
const DEFAULT_TEXT = 'ttl=5m,select=random,policy=preferIPv4';

/** An enum value k6 does not know, in its words; undefined when it knows it. */
export function dnsEnumError(key: 'select' | 'policy', value: string): string | undefined {
  const [goType, names] = DNS_ENUMS[key];
  return names.includes(value) ? undefined : `${value} does not belong to ${goType} values`;
}

/** k6's DNSConfig.UnmarshalText: the fields the text sets, or k6's error for the first it refuses. */
export function dnsFromText(text: string): DnsFields | Error {
  if (text === DEFAULT_TEXT) return {};
  const params = new Map<string, string>();
  for (const piece of text.split(',')) {
    const at = piece.indexOf('=');
    const value = at < 0 ? '' : piece.slice(at + 1);
    if (value === '') return new Error(`no value for key ${piece}`);
    params.set(at < 0 ? piece : piece.slice(0, at), value);
  }
  const fields: DnsFields = {};
  for (const [key, value] of params) {
    if (key === 'select' || key === 'policy') {
      const refused = dnsEnumError(key, value);
      if (refused) return new Error(refused);
      fields[key] = value;
    } else if (key === 'ttl') fields.ttl = value;
    else return new Error(`unknown DNS configuration field: ${key}`);
  }
  return fields;
}

/** k6's wording for a K6_DNS it cannot read (envconfig's). */
export function envDnsError(text: string, error: Error): string {
  return envconfigError('K6_DNS', 'DNS', text, 'types.DNSConfig', error.message);
}

/** The layers merged field by field, the later over the earlier. */
export function mergeDns(...layers: (DnsFields | undefined)[]): DnsFields {
  const merged: DnsFields = {};
  for (const layer of layers)
    for (const key of ['ttl', 'select', 'policy'] as const)
      if (layer?.[key] !== undefined) merged[key] = layer[key];
  return merged;
}
