// The end-to-end harness: a fresh code-server and headless Chromium per window (started side by side), the
// extension loaded either from this folder (development) or from an installed .vsix, a fresh copy of the demo
// workspace, and a screenshot of every step in .artifacts/e2e/<scenario>/NN-step.png. A window is a scenario's own
// (`withWorkbench`), or shared by scenarios that need the same one and run in it in turn (`scenariosInOneWorkbench`).
// An unhandled rejection or uncaught exception in the extension host fails the scenario, named with the step
// it followed: the host watch extension (test/extensions/host-watch), loaded beside MCP Host (or installed beside
// the .vsix), records them.
import * as esbuild from 'esbuild';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import { installExtension, motionlessSettings, openBrowserContext, startCodeServer, type CodeServer } from '../../scripts/code-server.mjs';
import { withTestModel } from '../extensions/test-model/build.mjs';
import { buildHostWatch, developmentFolder, hostWatchInstalledName } from '../extensions/host-watch/build.mjs';
import { formatProblem, type HostProblem } from '../extensions/host-watch/watch.js';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const demoServer = join(root, 'dist/demo-server.js');

/** Bundles a server from test/fixtures into one .js file that `node` runs from any folder. */
export async function fixtureServer(name: string): Promise<string> {
  const outfile = join(root, '.cache/e2e-fixtures', `${name}.js`);
  await esbuild.build({
    entryPoints: [join(root, 'test/fixtures', `${name}.ts`)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
    logLevel: 'warning',
  });
  return outfile;
}

export interface ServerEntry {
  type?: 'stdio' | 'http' | 'sse';
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  /** VS Code's dev mode (`dev.watch`, `dev.debug`). */
  dev?: unknown;
  sandboxEnabled?: boolean;
}

export interface WorkbenchOptions {
  /** Extra servers next to `demo` in the workspace's .vscode/mcp.json. */
  servers?: Record<string, ServerEntry>;
  inputs?: unknown[];
  /** Install this .vsix instead of loading the development folder. */
  vsix?: string;
  /** User settings (over the harness's, which trust the test workspace's servers: see `trustWorkspaceServers`). */
  settings?: Record<string, unknown>;
  /** The workspace's own .vscode/settings.json. */
  workspaceSettings?: Record<string, unknown>;
  /** Servers of the user's own mcp.json (in the extension's global storage). */
  userServers?: Record<string, ServerEntry>;
  /** Open the workspace untrusted: VS Code's Restricted Mode. */
  restrictedMode?: boolean;
  /** No .vscode/mcp.json at all: a workspace where no server is configured yet. */
  withoutServers?: boolean;
  /** The workspace folder's name, as the Explorer and the title show it (default: a temporary name). */
  folderName?: string;
  /** Load the deterministic language model of test/extensions/test-model beside the extension. */
  testModel?: boolean;
  /** More files in the workspace folder, by relative path, written before the window opens. */
  files?: Record<string, string | Buffer>;
}

export class Workbench {
  private step = 0;
  private readonly log: string[] = [];
  /** Each screenshot's step, with when it was taken: a problem of the host is named with the step before it. */
  private readonly steps: { at: number; name: string }[] = [];
  /** Milliseconds of each phase (opening, the scenario's own steps, closing), kept as timing.json with the screenshots. */
  private timing: Record<string, number> = {};
  private opened = 0;
  /** The scenario running now, and where its screenshots go (a shared window runs several, one after another). */
  private current: { scenario: string; artifacts: string };

  private constructor(
    /** The window's name: its scenario's, or its group's when scenarios share it. */
    readonly name: string,
    readonly page: Page,
    readonly browser: BrowserContext,
    readonly server: CodeServer,
    readonly folder: string,
    /** The window's own files (code-server's log, the browser console, timing, the host watch's problems). */
    private readonly windowArtifacts: string,
    private readonly payload: [string, string][] | undefined,
    private readonly installedExtensionsDir: string | undefined,
  ) {
    this.current = { scenario: name, artifacts: windowArtifacts };
    page.on('console', (m) => this.log.push(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => this.log.push(`[pageerror] ${e.message}`));
  }

  get scenario(): string {
    return this.current.scenario;
  }

  /** Where the running scenario's screenshots and files go: .artifacts/e2e/<scenario>. */
  get artifacts(): string {
    return this.current.artifacts;
  }

  static async open(scenario: string, options: WorkbenchOptions = {}): Promise<Workbench> {
    const began = Date.now();
    // when each was ready, in ms since the scenario began opening
    const since = <T,>(work: Promise<T>, phase: 'codeServerReady' | 'browserReady', timing: Record<string, number>) =>
      work.then((value) => {
        timing[phase] = Date.now() - began;
        return value;
      });
    const timing: Record<string, number> = {};
    // The browser starts while the workspace is made and code-server starts.
    const browsing = since(openBrowserContext(), 'browserReady', timing);
    let server: CodeServer | undefined;
    let browser: BrowserContext | undefined;
    try {
      const artifacts = freshArtifacts(scenario);
      const folder = makeWorkspace(options);

      const hostWatch = await buildHostWatch();
      let extensionsDir: string | undefined;
      if (options.vsix) {
        extensionsDir = mkdtempSync(join(tmpdir(), 'mcp-host-ext-'));
        // installed as a user would have it, not as a development extension (that would make the window an
        // Extension Development Host): a folder already there is listed with the .vsix when it is installed
        const installedWatch = join(extensionsDir, hostWatchInstalledName());
        for (const f of ['package.json', 'dist/extension.js']) cpSync(join(hostWatch, f), join(installedWatch, f), { recursive: true });
        installExtension(options.vsix, extensionsDir);
      }
      server = await since(
        startCodeServer({
          env: { MCP_HOST_HOST_PROBLEMS: problemsFile(artifacts) },
          workspace: folder,
          extensionsDir,
          // Scenarios start the workspace's servers without the trust prompt, except the one that tests it.
          settings: {
            ...motionlessSettings,
            'mcpHost.trustWorkspaceServers': true,
            ...(options.restrictedMode ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' } : {}),
            ...options.settings,
          },
          workspaceTrust: options.restrictedMode,
          logFile: join(artifacts, 'code-server.log'),
        }),
        'codeServerReady',
        timing,
      );
      if (options.userServers) {
        const userConfig = join(server.userDataDir, 'User/globalStorage/mcp-host.mcp-host/mcp.json');
        mkdirSync(dirname(userConfig), { recursive: true });
        writeFileSync(userConfig, JSON.stringify({ servers: options.userServers }, null, 2));
      }
      browser = await browsing;
      const page = await browser.newPage();
      // Beside MCP Host's folder, the host watch comes as a development extension too.
      const extensions = options.vsix
        ? undefined
        : options.testModel
          ? await withTestModel(root)
          : developmentFolder(root, 'dev-extensions-watched', { 'mcp-host': root, 'host-watch': hostWatch });
      const payload: [string, string][] | undefined = extensions ? [['extensionDevelopmentPath', server.remoteUri(extensions)]] : undefined;
      const wb = new Workbench(scenario, page, browser, server, folder, artifacts, payload, extensionsDir);
      const loading = Date.now();
      await wb.load();
      wb.opened = Date.now();
      wb.timing = { ...timing, load: wb.opened - loading, open: wb.opened - began };
      return wb;
    } catch (e) {
      await Promise.all([(browser ?? (await browsing.catch(() => undefined)))?.close(), server?.stop()]);
      throw e;
    }
  }

  /** Opens (or reloads) the workbench and waits for the Explorer to list the workspace (or for `ready`). */
  async load(ready?: Locator): Promise<void> {
    await this.navigate(this.server.workbenchUrl(this.folder, this.payload), ready);
  }

  /**
   * Goes to a workbench URL and waits for the Explorer to list the workspace (or for `ready`): that wait alone bounds
   * the load (the page's own load event, 19 MB of script on a busy machine, is not given a shorter limit of its own).
   */
  private async navigate(url: string, ready?: Locator): Promise<void> {
    await this.page.goto(url, { waitUntil: 'commit', timeout: WORKBENCH_LOAD_MS });
    await (ready ?? this.page.locator('.explorer-folders-view .monaco-list-row').first()).waitFor({ timeout: WORKBENCH_LOAD_MS });
  }

  /**
   * Adds user settings (not set yet) as a person does: typed at the top of the settings.json editor, then saved. (A
   * write to the file from outside is not seen by a window that has been open for a minute.)
   */
  async addUserSettings(settings: Record<string, unknown>): Promise<void> {
    const file = join(this.server.userDataDir, 'User/settings.json');
    await this.runCommand('Preferences: Open User Settings (JSON)');
    const lines = this.page.locator('.editor-instance .monaco-editor .view-lines').first();
    await lines.getByText('"telemetry.telemetryLevel"').waitFor({ timeout: 15_000 });
    await lines.click();
    for (const [key, value] of Object.entries(settings)) {
      await this.page.keyboard.press('Control+Home');
      await this.page.keyboard.press('End');
      await this.page.keyboard.press('Enter');
      await this.page.keyboard.insertText(`${JSON.stringify(key)}: ${JSON.stringify(value)},`);
    }
    await this.page.keyboard.press('Control+S');
    const saved = () => {
      try {
        const now = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
        return Object.entries(settings).every(([key, value]) => JSON.stringify(now[key]) === JSON.stringify(value));
      } catch {
        return false;
      }
    };
    for (const end = Date.now() + 15_000; !saved();) {
      if (Date.now() > end) throw new Error(`settings.json was not saved with ${JSON.stringify(settings)}`);
      await this.page.waitForTimeout(200);
    }
    await this.shot('user-settings-saved');
    await this.runCommand('View: Close All Editors');
  }

  /** Copies made by `openClone`, removed with the workbench. */
  private readonly clones: string[] = [];

  /**
   * Opens a fresh copy of the workspace (its files and .vscode/mcp.json, the same server definitions) in this
   * window, as a second clone of one repository: its own workspace state, the same user profile. Returns its folder.
   */
  async openClone(): Promise<string> {
    const clone = mkdtempSync(join(tmpdir(), WORKSPACE_PREFIX));
    this.clones.push(clone);
    cpSync(this.folder, clone, { recursive: true });
    await this.navigate(this.server.workbenchUrl(clone, this.payload));
    return clone;
  }

  /**
   * Screenshots the window as the next step. A screenshot waits for the window to draw, so one with a longer
   * `timeoutMs` also waits out a renderer that is busy (as after a hostile app's flood of messages).
   */
  async shot(name: string, timeoutMs = 30_000): Promise<string> {
    this.step += 1;
    const step = `${String(this.step).padStart(2, '0')}-${name}`;
    this.steps.push({ at: Date.now(), name: this.scenario === this.name ? step : `${this.scenario} ${step}` });
    const file = join(this.artifacts, `${step}.png`);
    await this.page.screenshot({ path: file, timeout: timeoutMs });
    return file;
  }

  get quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /** A row of the open quick input (palette, quick pick, simple file dialog) whose text contains `text`. */
  quickPickRow(text: string | RegExp): Locator {
    return this.quickInput.locator('.monaco-list-row', { hasText: text });
  }

  /**
   * Runs a command from the palette by its title ("MCP: Run Tool…"). The palette's list is built
   * when it opens, so a command registered a moment later needs the palette reopened.
   */
  async runCommand(title: string, attempts = 10): Promise<void> {
    await this.openPalette(title, attempts);
    await this.page.keyboard.press('Enter');
  }

  /** Opens the palette filtered by `title` and waits for the matching row. */
  async openPalette(title: string, attempts = 10): Promise<Locator> {
    const input = this.quickInput.locator('.quick-input-box input');
    for (let i = 1; ; i++) {
      await this.page.keyboard.press('F1');
      const row = this.quickPickRow(title).first();
      try {
        // A focus change (a panel taking focus as its server stops) can close the palette between these steps.
        await input.waitFor({ timeout: 5000 });
        await input.fill(`>${title}`, { timeout: 5000 });
        await row.waitFor({ timeout: 3000 });
        return row;
      } catch (e) {
        if (i >= attempts) throw e;
        await this.page.keyboard.press('Escape');
        await this.page.waitForTimeout(500);
      }
    }
  }

  /** Types into the open quick input and accepts. */
  async answerQuickInput(text: string): Promise<void> {
    const input = this.quickInput.locator('.quick-input-box input');
    await input.waitFor();
    await input.fill(text);
    await this.page.keyboard.press('Enter');
  }

  /** A row of the open quick input whose label is exactly `label` (photo.png, not large-photo.png). */
  quickPickRowLabelled(label: string): Locator {
    const exact = new RegExp(`^\\s*(\\$\\([\\w-]+\\)\\s*)?${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
    return this.quickInput.locator('.monaco-list-row').filter({ has: this.page.locator('.label-name', { hasText: exact }) });
  }

  /** Picks a row of the open quick pick by its text. */
  async pick(text: string | RegExp): Promise<void> {
    const row = this.quickPickRow(text).first();
    await row.waitFor();
    await row.click();
  }

  /** The content of the visible webview panel (two nested iframes): the tool form or an elicitation. */
  webview(): FrameLocator {
    return this.page.locator('iframe.webview.ready').filter({ visible: true }).first().contentFrame().frameLocator('iframe#active-frame');
  }

  /** The Explorer row of a workspace file, by its exact name. */
  explorerItem(name: string): Locator {
    return this.page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${name}"]`);
  }

  /**
   * Opens a file's Explorer context menu and chooses `action`. The menu is built when it opens, so an
   * entry contributed by an extension that was still loading needs the menu reopened.
   */
  async explorerMenu(name: string, action: string, attempts = 10): Promise<void> {
    const entry = this.page.locator('.context-view .action-label', { hasText: action });
    for (let i = 1; ; i++) {
      await this.explorerItem(name).click({ button: 'right' });
      try {
        await entry.first().waitFor({ timeout: 2000 });
        break;
      } catch (e) {
        if (i >= attempts) throw e;
        await this.page.keyboard.press('Escape');
        await this.page.waitForTimeout(500);
      }
    }
    await this.shot('explorer-menu');
    await entry.first().click();
  }

  /** Scenarios this window has run (`runScenario`), and whether one of them failed (its report is made). */
  private scenariosRun = 0;
  private failureReported = false;

  /**
   * Runs one of the scenarios sharing this window, from a window with no editor, quick input, dialog or notification
   * open and the Explorer shown, its screenshots in its own folder; a failure leaves its last screenshot and what the
   * window showed.
   */
  async runScenario(scenario: string, body: (wb: Workbench) => Promise<void>): Promise<void> {
    this.current = { scenario, artifacts: freshArtifacts(scenario) };
    this.step = 0;
    const tidyFirst = this.scenariosRun++ > 0;
    try {
      if (tidyFirst) await this.tidy();
      await body(this);
    } catch (e) {
      this.failureReported = true;
      await this.shot('failure').catch(() => {});
      await this.reportFailure().catch((r: unknown) => process.stderr.write(`failure report of "${scenario}" incomplete: ${String(r)}\n`));
      throw e;
    }
  }

  /**
   * Closes what a scenario left open that the next one would trip over, and shows the Explorer as a new window does.
   * Editors are closed again when one is left, as a person would: a panel still waiting on a server (a sampling
   * approval, say) has been seen to leave a tab open on a busy machine.
   */
  private async tidy(): Promise<void> {
    for (let i = 0; i < 3; i++) await this.page.keyboard.press('Escape');
    await this.runCommand('Notifications: Clear All Notifications');
    for (let attempt = 1; ; attempt++) {
      await this.runCommand('View: Close All Editors');
      try {
        await this.page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
        break;
      } catch (e) {
        if (attempt >= 3) throw e;
        await this.shot('tab-left-open');
        for (let i = 0; i < 3; i++) await this.page.keyboard.press('Escape');
      }
    }
    await this.runCommand('View: Show Explorer');
    await this.page.locator('.explorer-folders-view').first().waitFor({ timeout: 15_000 });
  }

  /**
   * Closes the workbench; then fails (unless the scenario failed already: its own error comes first) when the
   * extension host had an unhandled rejection or an uncaught exception meanwhile.
   */
  async close(failed = false): Promise<void> {
    const c0 = Date.now();
    this.timing.body = c0 - this.opened;
    failed ||= this.failureReported;
    if (failed && !this.failureReported) {
      await this.shot('failure').catch(() => {});
      await this.reportFailure().catch((e: unknown) => process.stderr.write(`failure report of "${this.scenario}" incomplete: ${String(e)}\n`));
    }
    // A short scenario on a busy machine can end before the extension host has started the host watch: it is given
    // a moment, so that "never started" means it did not start, not that it had not yet.
    for (const end = Date.now() + 20_000; !existsSync(problemsFile(this.windowArtifacts)) && Date.now() < end;) await this.page.waitForTimeout(250);
    const c1 = Date.now();
    writeFileSync(join(this.windowArtifacts, 'console.log'), this.log.join('\n'));
    await Promise.all([this.browser.close(), this.server.stop()]);
    Object.assign(this.timing, { watchWait: c1 - c0, close: Date.now() - c0 });
    writeFileSync(join(this.windowArtifacts, 'timing.json'), JSON.stringify(this.timing));
    console.log(`timing ${this.name}: ${JSON.stringify(this.timing)}`);
    rmSync(madeIn(this.folder), { recursive: true, force: true });
    for (const clone of this.clones) rmSync(clone, { recursive: true, force: true });
    if (this.installedExtensionsDir) rmSync(this.installedExtensionsDir, { recursive: true, force: true });
    const problems = this.hostProblems();
    if (problems.length === 0) return;
    const text = `the extension host of ${this.name === this.scenario ? 'scenario' : 'the window of'} "${this.name}": ${problems.join('\n')}`;
    if (failed) process.stderr.write(`${text}\n`);
    else throw new Error(text);
  }

  /**
   * What a failed run leaves for whoever reads only the test output (a CI log): the text of the visible webview and
   * of the notifications, and the end of the extension's own logs (its output channels, as VS Code writes them),
   * which are also copied next to the screenshots.
   */
  private async reportFailure(): Promise<void> {
    const lines: string[] = [`── what "${this.scenario}" showed when it failed ──`];
    const panelText = await this.webview()
      .locator('body')
      .innerText({ timeout: 2_000 })
      .catch(() => undefined);
    if (panelText !== undefined) lines.push('visible webview:', ...tail(panelText, FAILURE_TAIL_LINES));
    const toasts = await this.page
      .locator('.notification-toast')
      .allInnerTexts()
      .catch(() => []);
    if (toasts.length) lines.push('notifications:', ...toasts.map((t) => `  ${t.replace(/\s+/g, ' ')}`));
    const logs = join(this.artifacts, 'logs');
    for (const file of extensionLogs(this.server.userDataDir)) {
      // exthost1, exthost2 (after a reload), …
      const name = `${basename(dirname(dirname(file)))} ${basename(file)}`;
      mkdirSync(logs, { recursive: true });
      cpSync(file, join(logs, name));
      lines.push(`log ${name}:`, ...tail(readFileSync(file, 'utf8'), FAILURE_TAIL_LINES));
    }
    process.stderr.write(`${lines.join('\n')}\n`);
  }

  /** What the extension has logged so far, in all its output channels (a server's stderr among it). */
  extensionLogText(): string {
    return extensionLogs(this.server.userDataDir)
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
  }

  /** What the host watch recorded, each named with the step it followed (or that it never started). */
  hostProblems(): string[] {
    const file = problemsFile(this.windowArtifacts);
    if (!existsSync(file)) return [`the host watch never started (no ${file}): nothing of the extension host was watched`];
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const problem = JSON.parse(line) as HostProblem;
        const step = this.steps.filter((s) => s.at <= problem.at).at(-1);
        return formatProblem({ ...problem, during: step ? `the step after screenshot ${step.name}` : 'the start, before the first screenshot' });
      });
  }
}

/** Lines of each text a failure report shows (the end of it). */
const FAILURE_TAIL_LINES = 40;

function tail(text: string, count: number): string[] {
  return text
    .split('\n')
    .slice(-count)
    .map((l) => `  ${l.slice(0, 400)}`);
}

/** The extension's output channels as the extension host logs them (logs/<session>/exthost<N>/mcp-host.mcp-host/*.log). */
function extensionLogs(userDataDir: string): string[] {
  const logs = join(userDataDir, 'logs');
  if (!existsSync(logs)) return [];
  return readdirSync(logs, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.log') && basename(e.parentPath) === 'mcp-host.mcp-host')
    .map((e) => join(e.parentPath, e.name));
}

/** An empty .artifacts/e2e/<name>. */
function freshArtifacts(name: string): string {
  const artifacts = join(root, '.artifacts/e2e', name);
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  return artifacts;
}

/** Where the host watch of a scenario writes (a JSON line per problem), kept with its screenshots. */
function problemsFile(artifacts: string): string {
  return join(artifacts, 'host-problems.jsonl');
}

/** The temporary folder a workspace was made in (the workspace itself, or its parent when it was named). */
function madeIn(folder: string): string {
  return basename(dirname(folder)).startsWith(WORKSPACE_PREFIX) ? dirname(folder) : folder;
}

const WORKSPACE_PREFIX = 'mcp-host-ws-';
/** The longest a workbench may take to show its workspace after it is asked for. */
const WORKBENCH_LOAD_MS = 60_000;

/**
 * A fresh copy of examples/workspace whose mcp.json points at the built demo server by absolute path
 * (or has no mcp.json, `withoutServers`).
 */
function makeWorkspace(options: WorkbenchOptions): string {
  const made = mkdtempSync(join(tmpdir(), WORKSPACE_PREFIX));
  const folder = options.folderName ? join(made, options.folderName) : made;
  cpSync(join(root, 'examples/workspace'), folder, { recursive: true });
  for (const [path, content] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), content);
  }
  if (options.withoutServers) {
    rmSync(join(folder, '.vscode'), { recursive: true, force: true });
    return folder;
  }
  const config = {
    ...(options.inputs ? { inputs: options.inputs } : {}),
    servers: { demo: { type: 'stdio', command: 'node', args: [demoServer] }, ...options.servers },
  };
  writeFileSync(join(folder, '.vscode/mcp.json'), JSON.stringify(config, null, 2));
  if (options.workspaceSettings) writeFileSync(join(folder, '.vscode/settings.json'), JSON.stringify(options.workspaceSettings, null, 2));
  return folder;
}

