// What the host offers a server beyond its own requests (roots, elicitation, sampling, files, apps, tasks, skills,
// secure parameters, the server's log): each client feature declares its capabilities from the connection's
// options and installs its handlers on each session's client. The connection knows this table, not the features.
import { ProtocolError, type ClientCapabilities, type ClientContext, type Result } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { UI_CAPABILITY, UI_EXTENSION_ID } from '../apps/discovery';
import type { FileUploader } from '../files/transfer/encode';
import { FILES_CAPABILITY, FILES_CAPABILITY_KEY } from '../files/transfer/protocol';
import type { ResolvedServer } from '../config/types';
import { SamplingQueueFullError, ServerRequestError } from '../errors';
import type { Logger } from '../log';
import { SAMPLING_DECLINED_CODE, samplingRequestProblem, type SamplingRequest, type SamplingResult } from '../sampling';
import { SECURE_PARAMS_EXTENSION_ID } from '../secureParams';
import { SKILLS_EXTENSION_ID } from '../skills';
import { TASKS_EXTENSION_ID } from '../tasks/extension';
import { receivedTasksCapability, serveReceivedTasks } from '../tasks/received';
import type { HostClient } from './sdkSeam';
import type { ConnectionSession } from './session';
import type { ConnectionOptions, ElicitationContext, ElicitRequestParamsLoose, ElicitResultLoose } from './types';

/** How many elicitationIds are remembered for de-duplicating replays. */
const ELICITATION_MEMORY = 64;
/** How long an answer still serves a replay after it was given (HTTP resumption replays arrive right after). */
const ELICITATION_REPLAY_GRACE_MS = 10_000;

const LooseElicitParams = z.looseObject({ message: z.string().optional(), mode: z.string().optional() });

/** What the features reach of their connection. */
export interface FeatureHost {
  readonly name: string;
  readonly server: ResolvedServer;
  readonly log: Logger;
  readonly options: ConnectionOptions;
  /** The out-of-band file transfer client (SEP-2631) when the server offers transfers. */
  uploader(): FileUploader | undefined;
  /** Runs the answer to one of the server's requests, counted in the connection's open work until it settles. */
  answering<T>(work: () => Promise<T>): Promise<T>;
  /** The events the features report through the connection. */
  serverLogged(params: { level: string; logger?: string; data?: unknown }): void;
  resourceUpdated(uri: string): void;
  taskStatusChanged(params: Record<string, unknown>): void;
  elicitationCompleted(elicitationId: string): void;
}

/** A server-to-client request as one feature answers it: standalone, or inside a 2026-07-28 task. */
type Answer = (host: FeatureHost, params: Record<string, unknown>, ctx: ClientContext, session: ConnectionSession | undefined) => Promise<unknown>;

interface ClientFeature {
  /** What it declares under these options; nothing when they leave it off. */
  declare?(options: ConnectionOptions): ClientCapabilities | undefined;
  /** Sets its handlers on a new session's client. */
  install?(client: HostClient, host: FeatureHost, session: ConnectionSession): void;
  /** The server requests it answers when declared, by method (also those that arrive inside a task). */
  answers?(options: ConnectionOptions): Record<string, Answer> | undefined;
}

const roots: ClientFeature = {
  declare: (o) => (o.roots ? { roots: { listChanged: true } } : undefined),
  answers: (o) => {
    const list = o.roots;
    return list ? { 'roots/list': async () => ({ roots: list() }) } : undefined;
  },
  install: (client, host) => {
    const list = host.options.roots;
    if (list) client.setRequestHandler('roots/list', async () => ({ roots: list() }));
  },
};

const elicitation: ClientFeature = {
  declare: (o) => {
    if (!o.elicitation) return undefined;
    const binary = o.capabilities?.binaryElicitation;
    return {
      elicitation: {
        form: {},
        url: {},
        ...(binary ? { binary: { ...binary, supportedMimeTypes: binary.supportedMimeTypes ?? ['*/*'] } } : {}),
      },
    };
  },
  answers: (o) =>
    o.elicitation
      ? {
          'elicitation/create': async (host, params, ctx, session) => {
            if (typeof params.message !== 'string') throw new ServerRequestError(`"${host.name}" asked for input inside a task without a message`);
            return answerElicitation(host, params as ElicitRequestParamsLoose, ctx, session);
          },
        }
      : undefined,
  install: (client, host, session) => {
    const o = host.options;
    if (o.elicitation) {
      client.routeBinaryElicitation = !!o.capabilities?.binaryElicitation;
      // The 3-argument form with a loose schema: the SDK's own would strip `x-mcp-file` from requestedSchema.
      client.setRequestHandler(
        'elicitation/create',
        { params: LooseElicitParams },
        async (params, ctx) => (await host.answering(() => answerElicitation(host, params as ElicitRequestParamsLoose, ctx, session))) as unknown as Result,
      );
      client.setNotificationHandler('notifications/elicitation/complete', (n) => {
        host.log.info(`elicitation ${n.params.elicitationId} completed`);
        session.elicitations.delete(n.params.elicitationId);
        host.elicitationCompleted(n.params.elicitationId);
      });
      return;
    }
    // Not declared, so a conforming server never asks; one that does gets a plain refusal.
    client.fallbackRequestHandler = async (request) => {
      if (request.method === 'elicitation/create') {
        host.log.warn('the server asked for input (elicitation/create) though the host did not declare elicitation; answered cancel');
        return { action: 'cancel' };
      }
      throw new ProtocolError(-32601, `Method not found: ${request.method}`);
    };
  },
};

