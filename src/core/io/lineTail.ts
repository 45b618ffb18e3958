// Text a process writes (a server's stderr) as lines, in linear time and bounded memory: only the new chunk
// is searched for line ends, and a line that never ends keeps its first and last characters only.
import { STDERR_LINE_MAX_CHARS } from './limits';

export class BoundedLines {
  private head = '';
  private tail = '';
  private dropped = 0;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxChars = STDERR_LINE_MAX_CHARS,
  ) {}

  push(chunk: string): void {
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
      this.append(chunk.slice(start, nl));
      this.emit();
      start = nl + 1;
    }
    if (start < chunk.length) this.append(start === 0 ? chunk : chunk.slice(start));
  }

  /** Emits the unfinished line, if any (the stream ended). */
  end(): void {
    if (this.head || this.tail || this.dropped) this.emit();
  }

  private append(text: string): void {
    const half = this.maxChars >> 1;
    if (this.head.length < half) {
      const take = Math.min(half - this.head.length, text.length);
      this.head += text.slice(0, take);
      text = take === text.length ? '' : text.slice(take);
    }
    if (!text) return;
    this.tail += text;
    if (this.tail.length > 2 * half) {
      this.dropped += this.tail.length - half;
      this.tail = this.tail.slice(-half);
    }
  }

  private emit(): void {
    let line = this.dropped ? `${this.head}… [${this.dropped} characters left out] …${this.tail}` : this.head + this.tail;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    this.head = '';
    this.tail = '';
    this.dropped = 0;
    if (line) this.onLine(line);
  }
}
