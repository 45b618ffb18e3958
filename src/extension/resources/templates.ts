// Resource templates (RFC 6570): their variables as a form's fields, and the URI a filled form names.
// The SDK's UriTemplate comes with the connection bundle, loaded on demand.
import type { ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/client';
import type { ServerConnection } from '../../core/connection';
import { toResultView, type ResultLike, type ResultView } from '../../core/results';
import { connectionBundle } from '../activation/connectionBundle';
import type { ResourceDocuments } from './resourceDocuments';

/** A template opened in the tool panel, with its variables (read once, when it is opened). */
export interface TemplateSubject {
  kind: 'template';
  template: ResourceTemplate;
  variables: string[];
}

function uriTemplate(template: string) {
  const { UriTemplate } = connectionBundle();
  return new UriTemplate(template);
}

/** The template's variables, in order. */
export function templateVariables(template: ResourceTemplate): string[] {
  return uriTemplate(template.uriTemplate).variableNames;
}

/** The variables as prompt-like arguments (each a required string), for `promptArgumentsSchema`. */
export function templateArguments(variables: string[]): { name: string; required: true }[] {
  return variables.map((name) => ({ name, required: true }));
}

/** The URI the template names with these values (each value percent-encoded as RFC 6570 says). */
export function expandTemplate(template: ResourceTemplate, values: Record<string, string>): string {
  return uriTemplate(template.uriTemplate).expand(values);
}

/** Reads the resource the filled template names, opens it in its editor, and returns it as a panel result. */
export async function readTemplate(
  documents: ResourceDocuments,
  connection: ServerConnection,
  subject: TemplateSubject,
  values: Record<string, string>,
  signal: AbortSignal,
): Promise<{ result: ResultLike; view: ResultView }> {
  const uri = expandTemplate(subject.template, values);
  const read = await connection.readResource(uri, { signal });
  if ((read.contents ?? []).some((c) => 'text' in c)) await documents.open(connection.name, uri, read);
  const result = { content: (read.contents ?? []).map((resource) => ({ type: 'resource', resource })) };
  return { result, view: toResultView(result) };
}
