// Errors that k6 raises from its Go code reach scripts as GoError: `String(e)` reads `GoError: <message>`.

export function goError(message: string): Error {
  const err = new Error(message);
  err.name = 'GoError';
  return err;
}
