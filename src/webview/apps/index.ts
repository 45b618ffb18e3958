// The tool panel's app area: the newest result's MCP App above the results, one at a time. A new app
// tears the previous one down first; the theme and the panel's size reach the app as host context.
import type { AppFrame } from '../../shared/protocol';
import { h, icon } from '../dom';
import { AppView, type AppRequest } from './appView';

export class AppArea {
  readonly element = h('div', { className: 'app-area' });
  private view: AppView | undefined;
  private contextTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly request: AppRequest, private readonly onClosed: (callId: string) => void) {
    // VS Code's theme is in the body's classes and the root's style: a change reaches the app.
    const observer = new MutationObserver(() => this.contextChanged());
    observer.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
    new ResizeObserver(() => this.contextChanged()).observe(this.element);
    // The panel is going away (closed, or hidden and discarded): the app is told, as far as it can still hear.
    window.addEventListener('pagehide', () => void this.view?.teardown('Closed.', false));
  }

  /** Shows the app of a result; the same result's app already running is left as it is. */
  show(frame: AppFrame): void {
    performance.mark(`mcp-host:app-show:${frame.callId}`);
    if (this.view && this.view.frame.callId === frame.callId && !this.view.closed) return;
    const previous = this.view;
    const view = new AppView(frame, this.request, (on) => document.body.classList.toggle('app-fullscreen', on), () => this.onClosed(frame.callId));
    this.view = view;
    const mount = () => {
      // A newer app may have come while the previous one was being torn down.
      if (this.view !== view) return;
      this.element.replaceChildren(view.element);
      void view.start();
    };
    if (previous) void previous.teardown('Replaced by a newer result.').finally(mount);
    else mount();
  }

  toolResult(callId: string, result: Record<string, unknown>): void {
    if (this.view?.frame.callId === callId) this.view.toolResult(result);
  }

  toolCancelled(callId: string, reason: string): void {
    if (this.view?.frame.callId === callId) this.view.toolCancelled(reason);
  }

  failed(callId: string, message: string): void {
    if (this.view?.frame.callId === callId) return;
    void this.view?.teardown('Replaced by a newer result.');
    this.view = undefined;
    this.element.replaceChildren(h('div', { className: 'warning app-failed', attrs: { role: 'alert' } }, icon('warning'), ' ', message));
  }

  private contextChanged(): void {
    clearTimeout(this.contextTimer);
    this.contextTimer = setTimeout(() => this.view?.updateContext(), 50);
  }
}
