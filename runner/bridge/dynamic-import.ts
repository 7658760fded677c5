// `import()` for the VU worker's bundle. The bundle runs as a vm.Script (host/vu-threads.ts compiles
// it from V8's code cache), where `import()` has no loader: the thread's loader code, which Node
// compiles with one, leaves an import function under this symbol key for the bundle to call.
export const DYNAMIC_IMPORT = 'loadlab.dynamicImport';

/** Imports a module by URL from a VU thread (or, outside one, with this module's own `import()`). */
export function dynamicImport(specifier: string): Promise<unknown> {
  const fromLoader = (globalThis as Record<symbol, ((s: string) => Promise<unknown>) | undefined>)[
    Symbol.for(DYNAMIC_IMPORT)
  ];
  return fromLoader ? fromLoader(specifier) : import(specifier);
}
