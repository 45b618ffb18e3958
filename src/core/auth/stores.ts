import { chmod, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TokenStore } from './types';

/** Keeps sign-in state for this process only (`--no-token-store`, tests). */
export class MemoryTokenStore implements TokenStore {
  readonly values = new Map<string, string>();
  async get(key: string) {
    return this.values.get(key);
  }
  async set(key: string, value: string) {
    this.values.set(key, value);
  }
  async delete(key: string) {
    this.values.delete(key);
  }
}

/** The CLI's token file: `$XDG_CONFIG_HOME/mcp-host/tokens.json` (`%APPDATA%` on Windows, `~/Library/Application Support` on macOS). */
export function defaultTokenFile(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const base =
    platform === 'win32'
      ? (env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? join(homedir(), 'Library', 'Application Support')
        : env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'mcp-host', 'tokens.json');
}

/** A larger token file is refused rather than read. */
const MAX_TOKEN_FILE_BYTES = 4 * 1024 * 1024;

/**
 * One JSON file of key -> value, readable and writable only by the user (0600, its directory 0700),
 * replaced atomically on every change.
 */
export class FileTokenStore implements TokenStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string) {}

  private async readAll(): Promise<Record<string, string>> {
    let text: string;
    try {
      const handle = await open(this.file, 'r');
      try {
        const { size } = await handle.stat();
        if (size > MAX_TOKEN_FILE_BYTES)
          throw new Error(`the token file ${this.file} is larger than ${MAX_TOKEN_FILE_BYTES} bytes; remove it to sign in again`);
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw e;
    }
    try {
      const parsed = JSON.parse(text) as unknown;
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
    } catch {
      return {};
    }
  }

  private async writeAll(values: Record<string, string>): Promise<void> {
    const dir = dirname(this.file);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    if (Object.keys(values).length === 0) {
      await unlink(this.file).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
      });
      return;
    }
    const tmp = `${this.file}.${process.pid}.tmp`;
    const handle = await open(tmp, 'w', 0o600);
    try {
      await handle.writeFile(JSON.stringify(values, null, 2));
    } finally {
      await handle.close();
    }
    await chmod(tmp, 0o600);
    await rename(tmp, this.file);
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  get(key: string): Promise<string | undefined> {
    return this.serial(async () => (await this.readAll())[key]);
  }

  set(key: string, value: string): Promise<void> {
    return this.serial(async () => {
      const all = await this.readAll();
      all[key] = value;
      await this.writeAll(all);
    });
  }

  delete(key: string): Promise<void> {
    return this.serial(async () => {
      const all = await this.readAll();
      if (!(key in all)) return;
      delete all[key];
      await this.writeAll(all);
    });
  }
}

/** Exported for tests: the file's text, or undefined. */
export async function readTokenFileText(file: string): Promise<string | undefined> {
  return readFile(file, 'utf8').catch(() => undefined);
}