/** Runs a scenario body with a workbench that is always closed, with a last screenshot on failure. */
export async function withWorkbench(scenario: string, options: WorkbenchOptions, body: (wb: Workbench) => Promise<void>): Promise<void> {
  const wb = await Workbench.open(scenario, options);
  let failed = true;
  try {
    await body(wb);
    failed = false;
  } finally {
    await wb.close(failed);
  }
}

/** A scenario of `scenariosInOneWorkbench`: its test's title, its name (its screenshots' folder) and its steps. */
export interface SharedScenario {
  title: string;
  scenario: string;
  body: (wb: Workbench) => Promise<void>;
}

/**
 * Scenarios that need the same window and nothing new of its session run in one window, in turn, as a person goes
 * from one task to the next: opening a window and letting it settle costs about 30 s of CPU, more than many a
 * scenario's own steps. Each starts with no editor, quick input or notification open and the Explorer shown; what the
 * ones before left in the session stays (a server running, the session's results). The window's name is its
 * artifacts folder (its logs and timing); the whole file is bounded by the stage's per-file limit, so a group stays
 * well inside it.
 */
export function scenariosInOneWorkbench(name: string, options: WorkbenchOptions, scenarios: SharedScenario[]): void {
  void describe(name, () => {
    let wb: Workbench | undefined;
    before(async () => {
      wb = await Workbench.open(name, options);
    });
    after(async () => {
      await wb?.close();
    });
    for (const { title, scenario, body } of scenarios) {
      void test(title, async () => {
        if (!wb) throw new Error(`the window "${name}" did not open`);
        await wb.runScenario(scenario, body);
      });
    }
  });
}
