export const hostWatchDir: string;
export function buildHostWatch(): Promise<string>;
export function buildTestExtension(dir: string): Promise<void>;
export function developmentFolder(extensionRoot: string, name: string, entries: Record<string, string>): string;
export function hostWatchInstalledName(): string;
