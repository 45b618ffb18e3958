/**
 * The `default` of a switch over a discriminated union: the compiler refuses the switch once a new member is not
 * handled, and a value no type allowed (a peer on another version) fails loudly here instead of being skipped.
 */
export function assertNever(value: never, what: string): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)?.slice(0, 200)}`);
}
