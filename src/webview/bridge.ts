// The webview's side of the protocol: posting typed messages, typed requests with responses
// correlated by id, incoming message dispatch, and the persisted state.

import {
  isHostMessage,
  restoredState,
  type HostNotification,
  type HostResponse,
  type PersistedState,
  type RequestMethod,
  type RequestParams,
  type RequestResult,
  type WebviewNotification,
} from '../shared/protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** Whether `source` is a frame inside this page (VS Code's webview script shadows window.parent, so walk up from it). */
function fromDescendantFrame(source: MessageEventSource | null): boolean {
  let w = source as Window | null;
  for (let depth = 0; w && depth < 20; depth++) {
    const up: Window | null = w.parent;
    if (up === window) return w !== window;
    if (!up || up === w) return false;
    w = up;
  }
  return false;
}

type Pending = { resolve: (result: unknown) => void; reject: (error: Error) => void };

export class Bridge {
  private readonly api = acquireVsCodeApi();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(onNotification: (message: HostNotification) => void) {
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      // The host's messages come from the frame above; an app frame (or one nested in it) is never the host.
      if (fromDescendantFrame(event.source)) return;
      const message = event.data;
      if (!isHostMessage(message)) return;
      if (message.type === 'response') this.settle(message);
      else onNotification(message);
    });
  }

  send(message: WebviewNotification): void {
    this.api.postMessage(message);
  }

  request<M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
    const id = this.nextId++;
    return new Promise<RequestResult<M>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      this.api.postMessage({ type: 'request', id, method, params });
    });
  }

  get state(): PersistedState | undefined {
    return restoredState(this.api.getState());
  }

  set state(state: PersistedState) {
    this.api.setState(state);
  }

  private settle(response: HostResponse): void {
    const pending = this.pending.get(response.id);
    if (!pending) return;
    this.pending.delete(response.id);
    if (response.ok) pending.resolve(response.result);
    else pending.reject(new Error(response.error));
  }
}
