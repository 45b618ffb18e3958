// Watching a transport's traffic through its public interface: the SDK connects to a stand-in that forwards
// everything to the real transport, and incoming messages pass `onIncoming` before the SDK sees them.

import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

export interface TransportTap {
  /** Each message the server sends, before the SDK handles it. Must not throw or keep the message. */
  onIncoming(message: JSONRPCMessage): void;
  /** Each message the host sends. */
  onOutgoing(message: JSONRPCMessage): void;
}

/**
 * The transport as the SDK should see it. Members are read from and written to the real transport (methods
 * bound to it, so its private fields keep working), except `onmessage`, which the tap sits in front of.
 */
export function tapTransport(transport: Transport, tap: TransportTap): Transport {
  let sdkHandler: Transport['onmessage'];
  transport.onmessage = (message, extra) => {
    tap.onIncoming(message);
    sdkHandler?.(message, extra);
  };
  return new Proxy(transport, {
    get(target, key) {
      if (key === 'onmessage') return sdkHandler;
      if (key === 'send') {
        return (message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]) => {
          tap.onOutgoing(message);
          return target.send(message, options);
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
    set(target, key, value) {
      if (key === 'onmessage') {
        sdkHandler = value as Transport['onmessage'];
        return true;
      }
      return Reflect.set(target, key, value, target);
    },
  });
}
