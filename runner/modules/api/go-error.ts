// Errors that k6 raises from its Go code reach scripts as GoError: `String(e)` reads `GoError: <message>`.

export function goError(message: string): Error {
  const err = new Error(message);
  err.name = 'GoError';
  return err;
}

/** A Go error as k6 rejects a promise with it: an object whose string is the message alone (no name). */
export class GoRejection {
  constructor(readonly message: string) {}
}
Object.defineProperty(GoRejection.prototype, 'toString', {
  value(this: GoRejection) {
    return this.message;
  },
});
