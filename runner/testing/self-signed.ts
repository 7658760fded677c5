// A self-signed certificate and its key, made by openssl in a test's temporary folder.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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
