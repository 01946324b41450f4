// Types for scripts/docs.mjs.
import type { CustomElementsManifest, ManifestDeclaration } from './build.mjs';
export const START: string;
export const END: string;
export const TOKENS_START: string;
export const TOKENS_END: string;
/** src/elements/tokens.ts, loaded in Node. */
export type Tokens = typeof import('../src/elements/tokens.ts');
export function loadTokens(): Promise<Tokens>;
export function tokensTable(tokens: Tokens): string;
export function elementsOf(manifest: CustomElementsManifest): ManifestDeclaration[];
export function elementsReference(manifest: CustomElementsManifest): string;
export const REFERENCE_PAGE: string;
export function withReference(page: string, manifest: CustomElementsManifest): string;
export const TOKENS_PAGE: string;
export function withTokens(page: string, tokens: Tokens): string;
