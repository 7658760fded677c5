// Test support: the rows of upstream's data.sql (`INSERT INTO t (cols) VALUES (...), (...);`) as
// objects, so tests compare the clinic's seed with the SQL itself instead of a second hand copy.
export type SqlValue = string | number | boolean;
export type SqlRow = Record<string, SqlValue>;

function values(tuple: string): SqlValue[] {
  const out: SqlValue[] = [];
  const token = /\s*('(?:[^']|'')*'|[^,]+)\s*(?:,|$)/gy;
  let match: RegExpExecArray | null;
  while ((match = token.exec(tuple)) && match[0] !== '') {
    const raw = match[1]!.trim();
    if (raw.startsWith("'")) out.push(raw.slice(1, -1).replace(/''/g, "'"));
    else if (/^(TRUE|FALSE)$/i.test(raw)) out.push(raw.toUpperCase() === 'TRUE');
    else out.push(Number(raw));
  }
  return out;
}

/** Every table's rows in insert order (row i has the identity id i + 1, as in H2). */
export function sqlRows(sql: string): Map<string, SqlRow[]> {
  const tables = new Map<string, SqlRow[]>();
  const withoutComments = sql.replace(/--[^\n]*/g, '');
  const insert = /INSERT INTO (\w+)\s*\(([^)]*)\)\s*VALUES\s*([\s\S]*?);/gi;
  for (const [, table, cols, body] of withoutComments.matchAll(insert)) {
    const columns = cols!.split(',').map((c) => c.trim());
    const rows = tables.get(table!) ?? [];
    for (const [, tuple] of body!.matchAll(/\(((?:'(?:[^']|'')*'|[^)'])*)\)/g)) {
      const v = values(tuple!);
      rows.push(Object.fromEntries(columns.map((c, i) => [c, v[i]!])));
    }
    tables.set(table!, rows);
  }
  return tables;
}