/** `session`: the one the request came through (its replay memory, its client's timers); none once it ended. */
async function answerElicitation(
  host: FeatureHost,
  params: ElicitRequestParamsLoose,
  ctx: ClientContext,
  session: ConnectionSession | undefined,
): Promise<ElicitResultLoose> {
  const id = typeof params.elicitationId === 'string' ? params.elicitationId : undefined;
  if (id !== undefined) {
    const earlier = session?.elicitations.get(id);
    if (earlier) {
      host.log.info(`elicitation ${id} was sent again; reusing its answer`);
      return earlier;
    }
  }
  const mode = params.mode ?? 'form';
  host.log.info(`the server asks for input (${mode} elicitation)`);
  const context: ElicitationContext = { server: host.name, signal: ctx.mcpReq.signal };
  const uploader = host.uploader();
  if (uploader) context.uploader = uploader;
  if (mode === 'binary') {
    const token = (params._meta as { progressToken?: string | number } | undefined)?.progressToken ?? ctx.mcpReq._meta?.progressToken;
    context.progressToken = token;
    context.sendProgress = async (progress, total, message) => {
      if (token === undefined) return;
      await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress, total, message } });
    };
    if (host.server.transport !== 'stdio') {
      context.serverOrigin = new URL(host.server.url).origin;
      const auth = Object.entries(host.server.headers).find(([k]) => k.toLowerCase() === 'authorization');
      if (auth) context.authHeader = auth[1];
    }
  }
  const client = session?.client;
  client?.pauseRequestTimeouts();
  const answer = (async () => {
    try {
      return await host.options.elicitation!(params, context);
    } finally {
      client?.resumeRequestTimeouts();
    }
  })();
  if (id !== undefined && session) {
    // A replay reuses the answer while the first request is in flight and for a short grace period after;
    // never in a later session, nor once the server says it is complete.
    const elicitations = session.elicitations;
    elicitations.set(id, answer);
    if (elicitations.size > ELICITATION_MEMORY) elicitations.delete(elicitations.keys().next().value!);
    const forget = () => {
      if (elicitations.get(id) === answer) elicitations.delete(id);
    };
    answer.then(() => {
      setTimeout(forget, ELICITATION_REPLAY_GRACE_MS).unref();
    }, forget);
  }
  const result = await answer;
  host.log.info(`elicitation answered: ${result.action}`);
  return result;
}

const sampling: ClientFeature = {
  declare: (o) => (o.sampling ? { sampling: o.capabilities?.samplingTools ? { tools: {} } : {} } : undefined),
  answers: (o) =>
    o.sampling
      ? {
          'sampling/createMessage': (host, params, ctx, session) =>
            answerSampling(host, params as unknown as SamplingRequest, ctx.mcpReq.signal, session?.client),
        }
      : undefined,
  install: (client, host) => {
    if (!host.options.sampling) return;
    // The host's limits first (before the SDK's schema), so a refusal says what is wrong in a line.
    client.checkRequest = (method, params) => {
      if (method === 'sampling/createMessage') checkSamplingRequest(host, params as SamplingRequest);
    };
    client.setRequestHandler(
      'sampling/createMessage',
      async (request, ctx) =>
        (await host.answering(() => answerSampling(host, request.params as unknown as SamplingRequest, ctx.mcpReq.signal, client))) as never,
    );
  },
};

/** The host's limits on a sampling request (run before the SDK's own checks); a refusal says what is wrong. */
function checkSamplingRequest(host: FeatureHost, request: SamplingRequest): void {
  const problem = samplingRequestProblem(request);
  if (problem) {
    host.log.warn(`sampling request refused: ${problem}`);
    throw new ProtocolError(-32602, `Sampling request refused by the host: ${problem}`);
  }
}

/**
 * Checks the request (again, for callers that come without `checkRequest`: a request inside a 2026-07-28 task),
 * then asks the handler; a decline or refusal is an error to the server that says why.
 */
async function answerSampling(host: FeatureHost, request: SamplingRequest, signal: AbortSignal, client: HostClient | undefined): Promise<SamplingResult> {
  checkSamplingRequest(host, request);
  host.log.info(`the server asks for a model's answer (sampling, maxTokens ${request.maxTokens})`);
  client?.pauseRequestTimeouts();
  try {
    return await host.options.sampling!(request, { server: host.name, signal });
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    host.log.info(`sampling declined: ${why}`);
    // The extension's handler (and its queue) comes from another bundle: its error is recognised by its brand.
    if (e instanceof SamplingQueueFullError) throw new ProtocolError(SAMPLING_DECLINED_CODE, `Sampling request refused by the host: ${why}`);
    throw new ProtocolError(SAMPLING_DECLINED_CODE, `User rejected sampling request: ${why}`);
  } finally {
    client?.resumeRequestTimeouts();
  }
}

