// One rule for text before any store sees it: PostgreSQL's text cannot hold U+0000 (it answered
// 400 naming no field, quoting the driver) while the in-memory store stored it. Both now refuse it
// here, naming the field, as a validation error.
import type { ValidationItem } from './contract.js';

const NUL = '\u0000';

/** The fields (`name`, `type.name`, `specialties[0].name`) whose string value holds NUL. */
export function fieldsWithNul(value: unknown, path = ''): string[] {
  if (typeof value === 'string') return value.includes(NUL) ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => fieldsWithNul(v, `${path}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => fieldsWithNul(v, path ? `${path}.${k}` : k));
  return [];
}

/** Validation items for every field of `value` that holds NUL (none: empty). */
export function nulErrors(value: unknown): ValidationItem[] {
  return fieldsWithNul(value).map((field) => {
    const reason = 'must not contain the NUL character (U+0000)';
    return {
      message: `Field '${field}' ${reason}`,
      field,
      rejectedValue: '',
      defaultMessage: reason,
    };
  });
}
