/**
 * An input the host refused locally, before anything was sent to the server
 * (a file over its limit or off its accepted types, a form value that fails its schema).
 * The message names the argument and the limit. The CLI exits 1 on it.
 */
export class InputRefusedError extends Error {
  override readonly name = 'InputRefusedError';
  constructor(message: string, readonly argument?: string) {
    super(message);
  }
}
