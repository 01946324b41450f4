// Types for scripts/build.mjs (imported by tests and benches).
export const root: string;
export function isPackageExternal(id: string): boolean;
export function registrationFiles(): { tag: string; source: string }[];
export function expectedSideEffects(): string[];
/** tag → [export name of its class, files (its own chunk first, then every chunk it imports), tags it renders in its shadow root] */
export type BundleTable = Record<string, [name: string, files: string[], renders?: string[]]>;
export function bundleElements(): { tag: string; name: string; module: string }[];
export const PRELOAD_FILE: string;
export const LOADER: string;
/** The comment that asks Chromium to compile a whole chunk as it streams in (given to the chunks nearly all of whose code runs at an element's first render). */
export const COMPILE_HINT: string;
export function preloadList(table: BundleTable): Record<string, string[]>;
export function preloadLinks(list: Record<string, string[]>, tags: string[], base: string, options?: { endpoint?: string }): string;
export const EVENTS_PATH: string;
/** The build's minifier of Lit's html`` and css`` templates (a Rollup plugin with a `transform` hook). */
export function templateMinifier(): Promise<{ name: string; transform: unknown; enforce: 'post' }>;
/** `previous`: the last release's bundle folder, whose chunks the new bundle keeps (keepPreviousChunks); `now`: when (for the kept list). */
export function buildBundle(options?: { outDir?: string; emptyOutDir?: boolean; sourcemap?: boolean; precompress?: boolean; previous?: string; now?: Date }): Promise<BundleTable>;
export const KEPT_FILE: string;
export const KEEP_MS: number;
export function keepPreviousChunks(outDir: string, previous: string, now?: Date): string[];
export function buildEagerBundle(options: {
  outDir: string;
  entry?: string;
  fileName?: string;
  external?: (id: string) => boolean;
  emptyOutDir?: boolean;
  sourcemap?: boolean;
}): Promise<unknown>;
export function buildLib(options?: { outDir?: string }): Promise<void>;
/** The server modules and the command line (dist/lib/server/cli.js); `declarations: false` skips the .d.ts. */
export function buildServer(options?: { outDir?: string; declarations?: boolean }): Promise<void>;
export function buildDeclarations(options?: { outDir?: string }): void;
export function createManifest(): Promise<CustomElementsManifest>;
export function manifestText(manifest: CustomElementsManifest): string;
export function buildManifest(options?: { outFile?: string }): Promise<string>;
export function buildDemo(options?: { outDir?: string; bundleDir?: string }): void;
export function checkPackageJson(): void;
export function updateReactTypes(manifest: CustomElementsManifest): void;
export function buildWordPressPlugin(options?: { outDir?: string; manifestFile?: string; previous?: string }): Promise<{ zip: string; files: string[] }>;

/** The parts of the custom-elements manifest schema the tests read. */
export interface ManifestItem {
  name: string;
  description?: string;
  default?: string;
  type?: { text: string };
  fieldName?: string;
}
export interface ManifestDeclaration {
  kind: string;
  name: string;
  tagName?: string;
  customElement?: boolean;
  summary?: string;
  description?: string;
  attributes?: ManifestItem[];
  members?: (ManifestItem & { kind: string; static?: boolean; privacy?: string; readonly?: boolean })[];
  events?: ManifestItem[];
  cssParts?: ManifestItem[];
  cssProperties?: ManifestItem[];
  slots?: ManifestItem[];
  superclass?: { name: string; module?: string; package?: string };
}
export interface CustomElementsManifest {
  schemaVersion: string;
  modules: { kind: string; path: string; declarations?: ManifestDeclaration[]; exports?: unknown[] }[];
}
export function updateElementReference(manifest: CustomElementsManifest): Promise<void>;
