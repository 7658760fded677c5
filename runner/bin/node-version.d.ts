// Types of node-version.js (plain JavaScript so that an old Node can run it).
export declare function lowestAllowed(range: string): number[] | undefined;
export declare function nodeVersionProblem(version: string, range: string): string | undefined;
export declare function refuseOldNode(manifestUrl: URL, version?: string): void;
