// Types of runner-package.js (plain JavaScript: bin/compiled-runner.js loads it before any TypeScript loader).
export declare const REPO: string;
export declare const RUNNER_PACKAGES: string[];
export declare const PACKAGE_README: string;
export declare function walk(dir: string, files?: string[]): string[];
export declare function shippedFiles(dir: string): string[];
export declare function isSource(file: string): boolean;
export declare function compileSources(sources: string[], outdir: string, outbase: string): Promise<void>;
export declare function publishedManifest(dir: string, files: string[]): Record<string, unknown>;
export declare function stagePackage(dir: string, target: string): Promise<void>;
export declare const BUNDLED_ENTRIES: Record<string, string[]>;
export declare const BUNDLE_DIR: string;
