// The fetch handed to the SDK's HTTP transports: every response body is capped (a JSON answer as a whole,
// an event stream per event), and every request ends when the connection's signal fires (stop, a deadline).
import { formatBytes } from '../files/limits';
import { HostError } from '../errors';

/** A server's message went over the size limit; what was read is dropped and the transfer stopped. */
export class MessageTooLargeError extends HostError {
  static override readonly brand: string = 'MessageTooLargeError';
  constructor(
    readonly limitBytes: number,
    what: string,
  ) {
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
  /**
   * Sees the data of each whole `message` event, as the bytes of its data lines, and returns the text that
   * replaces it (an answer the SDK would drop), or undefined to keep it.
   */
  eventData?: (dataLines: Uint8Array[]) => string | undefined;
}

/** A fetch whose bodies are capped and whose requests end with `bounds.signal`. */
export function boundedFetch(bounds: FetchBounds, base: Fetch = fetch): Fetch {
  return async (url, init) => {
    const signal = init?.signal ? AbortSignal.any([init.signal, bounds.signal]) : bounds.signal;
    const response = await base(url, { ...init, signal });
    if (!response.body) return response;
    const isEventStream = /^\s*text\/event-stream/i.test(response.headers.get('content-type') ?? '');
    const declared = Number(response.headers.get('content-length') ?? NaN);
    const tooLarge = (e: MessageTooLargeError) => {
      bounds.onTooLarge?.(e);
      return e;
    };
    if (!isEventStream && declared > bounds.maxMessageBytes) {
      await response.body.cancel().catch(() => undefined);
      throw tooLarge(new MessageTooLargeError(bounds.maxMessageBytes, `an answer of ${formatBytes(declared)},`));
    }
    const body = response.body.pipeThrough(
      isEventStream ? eventCap(bounds.maxMessageBytes, tooLarge, bounds.eventData) : totalCap(bounds.maxMessageBytes, tooLarge),
    );
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
function eventCap(max: number, tooLarge: OnTooLarge, eventData?: FetchBounds['eventData']): TransformStream<Uint8Array, Uint8Array> {
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
          if (b === 10 && afterCr) {
            afterCr = false;
            continue;
          } // the LF of a CRLF
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

/** One whole event with its data replaced by `eventData`'s answer, or the same bytes when it keeps them. */
function rewriteEvent(event: Uint8Array, eventData: NonNullable<FetchBounds['eventData']>): Uint8Array {
  const lines = eventLines(event);
  const type = lines.find((l) => fieldIs(l, 'event'));
  if (type && !spells(fieldValue(type), 'message')) return event;
  const data = lines.filter((l) => fieldIs(l, 'data')).map(fieldValue);
  if (data.length === 0) return event;
  const replacement = eventData(data);
  if (replacement === undefined) return event;
  const decoder = new TextDecoder();
  const kept = lines.filter((l) => l.length > 0 && !fieldIs(l, 'data')).map((l) => decoder.decode(l));
  return new TextEncoder().encode(`${[...kept, ...replacement.split('\n').map((l) => `data: ${l}`)].join('\n')}\n\n`);
}

/** The lines of one event (views into its bytes, without their ends), the blank line that ends it left out. */
function eventLines(event: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let from = 0;
  for (let i = 0; i < event.length; i++) {
    const b = event[i]!;
    if (b !== 10 && b !== 13) continue;
    lines.push(event.subarray(from, i));
    if (b === 13 && event[i + 1] === 10) i++;
    from = i + 1;
  }
  if (from < event.length) lines.push(event.subarray(from));
  while (lines.length > 0 && lines[lines.length - 1]!.length === 0) lines.pop();
  return lines;
}

/** Whether a line is the field `name` (`name` alone, or followed by a colon). */
function fieldIs(line: Uint8Array, name: string): boolean {
  return spells(line.subarray(0, name.length), name) && (line.length === name.length || line[name.length] === 58);
}

/** Whether the bytes are the ASCII text `text`. */
function spells(bytes: Uint8Array, text: string): boolean {
  if (bytes.length !== text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[i] !== text.charCodeAt(i)) return false;
  return true;
}

/** A field's value: after the first colon and the one space that may follow it. */
function fieldValue(line: Uint8Array): Uint8Array {
  const colon = line.indexOf(58);
  if (colon === -1) return line.subarray(line.length);
  return line.subarray(line[colon + 1] === 32 ? colon + 2 : colon + 1);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
