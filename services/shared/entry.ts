// "Is this module the script node was started with?" Comparing import.meta.url with
// `file://${argv[1]}` breaks on paths that URL-encode (a space becomes %20), and then the
// service silently never starts; compare URLs built the same way instead.
import { pathToFileURL } from 'node:url';

export function isEntryPoint(moduleUrl: string, argv1: string | undefined = process.argv[1]): boolean {
  return argv1 !== undefined && moduleUrl === pathToFileURL(argv1).href;
}
