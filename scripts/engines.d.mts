export declare const ENGINES: readonly ['chromium', 'firefox', 'webkit'];
export type Engine = (typeof ENGINES)[number];
export declare function firefoxPath(): string;
export declare function miniBrowserPath(): string;
export declare function missing(engine: Engine): string[];
export declare function firefoxLaunchOptions(options?: { colorScheme?: 'light' | 'dark' }): {
  browser: 'firefox';
  executablePath: string;
  headless: boolean;
  extraPrefsFirefox: Record<string, number | boolean>;
};
export declare function freePort(): Promise<number>;
export declare function startXvfb(): Promise<{ display: string; stop: () => void }>;
export declare function startWebKitDriver(options: { display: string; env?: Record<string, string> }): Promise<{ port: number; stop: () => void }>;
export declare function webkitCapabilities(): {
  browserName: string;
  'wdio:enforceWebDriverClassic': boolean;
  'webkitgtk:browserOptions': { binary: string; args: string[] };
};
export declare function webkitThemeEnv(colorScheme?: 'light' | 'dark'): { GTK_THEME: string };
export declare function setWebKitViewport(driver: WebdriverIO.Browser, size: { width: number; height: number }): Promise<void>;
