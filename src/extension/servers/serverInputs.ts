// Values for the `${input:ID}` variables a server's configuration uses: asked in one form before
// the server's first start, then reused. Passwords live in SecretStorage, other values in the
// workspace state; neither ever reaches settings, the config file or a log.

import * as vscode from 'vscode';
import { inputIdsUsedBy, type InputDefinition, type ServerDefinition } from '../../core/config';
import { buildForm, defaultValues, pointer, toPayload, type FieldErrors, type FormValues } from '../../core/forms';
import { showFormDialog } from '../panels/formDialog';
import { inputsSchema, isSecret } from './serverInputsSchema';

const STATE_KEY = 'mcpHost.inputValues';

/** The inputs a server uses with their declarations (undeclared ones are treated as secrets). */
export interface ServerInputRequest {
  server: ServerDefinition;
  /** The `inputs` declared in the server's config file. */
  declared: InputDefinition[];
}

function declaration(id: string, declared: InputDefinition[]): InputDefinition {
  return declared.find((i) => i.id === id) ?? { id, type: 'promptString', password: true, description: `The value of \${input:${id}}` };
}

/** Inputs are stored per config file: two files may use the same id for different things. */
function storageKey(server: ServerDefinition, id: string): string {
  return `${server.file}#${id}`;
}

export class ServerInputs {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly onProblem: (message: string) => void,
  ) {}

  private stored(): Record<string, string> {
    return this.context.workspaceState.get<Record<string, string>>(STATE_KEY, {});
  }

  private async read(server: ServerDefinition, input: InputDefinition): Promise<string | undefined> {
    const key = storageKey(server, input.id);
    return isSecret(input) ? this.context.secrets.get(key) : this.stored()[key];
  }

  private async write(server: ServerDefinition, input: InputDefinition, value: string): Promise<void> {
    const key = storageKey(server, input.id);
    if (isSecret(input)) {
      await this.context.secrets.store(key, value);
    } else {
      await this.context.workspaceState.update(STATE_KEY, { ...this.stored(), [key]: value });
    }
  }

  /** Whether every input the server uses already has a stored value (starting it asks nothing). */
  async allStored(request: ServerInputRequest): Promise<boolean> {
    for (const input of this.askable(request)) if ((await this.read(request.server, input)) === undefined) return false;
    return true;
  }

  /** Stores one value (for tests and scripted setups); a password input's value goes to SecretStorage. */
  async set(request: ServerInputRequest, id: string, value: string): Promise<void> {
    await this.write(request.server, declaration(id, request.declared), value);
  }

  /** Where an input's value is stored, if it is: never the value itself. */
  async storedIn(request: ServerInputRequest, id: string): Promise<'secrets' | 'workspaceState' | undefined> {
    const input = declaration(id, request.declared);
    if ((await this.read(request.server, input)) === undefined) return undefined;
    return isSecret(input) ? 'secrets' : 'workspaceState';
  }

  /** Whether the server uses any input the user fills in (not `command` inputs). */
  uses(request: ServerInputRequest): boolean {
    return this.askable(request).length > 0;
  }

  private askable({ server, declared }: ServerInputRequest): InputDefinition[] {
    return inputIdsUsedBy(server)
      .map((id) => declaration(id, declared))
      .filter((i) => i.type !== 'command');
  }

  /**
   * The value of every input the server uses, asking in one form for those not stored yet
   * (or for all of them when `edit`). Undefined when the user cancelled.
   */
  async valuesFor(request: ServerInputRequest, extensionUri: vscode.Uri, edit = false): Promise<Map<string, string> | undefined> {
    const values = new Map<string, string>();
    const askable = this.askable(request);
    const missing: InputDefinition[] = [];
    for (const input of askable) {
      const value = await this.read(request.server, input);
      if (value === undefined) missing.push(input);
      else values.set(input.id, value);
    }
    const toAsk = edit ? askable : missing;
    if (toAsk.length > 0) {
      const answered = await this.ask(request.server, toAsk, values, extensionUri);
      if (!answered) return undefined;
      for (const input of toAsk) {
        const value = answered[input.id];
        if (typeof value === 'string' && (value !== '' || !values.has(input.id))) {
          await this.write(request.server, input, value);
          values.set(input.id, value);
        }
      }
    }
    for (const id of inputIdsUsedBy(request.server)) {
      const input = declaration(id, request.declared);
      if (input.type === 'command' && input.command) values.set(id, String((await vscode.commands.executeCommand(input.command, input.args)) ?? ''));
    }
    return values;
  }

  private async ask(
    server: ServerDefinition,
    inputs: InputDefinition[],
    known: Map<string, string>,
    extensionUri: vscode.Uri,
  ): Promise<FormValues | undefined> {
    const keptSecrets = new Set(inputs.filter((i) => isSecret(i) && known.has(i.id)).map((i) => i.id));
    const model = buildForm(inputsSchema(inputs, keptSecrets));
    model.title = `Inputs for ${server.name}`;
    model.description = `The configuration of "${server.name}" uses these values. Passwords are kept in VS Code's secret storage.`;
    const values: FormValues = defaultValues(model);
    for (const input of inputs) {
      const value = known.get(input.id);
      if (value !== undefined && !isSecret(input)) values[input.id] = value;
    }
    const answer = await showFormDialog({
      viewType: 'mcpHost.inputs',
      title: `MCP: ${server.name} inputs`,
      extensionUri,
      model,
      values,
      init: (v) => ({ kind: 'inputs', heading: { title: `Inputs for ${server.name}`, server: server.name }, form: model, values: v }),
      validate: (v): FieldErrors => noEmptyRequired(inputs, keptSecrets, v),
      onProblem: this.onProblem,
    });
    return answer.action === 'accept' ? toPayload(model, answer.values) : undefined;
  }

  /** Forgets every stored value of a server's inputs. */
  async clear(request: ServerInputRequest): Promise<void> {
    const state = { ...this.stored() };
    for (const input of this.askable(request)) {
      const key = storageKey(request.server, input.id);
      delete state[key];
      await this.context.secrets.delete(key);
    }
    await this.context.workspaceState.update(STATE_KEY, state);
  }
}

function noEmptyRequired(inputs: InputDefinition[], keptSecrets: ReadonlySet<string>, values: FormValues): FieldErrors {
  const errors: FieldErrors = {};
  for (const input of inputs) {
    const v = values[input.id];
    if (input.default === undefined && !keptSecrets.has(input.id) && (v === undefined || v === '')) errors[pointer([input.id])] = 'Required.';
  }
  return errors;
}