/** 2025-11-25 `tasks.requests`: a server may send its sampling and elicitation requests as tasks. */
const receivedTasks: ClientFeature = {
  declare: (o) =>
    o.capabilities?.taskRequests && (o.sampling || o.elicitation) ? { tasks: receivedTasksCapability(!!o.sampling, !!o.elicitation) } : undefined,
  install: (client, host) => {
    const o = host.options;
    if (o.capabilities?.taskRequests && (o.sampling || o.elicitation)) client.receivedTasks = serveReceivedTasks(client, host.log);
  },
};

const extension = (id: string, value: object = {}): ClientCapabilities => ({ extensions: { [id]: value } }) as ClientCapabilities;

const fileInputs: ClientFeature = { declare: (o) => (o.capabilities?.fileInputs ? ({ fileInputs: {} } as ClientCapabilities) : undefined) };
const files: ClientFeature = { declare: (o) => (o.capabilities?.files ? ({ [FILES_CAPABILITY_KEY]: FILES_CAPABILITY } as ClientCapabilities) : undefined) };
const apps: ClientFeature = { declare: (o) => (o.capabilities?.apps ? extension(UI_EXTENSION_ID, UI_CAPABILITY) : undefined) };
/** 2026-07-28 Tasks extension: every tool call may be answered with a task (core/tasks follows it); a plain call withdraws the offer for that one request. */
const tasksExtension: ClientFeature = { declare: () => extension(TASKS_EXTENSION_ID) };
/** SEP-2640 skills: the host lists a server's skills and reads their files only when asked (core/skills). */
const skills: ClientFeature = { declare: () => extension(SKILLS_EXTENSION_ID) };
/** SEP-3221 secure parameters: values of a tool's secureInputSchema are the host's to send (core/secureParams). */
const secureParams: ClientFeature = { declare: () => extension(SECURE_PARAMS_EXTENSION_ID) };

/** What the server tells the host unasked: its log, a subscribed resource's change, a task's status. */
const notifications: ClientFeature = {
  install: (client, host) => {
    client.setNotificationHandler('notifications/message', (n) => host.serverLogged(n.params));
    client.setNotificationHandler('notifications/resources/updated', (n) => host.resourceUpdated(n.params.uri));
    // Not in the SDK's typed map (tasks are experimental in 2025-11-25), but its wire schema knows it.
    client.setNotificationHandler('notifications/tasks/status' as 'notifications/message', (n) =>
      host.taskStatusChanged(n.params as unknown as Record<string, unknown>),
    );
    client.fallbackNotificationHandler = async (n) => {
      if (n.method === 'notifications/tasks' && n.params) host.taskStatusChanged(n.params);
    };
  },
};

const FEATURES: readonly ClientFeature[] = [
  roots,
  elicitation,
  fileInputs,
  sampling,
  files,
  receivedTasks,
  apps,
  tasksExtension,
  skills,
  secureParams,
  notifications,
];

/** The capabilities the host declares under these options: every feature's, `extensions` merged by id. */
export function declaredCapabilities(options: ConnectionOptions): ClientCapabilities {
  const caps: Record<string, unknown> = {};
  for (const feature of FEATURES) {
    const declared = feature.declare?.(options) as Record<string, unknown> | undefined;
    if (!declared) continue;
    const { extensions, ...rest } = declared;
    Object.assign(caps, rest);
    if (extensions) caps.extensions = { ...(caps.extensions as object | undefined), ...extensions };
  }
  return caps;
}

/** Sets every feature's handlers on a new session's client. */
export function installFeatures(client: HostClient, host: FeatureHost, session: ConnectionSession): void {
  for (const feature of FEATURES) feature.install?.(client, host, session);
}

/**
 * Answers one server-to-client request that arrived inside a task (2026-07-28 `inputRequests`) through the same
 * handler, checks and UI as the standalone request; anything the host did not declare is refused.
 */
export async function answerInTask(
  host: FeatureHost,
  method: string,
  params: Record<string, unknown>,
  signal: AbortSignal,
  session: ConnectionSession | undefined,
): Promise<unknown> {
  const ctx = { mcpReq: { signal, _meta: undefined, notify: async () => undefined } } as unknown as ClientContext;
  for (const feature of FEATURES) {
    const answer = feature.answers?.(host.options)?.[method];
    if (answer) return answer(host, params, ctx, session);
  }
  if (method === 'elicitation/create') return { action: 'cancel' };
  throw new ServerRequestError(`"${host.name}" sent a task a request the host does not answer: ${method.slice(0, 100)}`, -32601);
}
