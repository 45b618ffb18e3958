export function zipEntries(file: string): string[];
export function packageVsix(out?: string): string;
