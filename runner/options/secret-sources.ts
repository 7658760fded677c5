// `--secret-source` as k6 v1.3 reads it: `file=[name=N,][default,][filename=]PATH` (KEY=VALUE lines)
// and `mock=[name=N,][default,]KEY=VALUE,...`. A lone source is also the default one. k6 v1.3 has no
// other type (no `url`): any other is refused in k6's words. Errors are one line, exit 255 as k6's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { goQuote } from '@loadlab/k6-format/go-quote';

/** Secrets by source name ('default' included when there is one), then by key. */
export type SecretSources = Record<string, Record<string, string>>;

export class SecretSourceError extends Error {}

/** strings.Cut: the text before and after the first `sep`, and whether there was one. */
function cut(text: string, sep: string): [string, string, boolean] {
  const at = text.indexOf(sep);
  return at < 0 ? [text, '', false] : [text.slice(0, at), text.slice(at + sep.length), true];
}

/** Go's %q for the texts k6 quotes in these messages. */
const quoted = goQuote;

function pairs(entries: string[]): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const entry of entries) {
    const [k, v, ok] = cut(entry, '=');
    if (!ok) throw new SecretSourceError(`parsing ${quoted(entry)}, needs =`);
    secrets[k] = v;
  }
  return secrets;
}

function fileSource(config: string, cwd: string): Record<string, string> {
  let filename = '';
  for (const kv of config.split(',')) {
    const [k, v, ok] = cut(kv, '=');
    if (!ok) filename = kv;
    else if (k === 'filename') filename = v;
    else throw new SecretSourceError(`unknown configuration key for file secret source ${quoted(k)}`);
  }
  let text: string;
  try {
    text = readFileSync(path.resolve(cwd, filename), 'utf8');
  } catch {
    throw new SecretSourceError(`open ${filename}: no such file or directory`);
  }
  // bufio.Scanner's lines: "\n" ends one (a "\r" before it is dropped), a last line may lack it.
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  if (lines.at(-1) === '') lines.pop();
  return pairs(lines);
}

const TYPES: Record<string, (config: string, cwd: string) => Record<string, string>> = {
  file: fileSource,
  mock: (config) => pairs(config.split(',')),
};

export function parseSecretSources(lines: readonly string[], cwd: string): SecretSources {
  const result: SecretSources = {};
  for (const line of lines) {
    const [type, rest, ok] = cut(line, '=');
    if (!ok) throw new SecretSourceError(`couldn't parse secret source configuration ${quoted(line)}`);
    const make = TYPES[type];
    if (!make) {
      throw new SecretSourceError(
        `no secret source for type ${quoted(type)} for configuration ${quoted(line)}`,
      );
    }
    let name = '';
    let isDefault = false;
    const remaining: string[] = [];
    for (const kv of rest.split(',')) {
      if (kv === 'default') isDefault = true;
      else if (cut(kv, '=')[0] === 'name') name = cut(kv, '=')[1];
      else remaining.push(kv);
    }
    const config = remaining.join(',');
    const source = make(config, cwd);
    if (name in result) {
      // k6 names the type here, not the name.
      throw new SecretSourceError(
        `secret source for name ${quoted(type)} already registered before configuration ${quoted(line)}`,
      );
    }
    result[name] = source;
    if (isDefault) {
      if ('default' in result) {
        throw new SecretSourceError(
          `can't have two secret sources that are default ones, second one was ${quoted(config)}`,
        );
      }
      result.default = source;
    }
  }
  const names = Object.keys(result);
  if (names.length === 1) result.default = result[names[0]!]!;
  return result;
}

/**
 * Replaces every secret a script has read with k6's marker, in log messages and field keys and
 * values, as k6's logger hook does: earlier secrets win where two match at one place (Go's Replacer).
 */
export class SecretRedactor {
  private readonly secrets: string[] = [];
  private pattern: RegExp | undefined;

  add(secret: string): void {
    if (this.secrets.includes(secret)) return;
    this.secrets.push(secret);
    this.pattern = new RegExp(
      this.secrets.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
      'g',
    );
  }

  redact(text: string): string {
    return this.pattern ? text.replace(this.pattern, '***SECRET_REDACTED***') : text;
  }

  fields(fields: Record<string, string> | undefined): Record<string, string> | undefined {
    if (!this.pattern || !fields) return fields;
    return Object.fromEntries(Object.entries(fields).map(([k, v]) => [this.redact(k), this.redact(v)]));
  }
}
