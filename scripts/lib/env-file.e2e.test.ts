import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { NEEDED, describeAdded, describeKept, ensureEnvFile } from './env-file.js';

const noVolumes = () => false;

describe('ensure-env', () => {
  const fresh = () => join(mkdtempSync(join(tmpdir(), 'loadlab-env-')), '.env');

  it('creates a private .env with every needed variable and random secrets', () => {
    const path = fresh();
    const first = ensureEnvFile(path, {}, noVolumes);
    assert.deepEqual(
      first.added.map((a) => a.name),
      NEEDED.map((n) => n.name),
    );
    const parsed = parseEnv(readFileSync(path, 'utf8'));
    assert.equal(parsed.DEMO_EMAIL, 'demo@loadlab.local');
    assert.match(parsed.DEMO_PASSWORD ?? '', /^[\w-]{24}$/);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const other = ensureEnvFile(fresh(), {});
    assert.notEqual(other.added.find((a) => a.name === 'DEMO_PASSWORD')?.value, parsed.DEMO_PASSWORD);
  });

  it('says where the generated passwords are, not what they are, unless asked; never a token or key', () => {
    const path = fresh();
    const result = ensureEnvFile(path, {}, noVolumes);
    const lines = describeAdded(result);
    const parsed = parseEnv(readFileSync(path, 'utf8'));
    assert.match(lines[0] ?? '', /^added DEMO_EMAIL, DEMO_PASSWORD, .* \(git-ignored, mode 600\)$/);
    assert.equal(
      lines[1],
      `the passwords to log in with (DEMO_PASSWORD, ADMIN_PASSWORD, GRAFANA_ADMIN_PASSWORD) are in ${path}; grep DEMO_PASSWORD ${path} shows one (--show-secrets prints them here)`,
    );
    assert.equal(lines.length, 2);
    const secrets = Object.entries(parsed).filter(([k]) => /PASSWORD|SECRET|TOKEN/.test(k));
    assert.ok(secrets.length >= 6);
    for (const [name, value] of secrets)
      assert.ok(!lines.join('\n').includes(value ?? '?'), `${name} printed`);
    const revealed = describeAdded(result, true);
    assert.ok(revealed.includes(`generated DEMO_PASSWORD=${parsed.DEMO_PASSWORD}  (it stays in ${path})`));
    assert.ok(
      !revealed.some((l) => l.includes(parsed.SANDBOX_TOKEN_SECRET ?? '?')),
      'token key never printed',
    );
    assert.deepEqual(describeAdded(ensureEnvFile(path, {}, noVolumes)), [], 'nothing to say the second time');
  });

  it('keeps values already in the file and adds only what is missing', () => {
    const path = fresh();
    writeFileSync(path, 'DEMO_EMAIL=me@example.test\nDEMO_PASSWORD=mine');
    const result = ensureEnvFile(path, {}, noVolumes);
    assert.ok(!result.added.some((a) => a.name === 'DEMO_PASSWORD' || a.name === 'DEMO_EMAIL'));
    const parsed = parseEnv(readFileSync(path, 'utf8'));
    assert.equal(parsed.DEMO_PASSWORD, 'mine');
    assert.equal(parsed.DEMO_EMAIL, 'me@example.test');
    assert.ok(parsed.ADMIN_PASSWORD);
    assert.deepEqual(ensureEnvFile(path, {}, noVolumes).added, [], 'a second run changes nothing');
  });

  it('leaves the file alone when the environment already provides everything', () => {
    const path = fresh();
    const env = Object.fromEntries(NEEDED.map((n) => [n.name, 'from-env']));
    assert.deepEqual(ensureEnvFile(path, env, noVolumes).added, []);
    assert.throws(() => readFileSync(path), /ENOENT/);
  });

  it('never generates a stack secret whose volume already holds an earlier one, and says how to go on', () => {
    const path = fresh();
    const volumes = new Set(['loadlab_influxdb-data']);
    const result = ensureEnvFile(path, {}, (name) => volumes.has(name));
    assert.deepEqual(
      result.kept.map((k) => k.name),
      ['INFLUXDB_ADMIN_PASSWORD', 'INFLUXDB_ADMIN_TOKEN'],
    );
    const parsed = parseEnv(readFileSync(path, 'utf8'));
    assert.equal(parsed.INFLUXDB_ADMIN_TOKEN, undefined);
    assert.ok(parsed.GRAFANA_ADMIN_PASSWORD, 'a secret whose volume does not exist is still made');
    assert.match(
      describeKept(result)[1] ?? '',
      /^INFLUXDB_ADMIN_TOKEN is missing from .*, but volume loadlab_influxdb-data was set up with an earlier value: .*npm run docker:reset/,
    );
  });
});
