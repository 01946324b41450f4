export declare const chromiumArgs: string[];
export declare function chromiumPath(): string;
export declare function chromiumLaunchOptions(): { executablePath: string; headless: boolean; args: string[] };
