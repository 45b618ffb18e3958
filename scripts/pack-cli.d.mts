export function packCli(outDir?: string): string;
