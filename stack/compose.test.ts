// Static checks of the compose stack: no container engine runs here, so the file is validated
// against the compose-spec JSON schema and the properties the stack promises are asserted directly.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { runFlags, stages as dockerStages } from './testing/dockerfile-model.js';

const read = (file: string) => readFileSync(new URL(file, import.meta.url), 'utf8');

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string; target?: string };
  profiles?: string[];
  ports?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  command?: string[];
  user?: string;
  network_mode?: string;
}
interface Compose {
  services: Record<string, Service>;
}

const composeText = read('./docker-compose.yml');
const compose = parse(composeText, { merge: true }) as Compose;
const services = compose.services;

function validator() {
  // The vendored schema declares the https draft-07 meta-schema id, which ajv does not register;
  // the schema itself is well-formed draft-07, so meta-validation is skipped.
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(read('./schema/compose-spec.json')) as object);
}

describe('stack/docker-compose.yml', () => {
  it('validates against the compose-spec JSON schema', () => {
    const validate = validator();
    assert.equal(validate(compose), true, JSON.stringify(validate.errors, null, 2));
  });

  it('the schema check itself rejects a malformed service', () => {
    const validate = validator();
    const broken = structuredClone(compose);
    (broken.services.sandbox as Record<string, unknown>).healthcheck = { test: 'x', interval: 5 };
    (broken.services.sandbox as Record<string, unknown>).not_a_field = true;
    assert.equal(validate(broken), false);
  });

  it('runs every component of the stack', () => {
    assert.deepEqual(Object.keys(services).sort(), [
      'clinic',
      'clinic-secure',
      'grafana',
      'influxdb',
      'k6',
      'k6-host',
      'postgres',
      'prometheus',
      'sandbox',
    ]);
  });

  it('gives every service a healthcheck', () => {
    for (const [name, service] of Object.entries(services)) {
      assert.ok(service.healthcheck?.test?.length, `${name} has no healthcheck`);
    }
  });

  it('makes dependants wait for healthy dependencies that exist', () => {
    let edges = 0;
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, rule] of Object.entries(service.depends_on ?? {})) {
        assert.ok(services[dependency], `${name} depends on unknown ${dependency}`);
        assert.equal(rule.condition, 'service_healthy', `${name} -> ${dependency}`);
        edges += 1;
      }
    }
    assert.ok(services.grafana?.depends_on?.influxdb && services.grafana.depends_on.prometheus);
    assert.ok(services.k6?.depends_on?.sandbox && services.k6.depends_on.influxdb);
    assert.ok(edges >= 6);
  });

  it('publishes the ports of the spec', () => {
    const published = (name: string) => services[name]?.ports ?? [];
    assert.deepEqual(published('sandbox'), ['5050:5050']);
    assert.deepEqual(published('clinic'), ['9966:9966']);
    assert.deepEqual(published('clinic-secure'), ['9967:9967']);
    assert.deepEqual(published('influxdb'), ['8086:8086']);
    assert.deepEqual(published('grafana'), ['3000:3000']);
  });

  it('groups services into the services, monitoring and k6 profiles', () => {
    for (const name of ['sandbox', 'clinic', 'clinic-secure']) {
      assert.deepEqual(services[name]?.profiles, ['services', 'monitoring', 'k6']);
    }
    for (const name of ['grafana', 'prometheus']) assert.deepEqual(services[name]?.profiles, ['monitoring']);
    assert.deepEqual(services.k6?.profiles, ['k6']);
    assert.deepEqual(services['k6-host']?.profiles, ['k6']);
    // Every dependency is active in each profile of its dependant, so `--profile X up` never misses one.
    for (const [name, service] of Object.entries(services)) {
      for (const dependency of Object.keys(service.depends_on ?? {})) {
        for (const profile of service.profiles ?? []) {
          assert.ok(
            services[dependency]?.profiles?.includes(profile),
            `${name}/${profile} needs ${dependency}`,
          );
        }
      }
    }
  });

  it('addresses other containers by service name, never localhost', () => {
    const env = services.k6?.environment ?? {};
    assert.equal(env.K6_INFLUXDB_ADDR, 'http://influxdb:8086');
    assert.match(env.BASE_URL ?? '', /sandbox:5050/);
    const grafanaEnv = services.grafana?.environment ?? {};
    assert.equal(grafanaEnv.LOADLAB_INFLUXDB_URL, 'http://influxdb:8086');
    assert.equal(grafanaEnv.LOADLAB_PROMETHEUS_URL, 'http://prometheus:9090');
    // Only a container on the host network may call loopback: there it is the host's.
    for (const [name, service] of Object.entries(services)) {
      if (service.network_mode === 'host') continue;
      for (const [key, value] of Object.entries(service.environment ?? {})) {
        assert.doesNotMatch(String(value), /\/\/(localhost|127\.0\.0\.1):/, `${name}.${key}`);
      }
    }
    const hostEnv = services['k6-host']?.environment ?? {};
    assert.equal(services['k6-host']?.network_mode, 'host');
    assert.equal(hostEnv.BASE_URL, '${K6_BASE_URL:-http://127.0.0.1:5050}');
  });

  it('takes every secret from .env, never from the file', () => {
    const secretKey = /PASSWORD|TOKEN|SECRET/;
    let secrets = 0;
    for (const [name, service] of Object.entries(services)) {
      for (const [key, value] of Object.entries(service.environment ?? {})) {
        if (!secretKey.test(key)) continue;
        secrets += 1;
        assert.match(String(value), /^\$\{[A-Z_]+:\?[^}]+\}$/, `${name}.${key} must be a required variable`);
      }
    }
    assert.ok(secrets >= 6);
    assert.doesNotMatch(composeText, /(password|token)\s*[:=]\s*['"]?[A-Za-z0-9]{8,}/i);
  });

  it('keeps both clinics in a PostgreSQL of the services profile: pinned, healthy first, a volume, its password from .env', () => {
    const pg = services.postgres!;
    assert.match(pg.image ?? '', /^postgres:\d+\.\d+-alpine$/);
    assert.ok(pg.profiles?.includes('services'));
    assert.ok(pg.volumes?.includes('postgres-data:/var/lib/postgresql/data'));
    assert.ok(pg.healthcheck?.test.includes('pg_isready'));
    const password = '${POSTGRES_PASSWORD:?run npm run env:init}';
    assert.equal(pg.environment?.POSTGRES_PASSWORD, password);
    for (const name of ['clinic', 'clinic-secure']) {
      const env = services[name]!.environment!;
      assert.equal(env.CLINIC_DB, 'postgres', name);
      assert.equal(env.DATABASE_URL, 'postgresql://clinic@postgres:5432/clinic', name);
      // Beside the URL, so no character of the password needs escaping (main.e2e.test.ts runs it so).
      assert.equal(env.PGPASSWORD, password, name);
      assert.equal(env.LOG_LEVEL, '${LOG_LEVEL:-info}', `${name} keeps the common environment`);
      assert.deepEqual(services[name]!.depends_on, { postgres: { condition: 'service_healthy' } }, name);
    }
  });

  it('mounts the provisioning, the generated dashboards and the DBRP init script', () => {
    assert.ok(services.grafana?.volumes?.includes('../provisioning:/etc/grafana/provisioning:ro'));
    assert.ok(services.grafana?.volumes?.includes('../dashboards/json:/var/lib/grafana/dashboards:ro'));
    assert.ok(
      services.influxdb?.volumes?.some((v) =>
        v.startsWith('./influxdb/create-dbrp.sh:/docker-entrypoint-initdb.d/'),
      ),
    );
    assert.ok(services.prometheus?.volumes?.includes('./prometheus.yml:/etc/prometheus/prometheus.yml:ro'));
  });

  it('runs k6 as the invoking user when compose.sh says so, else as the image user', () => {
    assert.equal(services.k6?.user, '${LOADLAB_UID:-12345}:${LOADLAB_GID:-12345}');
    assert.match(read('./k6.Dockerfile'), /adduser -D -u 12345 -h \/home\/k6 k6/);
  });

  it("gives Chromium a real home for every uid compose runs the k6 image as (upstream's -with-browser user has one)", () => {
    // grafana/k6's Dockerfile: `adduser -D -u 12345 -g 12345 k6` (-D without -H: BusyBox makes /home/k6),
    // USER 12345, WORKDIR /home/k6. The invoking uid has no passwd entry in the image, and runc sets HOME
    // from passwd only when the image leaves it unset: without ENV HOME it would be "/", root's.
    const runtime = dockerStages(read('./k6.Dockerfile')).at(-1)!;
    const runs = runtime.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    const env = runtime.instructions
      .filter((i) => i.keyword === 'ENV')
      .map((i) => i.args)
      .join(' ');
    assert.match(env, /(^|\s)HOME=\/home\/k6(\s|$)/, 'HOME names the home, for a uid without a passwd entry');
    assert.ok(
      runs.some((r) => /adduser -D -u 12345 -h \/home\/k6 k6/.test(r) && !/\s-H\b/.test(r)),
      'the home is made',
    );
    assert.ok(
      runs.some((r) => /chmod 1777 \/home\/k6(\s|$)/.test(r)),
      'any uid may write it (sticky, as /tmp)',
    );
  });

  it("exports no Go module or build cache with the k6 image's layers (cache mounts on the xk6 RUN)", () => {
    const builder = dockerStages(read('./k6.Dockerfile')).find((s) => s.name === 'k6-builder')!;
    const build = builder.instructions.find((i) => i.keyword === 'RUN' && /xk6 build/.test(i.args))!;
    const mounts = runFlags(build.args).flags.filter((f) => f.startsWith('--mount=type=cache,'));
    // golang's image: GOPATH=/go (GOMODCACHE /go/pkg/mod), GOCACHE $HOME/.cache/go-build for root.
    for (const target of ['/go/pkg/mod', '/root/.cache/go-build'])
      assert.ok(
        mounts.some((m) => m.includes(`target=${target}`)),
        `${target} in ${mounts.join(' ')}`,
      );
  });

  it('builds the services and k6 from the repository Dockerfiles', () => {
    assert.equal(services.sandbox?.build?.target, 'sandbox');
    assert.equal(services.clinic?.build?.target, 'clinic');
    assert.equal(services.k6?.build?.dockerfile, 'stack/k6.Dockerfile');
    assert.match(services.k6?.command?.[1] ?? '', /^suite\/scenarios\/.+\.js$/);
  });
});

