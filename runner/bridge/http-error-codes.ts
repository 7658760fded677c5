// k6's HTTP error codes (lib/netext/httpext/error_codes.go) under the names k6 gives them: a failed
// request's Response.error_code and its samples' error_code tag. The main thread decides a code
// (host/), the VU words the error by it (modules/http/), so both take it from here.

export const HTTP_ERROR_CODE = {
  /** Any error k6 has no other code for (a body cut short, an unsupported scheme). */
  default: 1000,
  invalidUrl: 1020,
  requestTimeout: 1050,
  defaultDns: 1100,
  dnsNoSuchHost: 1101,
  /** The blacklistIPs option refused the address. */
  blacklistedIp: 1110,
  /** The blockHostnames option refused the name. */
  blockedHostname: 1111,
  defaultTcp: 1200,
  tcpBrokenPipe: 1201,
  tcpDialTimeout: 1211,
  tcpDialRefused: 1212,
  tcpResetByPeer: 1220,
  defaultTls: 1300,
  x509UnknownAuthority: 1310,
  x509Hostname: 1311,
  responseDecompression: 1701,
} as const;

/** k6's code for an answer with an error status: 1000 + a 4xx or 5xx status, else 0 (no error). */
export function statusErrorCode(status: number): number {
  return status >= 400 ? HTTP_ERROR_CODE.default + status : 0;
}
