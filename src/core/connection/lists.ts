// The server's lists, one table: which capability says the server has each, and how it is fetched (every page,
// bypassing the SDK's cache). The connection refreshes them all the same way (a sign-in retry, a newer listing wins).
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, ServerCapabilities, Tool } from '@modelcontextprotocol/client';
import type { HostClient } from './sdkSeam';
import type { ServerList } from './types';

export interface Listed {
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
}

interface ListSpec<K extends ServerList> {
  /** The server capability that offers the list. */
  capability: keyof ServerCapabilities & ('tools' | 'prompts' | 'resources');
  /** The request, as named in a log line. */
  method: string;
  fetch(client: HostClient): Promise<Listed[K]>;
}

const REFRESH = { cacheMode: 'refresh' } as const;

export const LISTS: { readonly [K in ServerList]: ListSpec<K> } = {
  tools: { capability: 'tools', method: 'tools/list', fetch: async (c) => (await c.listTools(undefined, REFRESH)).tools },
  prompts: { capability: 'prompts', method: 'prompts/list', fetch: async (c) => (await c.listPrompts(undefined, REFRESH)).prompts },
  resources: { capability: 'resources', method: 'resources/list', fetch: async (c) => (await c.listResources(undefined, REFRESH)).resources },
  resourceTemplates: {
    capability: 'resources',
    method: 'resources/templates/list',
    fetch: async (c) => (await c.listResourceTemplates(undefined, REFRESH)).resourceTemplates,
  },
};

export const LIST_KINDS = Object.keys(LISTS) as ServerList[];

export function emptyLists(): Listed {
  return { tools: [], prompts: [], resources: [], resourceTemplates: [] };
}
