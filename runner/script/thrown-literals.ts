// Whether a script may throw a value that is not an Error, read from its bundled code: such a value
// has no stack, and the VU then needs a debugger session to print the frames of its throw
// (vu/thrown-values.ts), which only a worker host has (host/vu-host-choice.ts).

/**
 * A `throw` of a literal (string, template, number, `undefined`, `null`, boolean) or of a
 * concatenation starting with one: the script may throw a value without a stack. A rethrow
 * (`throw e`) is not counted: it is nearly always an Error, and the session adds ~100 ms of CPU to
 * each VU's start (bench:vu-start).
 */
export function mayThrowNonErrors(code: string): boolean {
  return /\bthrow\s*(?:['"`\d.-]|(?:undefined|null|true|false|void)\b)/.test(code);
}