describe('stack Dockerfiles', () => {
  const stages = (text: string) =>
    [...text.matchAll(/^FROM\s+\S+(?:\s+AS\s+(\S+))?/gim)].map((m) => m[1] ?? '');

  it('services.Dockerfile: multi-stage, production dependencies only, non-root, healthchecks', () => {
    const text = read('./services.Dockerfile');
    assert.deepEqual(stages(text), ['deps', 'runtime', 'sandbox', 'clinic']);
    assert.match(text, /npm ci --omit=dev/);
    assert.match(text, /^USER node$/m);
    assert.equal([...text.matchAll(/^HEALTHCHECK /gm)].length, 2);
    assert.match(text, /services\/sandbox\/main\.ts/);
    assert.match(text, /services\/clinic\/main\.ts/);
  });

  it('k6.Dockerfile: xk6 with a pinned xk6-output-influxdb, bundles inside, non-root', () => {
    const text = read('./k6.Dockerfile');
    assert.deepEqual(stages(text), ['k6-builder', 'bundles', '']);
    assert.match(text, /XK6_VERSION=\d+\.\d+\.\d+/);
    assert.match(text, /K6_VERSION=1\.\d+\.\d+/);
    assert.match(text, /XK6_OUTPUT_INFLUXDB_VERSION=0\.7\.0/);
    assert.match(text, /github\.com\/grafana\/xk6-output-influxdb@v\$\{XK6_OUTPUT_INFLUXDB_VERSION\}/);
    assert.match(text, /xk6 build --k6-version "v\$\{K6_VERSION\}"/);
    assert.match(text, /COPY --from=bundles \/src\/dist\/k6 \/home\/k6\/suite/);
    assert.match(text, /^USER k6$/m);
    assert.match(text, /^HEALTHCHECK /m);
  });
});

describe('Grafana image and the dashboards it loads', () => {
  // The newest schemaVersion each Grafana minor writes itself (and so reads without migration).
  const SCHEMA_BY_GRAFANA: Record<string, number> = { '11.5': 40, '11.6': 41 };

  it('every provisioned dashboard is of a schema the pinned Grafana image reads without migration', () => {
    const tag = /^grafana\/grafana-oss:(\d+\.\d+)\.\d+$/.exec(services.grafana?.image ?? '')?.[1];
    assert.ok(tag && SCHEMA_BY_GRAFANA[tag], `no known schema for ${services.grafana?.image}`);
    for (const file of ['k6-load-test.json', 'services.json']) {
      const dashboard = JSON.parse(read(`../dashboards/json/${file}`)) as { schemaVersion: number };
      assert.ok(dashboard.schemaVersion <= SCHEMA_BY_GRAFANA[tag]!, `${file}: ${dashboard.schemaVersion}`);
    }
  });
});
