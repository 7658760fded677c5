// The seeded team the users list returns; the demo user is first so pages show who logged in.
export interface User {
  id: number;
  name: string;
  email: string;
  role: 'admin' | 'engineer' | 'analyst' | 'viewer';
}

const TEAM: readonly Omit<User, 'id'>[] = [
  { name: 'Ada Quality', email: 'ada@loadlab.local', role: 'admin' },
  { name: 'Brook Latency', email: 'brook@loadlab.local', role: 'engineer' },
  { name: 'Cyril Throughput', email: 'cyril@loadlab.local', role: 'engineer' },
  { name: 'Dana Percentile', email: 'dana@loadlab.local', role: 'analyst' },
  { name: 'Emil Soak', email: 'emil@loadlab.local', role: 'engineer' },
  { name: 'Fatima Spike', email: 'fatima@loadlab.local', role: 'analyst' },
  { name: 'Goran Breakpoint', email: 'goran@loadlab.local', role: 'engineer' },
  { name: 'Hana Threshold', email: 'hana@loadlab.local', role: 'viewer' },
  { name: 'Ivo Smoke', email: 'ivo@loadlab.local', role: 'viewer' },
  { name: 'Jun Journey', email: 'jun@loadlab.local', role: 'analyst' },
  { name: 'Kemal Gateway', email: 'kemal@loadlab.local', role: 'engineer' },
];

export function seedUsers(demoEmail: string): User[] {
  const demo: Omit<User, 'id'> = { name: 'Demo User', email: demoEmail, role: 'admin' };
  return [demo, ...TEAM.filter((u) => u.email !== demoEmail)].map((u, i) => ({ id: i + 1, ...u }));
}
