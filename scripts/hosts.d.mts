// Types for scripts/hosts.mjs.
import type { CustomElementsManifest } from './build.mjs';

export interface HostAttribute {
  name: string;
  property: string;
  type: 'number' | 'boolean' | 'string' | 'enum';
  values?: string[];
  default?: string;
  description: string;
}
export interface HostElement {
  tag: string;
  className: string;
  module: string;
  summary: string;
  container: boolean;
  attributes: HostAttribute[];
  events: { name: string; description: string }[];
}
export const INTERNAL_ATTRIBUTES: Record<string, string[]>;
export function attributeType(typeText: string | undefined, where: string): Pick<HostAttribute, 'type' | 'values'>;
export function hostElements(manifest: CustomElementsManifest): HostElement[];
export function reactTypes(manifest: CustomElementsManifest): string;
export function wordpressElements(manifest: CustomElementsManifest): {
  generated: string;
  elements: (Omit<HostElement, 'className' | 'module' | 'events' | 'container'> & { title: string })[];
};
