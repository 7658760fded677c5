// Writes the generated dashboards to dashboards/json/, the folder Grafana's file provider loads.
// `--check` compares instead of writing, so a test catches JSON that drifted from the TypeScript.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { k6Dashboard } from './k6-load-test.js';
import { servicesDashboard } from './services.js';
import { isEntryPoint } from '@loadlab/services/start-and-stop';

export const JSON_DIR = join(dirname(fileURLToPath(import.meta.url)), 'json');

export const DASHBOARD_FILES = ['k6-load-test.json', 'services.json'] as const;

/**
 * The newest dashboard schema the stack's Grafana (grafana-oss 11.6, stack/docker-compose.yml) reads
 * without migrating it: 41, what 11.6 itself exports. The foundation SDK writes 42, Grafana 12's.
 */
export const GRAFANA_SCHEMA_VERSION = 41;

/** The dashboards as the repository keeps them: formatted by its prettier, so `format:check` agrees. */
export async function renderedDashboards(): Promise<Record<string, string>> {
  const options = { ...(await resolveConfig(join(JSON_DIR, 'x.json'))), parser: 'json' };
  return {
    'k6-load-test.json': await format(
      JSON.stringify({ ...k6Dashboard(), schemaVersion: GRAFANA_SCHEMA_VERSION }),
      options,
    ),
    'services.json': await format(
      JSON.stringify({ ...servicesDashboard(), schemaVersion: GRAFANA_SCHEMA_VERSION }),
      options,
    ),
  };
}

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  const stale: string[] = [];
  for (const [file, text] of Object.entries(await renderedDashboards())) {
    const path = join(JSON_DIR, file);
    if (!check) {
      writeFileSync(path, text);
      console.log(`dashboards: wrote ${path}`);
    } else if (readFileSync(path, 'utf8') !== text) stale.push(file);
  }
  if (stale.length > 0) {
    console.error(`dashboards: out of date (${stale.join(', ')}); run npm run dashboards:build`);
    return 1;
  }
  return 0;
}

if (isEntryPoint(import.meta.url)) void main().then((code) => process.exit(code));
