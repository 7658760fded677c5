// Turns esbuild's ES module bundle of a script with top-level await into the body of an async
// function that the VU worker evaluates like the CommonJS bundle (same `require` shim, same
// `module.exports`). Only the bundle's own module syntax is rewritten: its `import … from "k6…"`
// statements (the k6 modules are the only imports a bundle keeps) and its closing `export { … }`.
// Lines keep their numbers, so the bundle's source map still points into the user's files.

/** The code to put inside the async function, and what to declare before it on the first line. */
export interface AsyncBody {
  /** Declarations of the imported bindings, one line of code (goes on the bundle's first line). */
  prelude: string;
  /** The bundle with its import statements blanked and its export clause turned into getters. */
  body: string;
}

const IMPORT = /^import\s+(?:([^;"']*?)\s+from\s+)?"(k6(?:\/[^"]*)?)";[ \t]*$/gm;
const EXPORT = /^export\s*\{([^}]*)\};?[ \t]*$/gm;
const NAME = /^[A-Za-z_$][\w$]*$/;

/** Same number of newlines as `text`, so the lines after it keep their numbers. */
function blankLines(text: string): string {
  return '\n'.repeat(text.split('\n').length - 1);
}

function checkName(name: string, statement: string): string {
  if (!NAME.test(name)) throw new Error(`unexpected import binding ${JSON.stringify(name)} in ${statement}`);
  return name;
}

/**
 * `var` bindings for one import clause, as the CommonJS bundle's interop reads a k6 module
 * (runner/modules: `default` is the module itself; a namespace import is the module object).
 */
function bindings(clause: string, moduleVar: string, statement: string): string[] {
  const out: string[] = [];
  let rest = clause.trim();
  if (rest && !rest.startsWith('{') && !rest.startsWith('*')) {
    const comma = rest.indexOf(',');
    const def = comma < 0 ? rest : rest.slice(0, comma);
    out.push(`${checkName(def.trim(), statement)} = ${moduleVar}.default`);
    rest = comma < 0 ? '' : rest.slice(comma + 1).trim();
  }
  const ns = /^\*\s+as\s+(\S+)$/.exec(rest);
  if (ns) out.push(`${checkName(ns[1]!, statement)} = ${moduleVar}`);
  else if (rest.startsWith('{')) {
    for (const item of rest.slice(1, rest.lastIndexOf('}')).split(',')) {
      const parts = item.trim().split(/\s+as\s+/);
      if (!parts[0]) continue;
      const imported = parts[0].replace(/^"(.*)"$/, '$1');
      const local = checkName(parts[1] ?? parts[0], statement);
      out.push(`${local} = ${moduleVar}[${JSON.stringify(imported)}]`);
    }
  } else if (rest) throw new Error(`unexpected import clause in ${statement}`);
  return out;
}

/** Getters on module.exports for `export { a as default, b }`, live as ES module exports are. */
function exportGetters(list: string): string {
  const getters = list
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const [local, exported] = item.split(/\s+as\s+/);
      const key = JSON.stringify((exported ?? local!).replace(/^"(.*)"$/, '$1'));
      return `Object.defineProperty(module.exports, ${key}, { enumerable: true, get: () => ${local} });`;
    });
  return getters.join(' ');
}

export function esmToAsyncBody(code: string): AsyncBody {
  const prelude: string[] = [];
  let n = 0;
  let body = code.replace(IMPORT, (statement, clause: string | undefined, name: string) => {
    const moduleVar = `__k6_module_${n++}`;
    prelude.push(`${moduleVar} = require(${JSON.stringify(name)})`);
    if (clause) prelude.push(...bindings(clause, moduleVar, statement));
    return blankLines(statement);
  });
  body = body.replace(EXPORT, (statement, list: string) => exportGetters(list) + blankLines(statement));
  return { prelude: prelude.length > 0 ? `var ${prelude.join(', ')};` : '', body };
}
