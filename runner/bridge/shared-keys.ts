// Keys of the buffers every VU of a run shares (VuConfig.sharedArrays): k6/data's SharedArrays by
// name, and the files read in init by absolute path, each made by the first VU that needs it.

export const sharedArrayKey = (name: string): string => `array:${name}`;

/** A file's bytes, read once per run as k6's init-time file cache reads it. */
export const initFileKey = (absPath: string): string => `file:${absPath}`;

/** A path VU 0 asked for and could not read (missing, a directory): later VUs may ask again. */
export const requestedFileKey = (absPath: string): string => `requested:${absPath}`;

/** Present once VU 0's init is done: from then on a VU may open only what VU 0 opened, as in k6. */
export const FILES_SEALED_KEY = 'files-sealed';
