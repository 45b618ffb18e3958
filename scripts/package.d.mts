export function zipEntries(file: string): string[];
export function zipEntry(file: string, name: string): Buffer;
export function packageVsix(out?: string): string;
