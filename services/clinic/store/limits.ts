// What each column can hold, in one place: the PostgreSQL schema declares these sizes and the
// in-memory store enforces them, so a value too long for a column is the same 400 on both.
import { StoreRejected } from './types.js';

export const VARCHAR = {
  personName: 30,
  address: 255,
  city: 80,
  telephone: 20,
  petName: 30,
  description: 255,
  typeName: 80,
  username: 20,
  role: 20,
} as const;

/** Characters as PostgreSQL (and JSON Schema's maxLength) count them: code points, not UTF-16 units. */
function characters(value: string): number {
  let n = 0;
  for (const _ of value) n += 1;
  return n;
}

/** Rejects a string longer than its column (PostgreSQL's 22001 string_data_right_truncation). */
export function checkLength(field: string, value: string, max: number): void {
  if (value.length > max && characters(value) > max)
    throw new StoreRejected('value', `${field} is longer than ${max} characters`, field, value);
}

/** Rejects a date PostgreSQL's DATE cannot hold: ISO dates here have 4-digit years, so only year 0. */
export function checkDate(field: string, value: string): void {
  if (/^0000-/.test(value))
    throw new StoreRejected('value', `${field} ${value} is out of range`, field, value);
}
