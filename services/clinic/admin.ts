// The secured instance's first admin (every role), from ADMIN_USER / ADMIN_PASSWORD, never from
// source. The environment is the truth on every start: the stored admin gets the configured
// password, every role and `enabled` back, so rotating ADMIN_PASSWORD (and restarting) retires the
// old one, and a weak password stored by an earlier throwaway start does not outlive it.
import type { ClinicConfig } from './config.js';
import { hashPassword, ROLES } from './security.js';
import { StoreRejected, type ClinicStore, type UserRecord } from './store/types.js';

export async function ensureAdmin(store: ClinicStore, config: ClinicConfig): Promise<void> {
  if (!config.securityEnabled || !config.adminPassword) return;
  const username = config.adminUser ?? 'admin';
  const admin: Omit<UserRecord, 'id'> = {
    username,
    passwordHash: hashPassword(config.adminPassword),
    enabled: true,
    roles: Object.values(ROLES),
  };
  const [existing] = await store.users.listBy('username', username);
  if (existing) {
    await store.users.update(existing.id, admin);
    return;
  }
  try {
    await store.users.insert(admin);
  } catch (error) {
    // Another process on the same database created it between our read and our insert
    // (two instances started together): theirs stands, with our (the same) configuration.
    if (!(error instanceof StoreRejected && error.kind === 'duplicate')) throw error;
    const [theirs] = await store.users.listBy('username', username);
    if (!theirs) throw error;
    await store.users.update(theirs.id, admin);
  }
}
