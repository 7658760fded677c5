// A self-signed certificate and its key, made by openssl in a test's temporary folder.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand } from '../../devkit/command.js';

export async function selfSigned(
  dir: string,
  name: string,
  /** `subjectAltName`, e.g. `DNS:localhost,IP:127.0.0.1`; none when absent (the CN alone). */
  altNames?: string,
): Promise<{ key: Buffer; cert: Buffer }> {
  const key = join(dir, `${name}.key`);
  const cert = join(dir, `${name}.crt`);
  const args = ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1'];
  args.push('-subj', `/CN=${name}`, ...(altNames ? ['-addext', `subjectAltName=${altNames}`] : []));
  const made = await runCommand('openssl', args, { env: { ...process.env } });
  assert.equal(made.code, 0, made.stderr);
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

/** A CA (its certificate's file, to name in SSL_CERT_FILE) and a server certificate it signed for `altNames`. */
export async function signedByLocalCa(
  dir: string,
  altNames: string,
): Promise<{ caFile: string; key: Buffer; cert: Buffer }> {
  await selfSigned(dir, 'local-ca');
  const caFile = join(dir, 'local-ca.crt');
  const key = join(dir, 'leaf.key');
  const csr = join(dir, 'leaf.csr');
  const cert = join(dir, 'leaf.crt');
  const ext = join(dir, 'leaf.ext');
  writeFileSync(ext, `subjectAltName=${altNames}\n`);
  for (const args of [
    ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', csr, '-subj', '/CN=leaf'],
    [
      'x509',
      '-req',
      '-in',
      csr,
      '-CA',
      caFile,
      '-CAkey',
      join(dir, 'local-ca.key'),
      '-CAcreateserial',
      '-out',
      cert,
      '-days',
      '1',
      '-extfile',
      ext,
    ],
  ]) {
    const made = await runCommand('openssl', args, { env: { ...process.env } });
    assert.equal(made.code, 0, made.stderr);
  }
  return { caFile, key: readFileSync(key), cert: readFileSync(cert) };
}
