// The secured instance's first admin (every role), from ADMIN_USER / ADMIN_PASSWORD, never from
// source; stored once per store, so a restarted instance on a database keeps the admin it made.
import type { ClinicConfig } from './config.js';
import { hashPassword, ROLES } from './security.js';
import type { ClinicStore } from './store/types.js';

export async function ensureAdmin(store: ClinicStore, config: ClinicConfig): Promise<void> {
  if (!config.securityEnabled || !config.adminPassword) return;
  const username = config.adminUser ?? 'admin';
  if ((await store.users.listBy('username', username)).length > 0) return;
  await store.users.insert({
    username,
    passwordHash: hashPassword(config.adminPassword),
    enabled: true,
    roles: Object.values(ROLES),
  });
}
