// The certificates Go trusts on Linux (crypto/x509 root_unix.go), which k6 verifies servers against:
// $SSL_CERT_FILE or the first system bundle that reads, plus every file of $SSL_CERT_DIR (or the
// system's certificate folders). Node would trust its own bundled list instead: a local CA the system
// trusts (or SSL_CERT_FILE names) would fail every request where k6 passes. Read once per process,
// into one secure context the run's TLS connections share (a `ca` per connection re-parses them all).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createSecureContext, type SecureContext } from 'node:tls';

const CERT_FILES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/ca-bundle.pem',
  '/etc/pki/tls/cacert.pem',
  '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem',
  '/etc/ssl/cert.pem',
];
const CERT_DIRECTORIES = ['/etc/ssl/certs', '/etc/pki/tls/certs'];

function readable(path: string): string | undefined {
  try {
    return statSync(path).isFile() ? readFileSync(path, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** PEM certificates in the text, each once. */
function certificatesIn(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

function systemRoots(env: NodeJS.ProcessEnv): string[] {
  const files = env.SSL_CERT_FILE ? [env.SSL_CERT_FILE] : CERT_FILES;
  const roots = new Set<string>();
  for (const file of files) {
    const text = readable(file);
    if (text === undefined) continue;
    certificatesIn(text).forEach((c) => roots.add(c));
    break;
  }
  const dirs = env.SSL_CERT_DIR ? env.SSL_CERT_DIR.split(':') : CERT_DIRECTORIES;
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) certificatesIn(readable(join(dir, name)) ?? '').forEach((c) => roots.add(c));
  }
  return [...roots];
}

let context: SecureContext | null | undefined;

/** The secure context holding the system's roots, or undefined where none were found (Node's own list then). */
export function systemRootsContext(): SecureContext | undefined {
  if (context === undefined) {
    const roots = systemRoots(process.env);
    context = roots.length > 0 ? createSecureContext({ ca: roots }) : null;
  }
  return context ?? undefined;
}
