export const testModelDir: string;
export function buildTestModel(): Promise<string>;
export function withTestModel(extensionRoot: string): Promise<string>;
export const testAccountsDir: string;
export function buildTestAccounts(): Promise<string>;
