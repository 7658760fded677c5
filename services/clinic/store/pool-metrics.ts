// The database pool on the clinic's /metrics (Prometheus): connections open, idle, and requests
// waiting for one, read when scraped. A store without a pool (memory) adds nothing.
import { Gauge, type Registry } from 'prom-client';
import type { ClinicStore, PoolStats } from './types.js';

const GAUGES: [keyof PoolStats, string, string][] = [
  ['total', 'clinic_db_pool_clients', 'Connections the database pool holds (busy or idle).'],
  ['idle', 'clinic_db_pool_idle_clients', 'Connections of the database pool waiting for work.'],
  ['waiting', 'clinic_db_pool_waiting_requests', 'Queries waiting for a free connection of the pool.'],
];

export function registerPoolMetrics(registry: Registry, store: ClinicStore): void {
  const stats = store.poolStats?.bind(store);
  if (!stats) return;
  for (const [key, name, help] of GAUGES)
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(stats()[key]);
      },
    });
}
