// Suggestions for a prompt's arguments and a resource template's variables, asked of the server as the user
// types in the panel's form (the webview debounces and keeps only the latest answer per field).
import { completionContext, type CompletionRef } from '../../shared/completion';
import type { ServerConnection } from '../../core/connection';
import type { FormModel } from '../../core/forms';
import type { RequestParams, RequestResult } from '../../shared/protocol';
import type { PanelSubject } from './toolPanel';
import { ConnectionState } from '../../core/connection/types';

/** What the server completes for this subject; tools have no completions. */
export function completionRefOf(subject: PanelSubject): CompletionRef | undefined {
  if (subject.kind === 'prompt') return { type: 'ref/prompt', name: subject.prompt.name };
  if (subject.kind === 'template') return { type: 'ref/resource', uri: subject.template.uriTemplate };
  return undefined;
}

/** Answers a `complete` request of the form: the field's argument, its value so far, the other filled values as context. */
export async function completeFormField(
  connection: ServerConnection | undefined,
  ref: CompletionRef,
  model: FormModel,
  params: RequestParams<'complete'>,
): Promise<RequestResult<'complete'>> {
  const field = model.fields.find((f) => f.id === params.field);
  if (!field || !connection || !ConnectionState.isRunning(connection.state) || !connection.supportsCompletions) return { values: [] };
  const name = field.path[0]!;
  const answer = await connection.complete({
    ref,
    argument: { name, value: params.value },
    context: completionContext(params.values, name),
  });
  if (answer.cut) connection.log.info(`completing "${name}": ${answer.cut}`);
  return { values: answer.values, note: answer.cut };
}
