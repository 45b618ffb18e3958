// Typed events and their subscriptions, for every module (the VS Code pattern, without vscode).

export interface Disposable { dispose(): void }

/** A minimal typed event: `event(listener)` subscribes and returns a Disposable. */
export class Emitter<T> {
  private listeners = new Set<(value: T) => void>();

  readonly event = (listener: (value: T) => void): Disposable => {
    this.listeners.add(listener);
    return { dispose: () => { this.listeners.delete(listener); } };
  };

  fire(value: T): void {
    for (const l of [...this.listeners]) {
      try { l(value); } catch { /* a listener's failure must not stop the others */ }
    }
  }

  dispose(): void { this.listeners.clear(); }
}
