// Types for scripts/docs.mjs.
import type { CustomElementsManifest, ManifestDeclaration } from './build.mjs';
export const START: string;
export const END: string;
export function elementsOf(manifest: CustomElementsManifest): ManifestDeclaration[];
export function elementsReference(manifest: CustomElementsManifest): string;
export const REFERENCE_PAGE: string;
export function withReference(page: string, manifest: CustomElementsManifest): string;
