// Types for scripts/size.mjs.
export interface Size { raw: number; gzip: number; brotli: number }
export function sizeOf(bytes: Uint8Array): Size;
export function measureDir(dir: string, entry?: string): (Size & { name: string })[];
export function sizeBudget(packageJsonPath: string): { loaderGzip: number; pagesGzip: Record<string, number> };
