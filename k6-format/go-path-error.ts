// File errors as k6 prints them: Go's *os.PathError reads "<op> <path>: <errno text>", where Node
// says "ENOENT: no such file or directory, open '<path>'".

/** strerror texts Go prints for the errors a file open or write can meet. */
const ERRNO_TEXT: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EEXIST: 'file exists',
  ENAMETOOLONG: 'file name too long',
};

/** `open results/x.json: no such file or directory` for a Node file error on `path`. */
export function goPathError(op: string, path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const text = (code && ERRNO_TEXT[code]) ?? (error as Error | undefined)?.message ?? String(error);
  return `${op} ${path}: ${text}`;
}
