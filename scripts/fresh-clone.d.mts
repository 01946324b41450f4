// Types for scripts/fresh-clone.mjs.
export function cleanEnv(extra?: Record<string, string>): NodeJS.ProcessEnv;
export function freshClone(options?: { registry?: boolean; log?: (line: string) => void }): { dir: string; remove: () => void };
export function runIn(
  dir: string,
  command: string,
  args: string[],
  options?: { echo?: boolean; env?: Record<string, string> },
): Promise<{ code: number; output: string }>;
