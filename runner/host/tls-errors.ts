// A certificate Node's TLS refused, in k6's code and Go's words (lib/netext/httpext/error_codes.go,
// crypto/x509): an issuer no root vouches for is 1310 'x509: unknown authority', a name the
// certificate does not cover 1311 "x509: certificate doesn't match hostname"; the "Request Failed"
// line carries Go's full text, `tls: failed to verify certificate: x509: …`.
import net from 'node:net';
import { checkServerIdentity, type PeerCertificate, type TLSSocket } from 'node:tls';
import { HTTP_ERROR_CODE } from '../bridge/http-error-codes.js';

export interface GoTlsError {
  error: string;
  code: number;
  /** Go's error text after `Get "url": `. */
  detail: string;
}

/** OpenSSL's verdicts for a chain that ends at no trusted root. */
const UNKNOWN_AUTHORITY = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

const VERIFY = 'tls: failed to verify certificate: ';

/** Go's HostnameError text for `host` and the certificate's subjectAltName. */
function hostnameError(host: string, cert: PeerCertificate | undefined): string {
  const sans = (cert?.subjectaltname ?? '').split(', ').filter(Boolean);
  const ips = sans.filter((s) => s.startsWith('IP Address:')).map((s) => s.slice('IP Address:'.length));
  const names = sans.filter((s) => s.startsWith('DNS:')).map((s) => s.slice('DNS:'.length));
  let valid: string;
  if (net.isIP(host) !== 0) {
    if (ips.length === 0)
      return `x509: cannot validate certificate for ${host} because it doesn't contain any IP SANs`;
    valid = ips.join(', ');
  } else valid = names.join(', ');
  if (!valid) return `x509: certificate is not valid for any names, but wanted to match ${host}`;
  return `x509: certificate is valid for ${valid}, not ${host}`;
}

/** k6's verdict on a TLS error, or undefined for one it words otherwise. */
export function goTlsError(
  err: Error & { code?: string; host?: string; cert?: PeerCertificate },
): GoTlsError | undefined {
  if (err.code && UNKNOWN_AUTHORITY.has(err.code))
    return {
      error: 'x509: unknown authority',
      code: HTTP_ERROR_CODE.x509UnknownAuthority,
      detail: `${VERIFY}x509: certificate signed by unknown authority`,
    };
  if (err.code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return {
      error: "x509: certificate doesn't match hostname",
      code: HTTP_ERROR_CODE.x509Hostname,
      detail: `${VERIFY}${hostnameError(err.host ?? '', err.cert)}`,
    };
  return undefined;
}

/**
 * The certificate's verdict as Go gives it (x509 Certificate.Verify checks the names before the
 * chain; OpenSSL the chain first): undefined when it is trusted and for this host.
 */
export function verifyAsGo(socket: TLSSocket, host: string): Error | undefined {
  const cert = socket.getPeerCertificate();
  const misnamed = checkServerIdentity(host, cert);
  if (misnamed) return misnamed;
  if (socket.authorized) return undefined;
  const reason: unknown = socket.authorizationError;
  if (reason instanceof Error) return reason;
  const code = String(reason);
  return Object.assign(new Error(code), { code });
}
