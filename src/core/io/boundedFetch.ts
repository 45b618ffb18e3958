// The fetch handed to the SDK's HTTP transports: every response body is capped (a JSON answer as a whole,
// an event stream per event), and every request ends when the connection's signal fires (stop, a deadline).
import { formatBytes } from '../files/limits';

/** A server's message went over the size limit; what was read is dropped and the transfer stopped. */
export class MessageTooLargeError extends Error {
  override readonly name = 'MessageTooLargeError';
  constructor(readonly limitBytes: number, what: string) {
    super(`the server sent ${what} over ${formatBytes(limitBytes)}, the message size limit`);
  }
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface FetchBounds {
  /** The most bytes of one JSON answer or one SSE event. */
  maxMessageBytes: number;
  /** Aborts every request in flight and every one made later (the connection is stopping or gave up). */
  signal: AbortSignal;
  /** A body went over the limit (its transfer is stopped; the caller closes the connection, as on stdio). */
  onTooLarge?: (error: MessageTooLargeError) => void;
  /** Sees the data of each whole `message` event and may replace it (an answer the SDK would drop). */
  eventData?: (data: string) => string;
}

/** A fetch whose bodies are capped and whose requests end with `bounds.signal`. */
export function boundedFetch(bounds: FetchBounds, base: Fetch = fetch): Fetch {
  return async (url, init) => {
    const signal = init?.signal ? AbortSignal.any([init.signal, bounds.signal]) : bounds.signal;
    const response = await base(url, { ...init, signal });
    if (!response.body) return response;
    const isEventStream = /^\s*text\/event-stream/i.test(response.headers.get('content-type') ?? '');
    const declared = Number(response.headers.get('content-length') ?? NaN);
    const tooLarge = (e: MessageTooLargeError) => { bounds.onTooLarge?.(e); return e; };
    if (!isEventStream && declared > bounds.maxMessageBytes) {
      await response.body.cancel().catch(() => undefined);
      throw tooLarge(new MessageTooLargeError(bounds.maxMessageBytes, `an answer of ${formatBytes(declared)},`));
    }
    const body = response.body.pipeThrough(isEventStream ? eventCap(bounds.maxMessageBytes, tooLarge, bounds.eventData) : totalCap(bounds.maxMessageBytes, tooLarge));
    const capped = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    // The SDK reads where a redirect came from; a new Response has no URL of its own.
    Object.defineProperty(capped, 'url', { value: response.url });
    return capped;
  };
}

/** Errors the stream (which cancels the source: the transfer stops) once it carries more than `max` bytes. */
type OnTooLarge = (e: MessageTooLargeError) => MessageTooLargeError;

function totalCap(max: number, tooLarge: OnTooLarge): TransformStream<Uint8Array, Uint8Array> {
  let total = 0;
  return new TransformStream({
    transform(chunk, controller) {
      total += chunk.byteLength;
      if (total > max) controller.error(tooLarge(new MessageTooLargeError(max, 'an answer')));
      else controller.enqueue(chunk);
    },
  });
}

/**
 * Passes server-sent events on whole (the bytes up to and including the blank line that ends each), and errors
 * the stream once one event is over `max` bytes. Handing the SDK's event parser whole events keeps its work
 * linear: fed an endless event piece by piece, it slows down as the event grows.
 */
function eventCap(max: number, tooLarge: OnTooLarge, eventData?: (data: string) => string): TransformStream<Uint8Array, Uint8Array> {
  let pending: Uint8Array[] = [];
  const pass = (event: Uint8Array) => (eventData ? rewriteEvent(event, eventData) : event);
  let eventBytes = 0;
  let atLineStart = true;
  let afterCr = false;
  return new TransformStream({
    transform(chunk, controller) {
      let from = 0;
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i]!;
        if (b === 10 || b === 13) {
          if (b === 10 && afterCr) { afterCr = false; continue; }   // the LF of a CRLF
          afterCr = b === 13;
          if (atLineStart) {
            // A blank line: the event is complete (a CR may still be followed by its LF, which goes with the next).
            pending.push(chunk.subarray(from, i + 1));
            controller.enqueue(pass(pending.length === 1 ? pending[0]! : concat(pending)));
            pending = [];
            from = i + 1;
            eventBytes = 0;
          }
          atLineStart = true;
        } else {
          atLineStart = false;
          afterCr = false;
          if (++eventBytes > max) {
            pending = [];
            controller.error(tooLarge(new MessageTooLargeError(max, 'an event')));
            return;
          }
        }
      }
      if (from < chunk.length) pending.push(chunk.subarray(from));
    },
    flush(controller) {
      if (pending.length) controller.enqueue(concat(pending));
    },
  });
}

/** One whole event with its data replaced by `eventData`'s answer; unchanged when the answer is the same. */
function rewriteEvent(event: Uint8Array, eventData: (data: string) => string): Uint8Array {
  const lines = new TextDecoder().decode(event).split(/\r\n|\r|\n/);
  const field = (line: string) => { const c = line.indexOf(':'); return c === -1 ? [line, ''] : [line.slice(0, c), line.slice(c + 1).replace(/^ /, '')]; };
  const type = lines.map(field).find(([name]) => name === 'event')?.[1];
  if (type !== undefined && type !== 'message') return event;
  const data = lines.map(field).filter(([name]) => name === 'data').map(([, value]) => value);
  if (data.length === 0) return event;
  const before = data.join('\n');
  const after = eventData(before);
  if (after === before) return event;
  const kept = lines.filter((line) => line !== '' && !/^data(:|$)/.test(line));
  return new TextEncoder().encode(`${[...kept, ...after.split('\n').map((l) => `data: ${l}`)].join('\n')}\n\n`);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}
