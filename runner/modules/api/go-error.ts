// Errors that k6 raises from its Go code reach scripts as GoError: `String(e)` reads `GoError: <message>`.

export function goError(message: string): Error {
  const err = new Error(message);
  err.name = 'GoError';
  return err;
}

/**
 * A Go error as k6 rejects a promise with it: an object whose string is the message alone, with no
 * name or message property; its only key is Go's Error() method (`error`), and JSON.stringify of it
 * is `{}`.
 */
export class GoRejection {
  readonly #message: string;
  readonly error: () => string;

  constructor(message: string) {
    this.#message = message;
    this.error = () => message;
  }

  toString(): string {
    return this.#message;
  }
}
