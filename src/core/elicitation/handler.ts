// The host's answer to `elicitation/create`, shared by the extension and the CLI:
// form mode (with x-mcp-file fields), URL mode (consent only), and SEP-1306 binary mode (uploads).

import { domainToUnicode } from 'node:url';
import type { ElicitationContext, ElicitationHandler, ElicitRequestParamsLoose, ElicitResultLoose, UploadEndpoint } from '../connection/types';
import { InputRefusedError, HostError } from '../errors';
import { checkFile, checkTotalSize, type CheckedFile } from '../files/check';
import { encodeCheckedFile } from '../files/transfer/encode';
import { inlineLimitsFor, uploadLimitsFor, type InlineLimits } from '../files/limits';
import { findElicitationFileFields, type FileSlot } from '../files/slots';
import { buildForm } from '../forms/build';
import type { FieldErrors, FileField, FormModel, FormValues } from '../../shared/formModel';
import { defaultValues, toPayload, validateForm } from '../forms/values';
import type { ElicitationHandlerOptions, ElicitationUi, FormAnswer } from './types';
import { destinationPolicyFor, refuseInsecureUrl } from '../net/destination';
import { uploadMultipart } from './upload';
import { getOwn } from '../io/own';
import { authorizeUploads, type AuthorizedUploads } from '../run/uploads';

const DEFAULT_MAX_ATTEMPTS = 5;

