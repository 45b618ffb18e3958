export function checkNode(): void;
export function ensureSystemPackages(options?: { workbench?: boolean }): void;
export function ensureNpmDependencies(): void;
export function ensureWorkbenchTools(): Promise<void>;
export function ensurePrerequisites(options?: { workbench?: boolean }): Promise<void>;
