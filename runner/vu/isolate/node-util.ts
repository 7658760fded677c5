// node:util's format for the VU's code in an isolate: only the fallback of a console line whose
// argument JSON.stringify refused (a cycle, a BigInt), so plain String() of each value.
export function format(_pattern: string, ...values: unknown[]): string {
  return values.map((v) => String(v)).join(' ');
}

export default { format };