/** Raised inside the handler when the elicitation must be cancelled with a message for the user. */
class ElicitationCancelled extends HostError {
  static override readonly brand: string = 'ElicitationCancelled';
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | 'aborted'> {
  if (signal.aborted) return Promise.resolve('aborted');
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** The URL as the user should see it: its domain, punycode decoded beside it, and warnings. */
export function describeUrl(raw: string): { url: URL; domain: string; domainUnicode?: string; warnings: string[] } | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'the server sent a URL that is not valid';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `the server sent a ${url.protocol} URL; only https and http URLs are offered`;
  const warnings: string[] = [];
  const domain = url.hostname;
  const unicode = domainToUnicode(domain);
  const out: { url: URL; domain: string; domainUnicode?: string; warnings: string[] } = { url, domain, warnings };
  if (domain.split('.').some((label) => label.toLowerCase().startsWith('xn--'))) {
    out.domainUnicode = unicode;
    warnings.push(`The domain ${domain} is punycode for "${unicode}": make sure it is the site you expect.`);
  }
  if (url.protocol === 'http:') warnings.push('This URL is not HTTPS: what you enter there can be read in transit.');
  if (url.username || url.password) warnings.push('This URL carries a user name or password.');
  return out;
}

interface CheckedFieldFiles {
  field: FileField;
  slot: FileSlot;
  files: CheckedFile[];
}

export function createElicitationHandler(ui: ElicitationUi, options: ElicitationHandlerOptions): ElicitationHandler {
  const log = options.log;
  const inline: InlineLimits = options.limits ?? inlineLimitsFor(options.transport);
  const uploadLimits = uploadLimitsFor(options.transport, options.binaryMaxFileSize);

  const refuseOrCancel = (message: string, field?: string): ElicitResultLoose => {
    if (!options.interactive) throw new InputRefusedError(message, field);
    ui.notify?.(message, 'error');
    log.warn(message);
    return { action: 'cancel' };
  };

  async function checkFiles(model: FormModel, slots: FileSlot[], answer: Extract<FormAnswer, { action: 'accept' }>, errors: FieldErrors) {
    const checked: CheckedFieldFiles[] = [];
    for (const field of model.fields) {
      if (field.kind !== 'file') continue;
      const slot = slots.find((s) => s.path.join('\u0000') === field.path.join('\u0000'));
      const paths = answer.files?.[field.path[0]!] ?? [];
      if (paths.length === 0) continue;
      if (!slot) {
        errors[field.id] ??= `${field.label}: the server described this file field in a way the host cannot use.`;
        continue;
      }
      const files: CheckedFile[] = [];
      for (const path of paths) {
        if (/^data:/i.test(path)) {
          errors[field.id] ??= `${field.label}: give a local file path, not a data URI.`;
          continue;
        }
        const check = await checkFile(path, slot, field.transfer === 'upload' ? uploadLimits : inline);
        if (check.ok) {
          files.push(check.file);
          for (const w of check.warnings) log.warn(w);
        } else errors[field.id] ??= check.reason;
      }
      checked.push({ field, slot, files });
    }
    return checked;
  }

  async function formMode(params: ElicitRequestParamsLoose, ctx: ElicitationContext): Promise<ElicitResultLoose> {
    const mode = params.mode === 'binary' ? 'binary' : 'form';
    const scan = findElicitationFileFields(params.requestedSchema, params.requestedFiles, log);
    const model = buildForm(params.requestedSchema, scan.slots);
    model.warnings.push(...scan.warnings);
    const max = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    let values: FormValues = defaultValues(model);
    let errors: FieldErrors | undefined;
    let files: Record<string, string[]> | undefined;
    for (let attempt = 1; attempt <= max; attempt++) {
      const request = {
        server: ctx.server,
        message: String(params.message ?? ''),
        mode,
        form: model,
        values,
        attempt,
        ...(errors ? { errors } : {}),
        ...(files ? { files } : {}),
      } as const;
      const answer = await untilAborted(ui.form(request, ctx.signal), ctx.signal);
      if (answer === 'aborted') return { action: 'cancel' };
      if (answer.action !== 'accept') return { action: answer.action };

      const withFiles: FormValues = { ...answer.values };
      for (const f of model.fields) if (f.kind === 'file') withFiles[f.path[0]!] = answer.files?.[f.path[0]!] ?? [];
      const found = validateForm(model, withFiles);
      const checked = await checkFiles(model, scan.slots, answer, found);
      // The transport limit is per message: inline files that fit one by one may not fit together.
      const together = checkTotalSize(
        checked.filter((c) => c.field.transfer === 'inline').flatMap((c) => c.files),
        inline,
      );
      if (together) found[''] ??= together;
      if (Object.keys(found).length === 0) {
        // SEP-2631 uploads are authorized first: the confirmation names the host their bytes go to.
        let uploads: AuthorizedUploads | undefined;
        try {
          uploads = await authorizeUploads(
            checked.filter((c) => c.field.transfer === 'inline'),
            () => inline,
            ctx.uploader,
            ctx.signal,
          );
        } catch (e) {
          if (ctx.signal.aborted) return { action: 'cancel' };
          if (e instanceof InputRefusedError) throw e;
          return refuseOrCancel(`${ctx.server}: ${(e as Error).message}`);
        }
        const confirmed = await confirmFiles(params, ctx, checked, uploads);
        if (confirmed !== true && confirmed !== 'confirmed') uploads?.abandon();
        if (confirmed === 'aborted') return { action: 'cancel' };
        if (confirmed) return accept(params, ctx, model, answer.values, checked, confirmed === 'confirmed', uploads);
        // Cancel in the confirmation: back to the form, values and files kept.
        log.info(`Sending the files to ${ctx.server} was cancelled; the question is asked again.`);
        values = answer.values;
        errors = undefined;
        files = answer.files;
        continue;
      }

      // The file engine's refusals already start with the field's name.
      const summary = Object.entries(found)
        .map(([id, msg]) => {
          const label = fieldLabel(model, id);
          return msg.startsWith(`${label}: `) ? msg : `${label}: ${msg}`;
        })
        .join('; ');
      if (!options.interactive) throw new InputRefusedError(`The answer to ${ctx.server}'s question was refused: ${summary}`, Object.keys(found)[0]);
      log.info(`Answer to ${ctx.server} refused (attempt ${attempt}): ${summary}`);
      values = answer.values;
      errors = found;
    }
    return refuseOrCancel(`The elicitation from ${ctx.server} was cancelled after ${max} refused answers.`);
  }

  /** The user's yes to the checked files: 'confirmed' when asked, true when there was nothing to ask. */
  async function confirmFiles(
    params: ElicitRequestParamsLoose,
    ctx: ElicitationContext,
    checked: CheckedFieldFiles[],
    uploads: AuthorizedUploads | undefined,
  ): Promise<'confirmed' | boolean | 'aborted'> {
    const withFiles = checked.filter((c) => c.files.length > 0);
    for (const line of uploads?.lines() ?? []) log.info(`${ctx.server}'s question: ${line}`);
    if (!withFiles.length || !ui.confirmFiles) return true;
    const serverOrigin = ctx.serverOrigin ? originOf(ctx.serverOrigin) : undefined;
    const ok = await untilAborted(
      ui
        .confirmFiles(
          {
            server: ctx.server,
            files: withFiles.flatMap((c) =>
              c.files.map((f) => {
                const authorized = uploads?.get(f);
                if (authorized) {
                  return {
                    field: c.field.label,
                    name: f.name,
                    size: f.size,
                    mediaType: f.mediaType,
                    destination: authorized.host,
                    upload: true,
                    ...(authorized.foreign ? { otherOrigin: true } : {}),
                  };
                }
                const upload = c.field.transfer === 'upload' ? originOf(params.uploadEndpoints?.[c.field.path[0]!]?.url) : undefined;
                return {
                  field: c.field.label,
                  name: f.name,
                  size: f.size,
                  mediaType: f.mediaType,
                  destination: upload ?? ctx.server,
                  ...(upload !== undefined && upload !== serverOrigin ? { otherOrigin: true } : {}),
                };
              }),
            ),
          },
          ctx.signal,
        )
        .catch(() => false),
      ctx.signal,
    );
    return ok === 'aborted' ? ok : ok === true ? 'confirmed' : false;
  }

  async function accept(
    params: ElicitRequestParamsLoose,
    ctx: ElicitationContext,
    model: FormModel,
    values: FormValues,
    checked: CheckedFieldFiles[],
    confirmed: boolean,
    uploads: AuthorizedUploads | undefined,
  ): Promise<ElicitResultLoose> {
    const content = toPayload(model, values);
    const withFiles = checked.filter((c) => c.files.length > 0);
    try {
      let uploadedBytes = 0;
      const uploadTotal = withFiles.filter((c) => c.field.transfer === 'upload').reduce((n, c) => n + c.files.reduce((m, f) => m + f.size, 0), 0);
      for (const { field, slot, files } of withFiles) {
        const key = field.path[0]!;
        if (field.transfer === 'inline') {
          const uris: string[] = [];
          for (const f of files) {
            const prepared = uploads?.get(f);
            uris.push(
              await encodeCheckedFile(f, slot, inline, {
                ...(ctx.uploader ? { uploader: ctx.uploader } : {}),
                ...(prepared ? { prepared } : {}),
                signal: ctx.signal,
              }),
            );
          }
          content[key] = field.multiple ? uris : uris[0];
          continue;
        }
        const endpoint = getOwn(params.uploadEndpoints, key);
        await uploadField(ctx, key, endpoint, files, (sent) => uploadedBytes + sent, uploadTotal, confirmed);
        uploadedBytes += files.reduce((n, f) => n + f.size, 0);
        const meta = files.map((f) => ({ name: f.name, size: f.size, mimeType: f.mediaType, uploadId: endpoint!.uploadId ?? '' }));
        content[key] = field.multiple ? meta : meta[0];
      }
    } catch (e) {
      if (e instanceof ElicitationCancelled) {
        ui.notify?.(e.message, 'error');
        log.error(e.message);
        return { action: 'cancel' };
      }
      if (e instanceof InputRefusedError) throw e;
      return refuseOrCancel(`${ctx.server}: ${(e as Error).message}`);
    }
    return { action: 'accept', content };
  }

  async function uploadField(
    ctx: ElicitationContext,
    key: string,
    endpoint: UploadEndpoint | undefined,
    files: CheckedFile[],
    progressOf: (sent: number) => number,
    total: number,
    confirmed: boolean,
  ): Promise<void> {
    const fail = (why: string) => new ElicitationCancelled(`Upload for "${key}" to ${ctx.server} failed: ${why}. The request was cancelled.`);
    if (!endpoint || typeof endpoint.url !== 'string') throw fail('the server gave no upload endpoint for this field');
    const method = String(endpoint.method ?? 'POST').toUpperCase();
    if (method !== 'POST' && method !== 'PUT') throw fail(`the endpoint asks for HTTP ${method}; only POST and PUT are used`);
    let url: URL;
    try {
      url = new URL(endpoint.url);
    } catch {
      throw fail('the endpoint URL is not valid');
    }
    const insecure = refuseInsecureUrl(url);
    if (insecure) throw fail(insecure);
    const sameOrigin = ctx.serverOrigin !== undefined && url.origin === new URL(ctx.serverOrigin).origin;
    // The file confirmation named this destination as another origin: that yes is the consent.
    if (!sameOrigin && !confirmed) {
      const consent = ui.confirmUploadDestination
        ? await untilAborted(
            ui
              .confirmUploadDestination(
                {
                  server: ctx.server,
                  field: key,
                  fileName: files.map((f) => f.name).join(', '),
                  size: files.reduce((n, f) => n + f.size, 0),
                  destination: url.origin,
                  url: url.href,
                },
                ctx.signal,
              )
              .catch(() => false),
            ctx.signal,
          )
        : false;
      if (consent !== true) throw fail(`uploading to ${url.origin} (not the server's own origin) was not allowed`);
    }
    let lastReport = 0;
    let lastProgress = -1;
    // One notification at a time: over HTTP each is its own POST, and parallel POSTs can arrive out of order.
    let sending = Promise.resolve();
    const names = files.map((f) => f.name).join(', ');
    const report = (sent: number, force = false) => {
      if (!ctx.sendProgress || ctx.progressToken === undefined) return;
      const now = Date.now();
      const progress = progressOf(sent);
      // Progress must grow with every notification; at most ten a second, plus the last one.
      if (progress <= lastProgress || (!force && now - lastReport < 100)) return;
      lastReport = now;
      lastProgress = progress;
      sending = sending.then(() => ctx.sendProgress!(progress, total, `Uploading ${names}...`)).catch(() => undefined);
    };
    try {
      await uploadMultipart({
        url: url.href,
        method: method,
        files,
        signal: ctx.signal,
        policy: await destinationPolicyFor(ctx.serverOrigin),
        ...(sameOrigin && ctx.authHeader ? { authorization: ctx.authHeader } : {}),
        onBytes: (sent) => report(sent),
      });
    } catch (e) {
      throw fail((e as Error).message);
    }
    report(
      files.reduce((n, f) => n + f.size, 0),
      true,
    );
    await sending;
    log.info(`Uploaded ${names} for "${key}" to ${url.origin}${sameOrigin ? '' : " (with the user's consent, without the MCP token)"}.`);
  }

  async function urlMode(params: ElicitRequestParamsLoose, ctx: ElicitationContext): Promise<ElicitResultLoose> {
    const described = describeUrl(String(params.url ?? ''));
    if (typeof described === 'string') {
      log.warn(`${ctx.server}: URL elicitation declined: ${described}.`);
      ui.notify?.(`${ctx.server} asked you to open a link, but ${described}; it was declined.`, 'warning');
      return { action: 'decline' };
    }
    const answer = await untilAborted(
      ui.url(
        {
          server: ctx.server,
          message: String(params.message ?? ''),
          url: String(params.url),
          domain: described.domain,
          warnings: described.warnings,
          ...(described.domainUnicode ? { domainUnicode: described.domainUnicode } : {}),
          ...(typeof params.elicitationId === 'string' ? { elicitationId: params.elicitationId } : {}),
        },
        ctx.signal,
      ),
      ctx.signal,
    );
    return { action: answer === 'aborted' ? 'cancel' : answer };
  }

  // Replays of an elicitationId are answered by the connection (it remembers the answer per server session).
  return async (params, ctx) => {
    const mode = params.mode ?? 'form';
    if (mode === 'url') return urlMode(params, ctx);
    if (mode === 'form' || mode === 'binary') return formMode(params, ctx);
    log.warn(`${ctx.server} asked for an unknown elicitation mode "${String(mode).slice(0, 40)}"; declined.`);
    return { action: 'decline' };
  };
}

function fieldLabel(model: FormModel, id: string): string {
  if (id === '') return 'form';
  const walk = (fields: FormModel['fields']): string | undefined => {
    for (const f of fields) {
      if (f.id === id) return f.label;
      if (f.kind === 'object') {
        const hit = walk(f.fields);
        if (hit) return hit;
      }
    }
    return undefined;
  };
  return walk(model.fields) ?? id;
}

function originOf(url: unknown): string {
  try {
    return new URL(String(url)).origin;
  } catch {
    return 'an invalid upload address';
  }
}
