// The tool panel's app area: the newest result's MCP App above the results, one at a time. A new app
// tears the previous one down first; the theme and the panel's size reach the app as host context.
// The tool's app is also kept loaded ahead, hidden (a standby): Run shows it at once instead of starting
// a new frame, so the app's own start-up (often most of its time) is done before the result arrives.
// An iframe reloads when it moves in the document, so the standby's element stays where it was put:
// the others are inserted before it or removed around it.
import type { AppFrame, AppList, AppStandby } from '../../shared/protocol';
import { h, icon } from '../dom';
import { AppView, type AppRequest } from './appView';

/** The same document with the same permissions: a frame of one serves the other (a frame's permissions are fixed). */
function sameApp(a: AppStandby, b: AppStandby): boolean {
  return a.document === b.document && a.clipboardWrite === b.clipboardWrite;
}

export class AppArea {
  readonly element = h('div', { className: 'app-area' });
  private view: AppView | undefined;
  private standby: AppView | undefined;
  /** The document a standby is made of: the newest the host sent (prepared or shown). */
  private standbyFrame: AppStandby | undefined;
  private contextTimer: ReturnType<typeof setTimeout> | undefined;
  private renewing = 0;

  constructor(
    private readonly request: AppRequest,
    private readonly onClosed: (callId: string) => void,
  ) {
    // VS Code's theme is in the body's classes and the root's style: a change reaches the app.
    const observer = new MutationObserver(() => this.contextChanged());
    observer.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
    new ResizeObserver(() => this.contextChanged()).observe(this.element);
    // The panel is going away (closed, or hidden and discarded): the app is told, as far as it can still hear.
    window.addEventListener('pagehide', () => {
      void this.view?.teardown('Closed.', false);
      void this.standby?.teardown('', false);
    });
  }

  /** Loads the tool's app ahead, hidden, for the next run; a standby of the same document is kept. */
  prepare(frame: AppStandby): void {
    this.standbyFrame = frame;
    if (this.standby && !this.standby.closed && sameApp(this.standby.frame, frame)) return;
    this.renewStandby();
  }

  /**
   * Shows the app of a result (a standby of the same document, or a new frame); the same result's app already
   * running is left as it is, unless its document changed (the server updated it: the app is reloaded).
   */
  show(frame: AppFrame): void {
    performance.mark(`mcp-host:app-show:${frame.callId}`);
    const current = this.view;
    if (current && current.frame.callId === frame.callId && sameApp(current.frame, frame) && !current.closed) return;
    const reloaded = current?.frame.callId === frame.callId;
    const { uri, document: html, permissionsAsked, clipboardWrite, warnings, locale, prefersBorder } = frame;
    this.standbyFrame = { uri, document: html, permissionsAsked, clipboardWrite, warnings, locale, prefersBorder };
    const ready = this.standby?.ready && sameApp(this.standby.frame, frame) ? this.standby : undefined;
    if (ready) {
      this.standby = undefined;
      ready.claim(frame);
    } else if (this.standby) {
      // A standby not fit to be shown (still starting, or it left a ping unanswered) goes at once, before the new
      // frame starts: the apps' frames share one process, and one that loops would hold the new frame up.
      const unfit = this.standby;
      this.standby = undefined;
      unfit.close('', false);
    }
    // The app closed (by the user, itself, or cut off) rather than replaced or reloaded: the host forgets it, and
    // its standby goes too, so nothing of this app runs until the next Run (an app that loops does not go on
    // looping hidden).
    const closed = () => {
      if (this.view !== view) return;
      this.onClosed(frame.callId);
      this.dropStandby();
    };
    const fresh = () => new AppView(frame, this.request, (on) => document.body.classList.toggle('app-fullscreen', on), closed);
    let view: AppView = ready ?? fresh();
    this.view = view;
    const mount = () => {
      // A newer app may have come while the previous one was being torn down.
      if (this.view !== view) {
        if (ready) void ready.teardown('', false);
        return;
      }
      // The standby went while the previous app was torn down (it misbehaved): a new frame instead.
      if (ready?.closed) this.view = view = fresh();
      this.clearShown(view);
      if (ready && view === ready) {
        ready.promote(closed);
      } else {
        this.element.insertBefore(view.element, this.standbyAnchor());
        void view.start();
      }
      // The next run's standby loads once the panel is idle, not while the app just shown starts.
      cancelIdleCallback(this.renewing);
      this.renewing = requestIdleCallback(() => this.renewStandby(), { timeout: 2000 });
    };
    if (current && !current.closed)
      void current.teardown(reloaded ? 'The server updated the app; it was reloaded.' : 'Replaced by a newer result.').finally(mount);
    else mount();
  }

  toolResult(callId: string, result: Record<string, unknown>): void {
    if (this.view?.frame.callId === callId) this.view.toolResult(result);
  }

  toolCancelled(callId: string, reason: string): void {
    if (this.view?.frame.callId === callId) this.view.toolCancelled(reason);
  }

  /** The server's tools or resources changed: the app shown is told (a standby lists nothing until it shows). */
  listChanged(list: AppList): void {
    this.view?.listChanged(list);
  }

  failed(callId: string, message: string): void {
    if (this.view?.frame.callId === callId) return;
    void this.view?.teardown('Replaced by a newer result.');
    this.view = undefined;
    this.clearShown(undefined);
    this.element.insertBefore(h('div', { className: 'warning app-failed', attrs: { role: 'alert' } }, icon('warning'), ' ', message), this.standbyAnchor());
  }

  /** Removes what the area shows (apps gone, notes), except `keep` and the standby. */
  private clearShown(keep: AppView | undefined): void {
    for (const child of Array.from(this.element.children)) {
      if (child !== keep?.element && child !== this.standby?.element) child.remove();
    }
  }

  /** Where shown apps and notes go: before the standby's element, when it is still in the area. */
  private standbyAnchor(): Element | null {
    const element = this.standby?.element;
    return element?.parentNode === this.element ? element : null;
  }

  private dropStandby(): void {
    cancelIdleCallback(this.renewing);
    const old = this.standby;
    this.standby = undefined;
    void old?.teardown('', false);
  }

  /** Replaces the standby with one of the newest document (the old one is torn down). */
  private renewStandby(): void {
    const old = this.standby;
    const frame = this.standbyFrame;
    if (old && !old.closed && frame && sameApp(old.frame, frame)) return;
    this.standby = undefined;
    if (old) void old.teardown('', false);
    if (!frame) return;
    const view = new AppView(
      { ...frame, callId: '', toolInput: {} },
      this.request,
      (on) => document.body.classList.toggle('app-fullscreen', on),
      () => undefined,
      { standby: true },
    );
    this.standby = view;
    this.element.append(view.element);
    void view.start();
  }

  private contextChanged(): void {
    clearTimeout(this.contextTimer);
    this.contextTimer = setTimeout(() => {
      this.view?.updateContext();
      this.standby?.updateContext();
    }, 50);
  }
}
