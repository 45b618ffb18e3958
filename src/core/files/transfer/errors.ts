// The transfer client's errors, in a module of their own: the file-value encoder (in the extension's own bundle)
// tells them apart without loading the transfer client and the SDK schemas it uses.
import { HostError } from '../../errors';
import type { RefusalData } from './protocol';

/** The server does not implement the method (-32601), or transfer is turned off. */
export class TransferUnsupportedError extends HostError {
  static override readonly brand: string = 'TransferUnsupportedError';
}

/** The server refused the file (-32602 and the like), with its machine-readable reason when it gave one. */
export class TransferRefusedError extends HostError {
  static override readonly brand: string = 'TransferRefusedError';
  constructor(
    message: string,
    readonly code: number | undefined,
    readonly data: RefusalData | undefined,
  ) {
    super(message);
  }
}
