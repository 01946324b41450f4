/**
 * What a test asks of the browser beyond the page, in every engine the suite runs in
 * (web-test-runner.config.mjs, its `engine` command). Where the engine's driver can emulate it
 * (Chromium: everything; Firefox: viewport, time zone, keys), it is emulated; where it cannot,
 * the config runs the calling file again in a browser launched with it (Firefox and WebKit: a
 * browser preferring dark; WebKit: one per visitor zone, TZ in its environment), and these
 * helpers say which case this browser is, so that each test covers what its browser can show.
 */
import { executeServerCommand } from '@web/test-runner-commands';

type Scheme = 'light' | 'dark';
type Emulation<T> = { emulated: true } | { emulated: false; launchedWith: T };

const command = <R>(payload: Record<string, unknown>) => executeServerCommand<R, Record<string, unknown>>('engine', payload);

/** The browser's inner size (a window size in WebKit). */
export async function setViewport(size: { width: number; height: number }): Promise<void> {
  await command({ action: 'viewport', ...size });
  await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
}

/** Keys held while one more is pressed: `chord(['Control'], 'End')`. */
export async function chord(hold: string[], press: string): Promise<void> {
  await command({ action: 'chord', hold, press });
}

/**
 * The visitor's colour-scheme preferences this browser can show: both where the driver emulates
 * it (`prefer` switches, live), else only the one it was launched with (the same test runs again
 * in a browser launched with the other).
 */
export async function visitorPrefers(): Promise<{ schemes: Scheme[]; live: boolean; prefer: (scheme: Scheme) => Promise<void> }> {
  const probe = await command<Emulation<Scheme>>({ action: 'color-scheme', scheme: 'light' });
  if (probe.emulated) {
    return { schemes: ['light', 'dark'], live: true, prefer: async (scheme) => { await command({ action: 'color-scheme', scheme }); } };
  }
  const own = probe.launchedWith;
  return {
    schemes: [own],
    live: false,
    prefer: async (scheme) => {
      if (scheme !== own) throw new Error(`this browser was launched preferring ${own}; it cannot be switched to ${scheme}`);
    },
  };
}

/** Back to the default preference (light) where it can be switched; nothing where it cannot. */
export async function resetVisitorPreference(): Promise<void> {
  await command({ action: 'color-scheme', scheme: 'light' });
}

/**
 * Of the visitor zones a test wants, those this browser can be in: every one where the driver
 * emulates the zone (`enter` sets it), else the one its process was started in, if wanted (the
 * config starts a browser per zone). `zoneOnly`: this browser was started only to be the visitor
 * in its zone (the file runs in the engine's main browser too): a file registers only its tests of
 * the visitor's zone there (`describeBesideZones`).
 */
export async function visitorZones(wanted: string[]): Promise<{ zones: string[]; zoneOnly: boolean; enter: (zone: string | undefined) => Promise<void> }> {
  const probe = await command<Emulation<string | null> & { zoneOnly?: boolean }>({ action: 'time-zone', wanted });
  if (probe.emulated) {
    return { zones: wanted, zoneOnly: false, enter: async (timeZone) => { await command({ action: 'time-zone', timeZone: timeZone ?? null }); } };
  }
  const own = probe.launchedWith;
  return {
    zones: own && wanted.includes(own) ? [own] : [],
    zoneOnly: probe.zoneOnly === true,
    enter: async (zone) => {
      if (zone !== undefined && zone !== own) throw new Error(`this browser runs in ${own ?? 'the machine\'s zone'}; it cannot enter ${zone}`);
    },
  };
}

/**
 * `describe` for a file's tests that do not depend on the visitor's zone; in a browser started only
 * to be the visitor in another zone (WebKit's zone browsers), nothing: they ran in the main one.
 */
export function describeBesideZones(visitor: { zoneOnly: boolean }): (name: string, fn: () => void) => void {
  return visitor.zoneOnly ? () => undefined : describe;
}

/**
 * Screens this browser can show: a touch screen (`pointer: coarse`) and a mouse where the driver
 * emulates touch (Chromium), else only the mouse it has.
 */
export async function visitorPointers(): Promise<{ touch: boolean[]; use: (touch: boolean) => Promise<void> }> {
  const probe = await command<Emulation<boolean>>({ action: 'touch', enabled: false });
  if (probe.emulated) return { touch: [false, true], use: async (enabled) => { await command({ action: 'touch', enabled }); } };
  return {
    touch: [false],
    use: async (enabled) => {
      if (enabled) throw new Error('this browser has no touch emulation');
    },
  };
}

/**
 * Forced colours (Windows High Contrast) this browser can show, as the palettes of a light and a
 * dark page: both where the driver emulates them (Chromium; `force` switches them, live), else
 * the one palette it was launched with (Firefox: the same file runs in a browser launched with the
 * other), or none: `engineHasMode` false where the engine has no forced-colours mode (WebKitGTK).
 */
export async function visitorForcedColours(): Promise<{
  schemes: Scheme[];
  live: boolean;
  engineHasMode: boolean;
  force: (active: boolean, scheme: Scheme) => Promise<void>;
}> {
  const probe = await command<{ emulated: true } | { emulated: false; launchedWith: Scheme | null; engineHasMode: boolean }>({ action: 'forced-colours' });
  if (probe.emulated) {
    return {
      schemes: ['light', 'dark'],
      live: true,
      engineHasMode: true,
      force: async (active, scheme) => {
        await executeServerCommand('emulate-forced-colours', { forcedColors: active ? 'active' : 'none', colorScheme: scheme });
      },
    };
  }
  const own = probe.launchedWith;
  return {
    schemes: own ? [own] : [],
    live: false,
    engineHasMode: probe.engineHasMode,
    force: async (active, scheme) => {
      if (!own || !active || scheme !== own) throw new Error(`this browser's forced colours are fixed at launch (${own ?? 'none'}); it cannot be switched to ${active ? scheme : 'none'}`);
    },
  };
}

/**
 * The languages this engine walks every state in (the every-language files): all in Chromium; in
 * Firefox and WebKit the few whose Intl differs most (web-test-runner.config.mjs says which and why).
 */
export async function engineLanguages<T extends string>(all: readonly T[]): Promise<{ languages: T[]; engine: string }> {
  const { only, engine } = await command<{ only: string[] | null; engine: string }>({ action: 'languages' });
  return { languages: only ? all.filter((l) => only.includes(l)) : [...all], engine };
}
