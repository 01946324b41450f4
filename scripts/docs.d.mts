// Types for scripts/docs.mjs.
import type { CustomElementsManifest, ManifestDeclaration } from './build.mjs';
export const START: string;
export const END: string;
export function elementsOf(manifest: CustomElementsManifest): ManifestDeclaration[];
export function elementsReference(manifest: CustomElementsManifest): string;
export function readmeWithReference(readme: string, manifest: CustomElementsManifest): string;
