// node:vm's runInThisContext for the VU's code in an isolate: the script's bundle evaluated in the
// isolate's one context, under its file name in stack frames (V8 names eval'd code by sourceURL).
export function runInThisContext(code: string, options?: { filename?: string }): unknown {
  const named = options?.filename ? `${code}\n//# sourceURL=${options.filename}` : code;
  return (0, eval)(named) as unknown;
}

export default { runInThisContext };
