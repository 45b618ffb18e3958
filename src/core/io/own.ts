// Lookups by a name that came from a file, a server or an environment: only the object's own keys count, so
// `constructor`, `toString` or `__proto__` never reach Object.prototype.

/** `obj[key]` when `key` is the object's own, else undefined. */
export function getOwn<T>(obj: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return obj !== undefined && Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Sets `obj[key]` as an own data property, even for `__proto__` (which plain assignment would not create). */
export function setOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}
