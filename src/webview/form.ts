// Renders a FormModel as native controls bound to a values object. Every field gets a
// <label for> (or a fieldset legend), its description as text, and an error line
// (role=alert, linked with aria-describedby). File fields never hold bytes: they show the
// summaries the host sends and ask the host to pick or remove files.

import type { FieldErrors, FileField, FormField, FormModel, FormValues } from '../shared/formModel';
import type { FileSource, FileSummary } from '../shared/protocol';
import type { Suggestions } from '../shared/completion';
import { h, icon, replaceChildren, uniqueId } from './dom';
import { describeFile, describeFileSlot, fromLocalDateTimeInput, percent, toLocalDateTimeInput } from './format';
import { getAt, keyOf, setAt, type ValuePath } from './values';

export interface FormHost {
  /** Mutated in place as the user types. */
  readonly values: FormValues;
  /** Chosen files by field id (only the host changes them). */
  files(fieldId: string): FileSummary[];
  /** A value changed; `fieldId` is the field whose error line should now show checks. */
  changed(fieldId: string): void;
  pickFile(fieldId: string, source: FileSource): void;
  removeFile(fieldId: string, index: number): void;
  /** The server's suggestions for a text field as typed so far; undefined when superseded by a later request. */
  suggest?(fieldId: string, value: string): Promise<Suggestions | undefined>;
}

interface ErrorLine {
  element: HTMLElement;
  /** The controls marked aria-invalid when the line shows an error. */
  controls: HTMLElement[];
}

interface FileSlotView {
  list: HTMLElement;
  refusal: HTMLElement;
  upload: HTMLProgressElement;
  field: FileField;
}

export class FormView {
  readonly element: HTMLFieldSetElement;
  private readonly errorLines = new Map<string, ErrorLine>();
  private readonly fileSlots = new Map<string, FileSlotView>();
  /** Plain text inputs by field id, so a filename companion can be filled from a chosen file. */
  private readonly textInputs = new Map<string, { input: HTMLInputElement; path: ValuePath }>();
  /** The name last filled into each companion: the user's own text is never replaced. */
  private readonly filledNames = new Map<string, string>();
  private readonly formError = h('div', { className: 'error form-error', attrs: { role: 'alert', hidden: true } });
  /** The fields' suggestion lists (the fields are built before the fieldset that holds them exists). */
  private readonly suggestionLists = h('div', { className: 'suggestion-lists' });

  constructor(
    private readonly model: FormModel,
    private readonly host: FormHost,
  ) {
    // A fieldset, so one `disabled` locks every control of an answered form (see `disabled`).
    this.element = h(
      'fieldset',
      { className: 'form' },
      model.description ? h('p', { className: 'description' }, model.description) : null,
      ...model.warnings.map((w) => h('div', { className: 'warning' }, icon('warning'), ' ', w)),
      ...model.fields.map((f) => this.field(f, [keyOf(f)], true)),
      this.formError,
      this.suggestionLists,
    );
    if (model.fields.length === 0) this.element.append(h('p', { className: 'description' }, 'This form has no fields.'));
    // A file chosen just before the panel was hidden reaches the host but not the page: the page built again from the
    // host's state fills an empty companion as the choice would have.
    for (const [fieldId, slot] of this.fileSlots) {
      const files = host.files(fieldId);
      if (slot.field.filenameField && files.length === 1) this.fillFilename(slot.field.filenameField, files[0]!.name, false);
    }
  }

  /** Locks (or unlocks) every field and file button at once; controls disabled on their own stay so. */
  set disabled(value: boolean) {
    this.element.disabled = value;
  }

  /** Shows `errors` (by field id); fields not listed are cleared. An id without its own line goes to its nearest ancestor's. */
  showErrors(errors: FieldErrors): void {
    const shown = new Map<string, string>();
    for (const [id, message] of Object.entries(errors)) {
      const owner = this.lineFor(id);
      if (!shown.has(owner)) shown.set(owner, message);
    }
    for (const [id, line] of this.errorLines) setError(line, shown.get(id));
    const general = shown.get('');
    this.formError.textContent = general ?? '';
    this.formError.hidden = general === undefined;
  }

  setFiles(fieldId: string, files: FileSummary[]): void {
    const slot = this.fileSlots.get(fieldId);
    if (!slot) return;
    this.clearRefusal(slot);
    this.renderFileList(fieldId, slot, files);
    if (slot.field.filenameField) this.fillFilename(slot.field.filenameField, files.length === 1 ? files[0]!.name : '');
  }

  /**
   * Puts the chosen file's name into the companion field, unless the user typed a name of their own there; `changed`:
   * the host is told, as of any edit (not while the form is being built).
   */
  private fillFilename(fieldId: string, name: string, changed = true): void {
    const target = this.textInputs.get(fieldId);
    if (!target) return;
    const current = getAt(this.values, target.path);
    const untouched = current === undefined || current === '' || current === this.filledNames.get(fieldId);
    if (!untouched) return;
    target.input.value = name;
    this.filledNames.set(fieldId, name);
    if (changed) this.set(target.path, name === '' ? undefined : name, fieldId);
    else setAt(this.values, target.path, name === '' ? undefined : name);
  }

  /** A refused file: the reason, and what Run sends for this slot now (the files still listed, or none). */
  showRefusal(fieldId: string, reason: string): void {
    const slot = this.fileSlots.get(fieldId);
    if (!slot) return;
    const kept = this.host.files(fieldId).length;
    const sends =
      kept > 0
        ? `Run sends the ${kept === 1 ? 'file' : `${kept} files`} listed above, not this one.`
        : slot.field.required
          ? 'Choose another file: this one is required.'
          : 'Run sends no file for this slot.';
    slot.refusal.textContent = `${reason} ${sends}`;
    slot.refusal.hidden = false;
  }

  private clearRefusal(slot: FileSlotView): void {
    slot.refusal.hidden = true;
    slot.refusal.textContent = '';
  }

  showUploadProgress(fieldId: string, sent: number, total: number): void {
    const slot = this.fileSlots.get(fieldId);
    if (!slot) return;
    slot.upload.hidden = false;
    slot.upload.max = 100;
    slot.upload.value = percent(sent, total) ?? 0;
  }

  private lineFor(id: string): string {
    let at = id;
    while (at && !this.errorLines.has(at)) at = at.slice(0, at.lastIndexOf('/'));
    return at;
  }

  private get values(): FormValues {
    return this.host.values;
  }

  private set(path: ValuePath, value: unknown, fieldId: string): void {
    setAt(this.values, path, value);
    this.host.changed(fieldId);
  }

  /**
   * One field at `path` in the values. `ownLine` is false for array entries: their errors are
   * shown on the array's line (the core reports them under the array's id).
   */
  private field(field: FormField, path: ValuePath, ownLine: boolean, label = field.label): HTMLElement {
    if (field.kind === 'file') return this.fileSlot(field, label);
    if (field.kind === 'object') return this.objectField(field, path, ownLine, label);
    if (field.kind === 'array') return this.arrayField(field, path, ownLine, label);
    if (field.kind === 'multiEnum') return this.multiEnumField(field, path, ownLine, label);

    const id = uniqueId('field');
    const descriptionId = field.description ? uniqueId('desc') : undefined;
    const error = this.errorLine(field.id, ownLine);
    const describedBy = [descriptionId, error?.element.id].filter(Boolean).join(' ') || undefined;
    const control = this.control(field, path, id, describedBy, label);
    const wrapper = h('div', { className: `field field-${field.kind}` });
    const labelEl = h('label', { attrs: { for: id } }, label);

    if (field.kind === 'boolean') wrapper.append(h('div', { className: 'checkbox-row' }, control, labelEl, requiredMark(field)));
    else wrapper.append(h('div', { className: 'label-row' }, labelEl, requiredMark(field)), control);
    if (field.nullable && field.kind !== 'json') wrapper.append(this.nullToggle(field, path, control, label));
    if (field.description) wrapper.append(h('div', { className: 'description', attrs: { id: descriptionId } }, field.description));
    if (field.kind === 'json') wrapper.append(h('div', { className: 'description' }, `Edited as JSON: ${field.reason}`));
    if (error) {
      error.controls.push(control);
      wrapper.append(error.element);
    }
    return wrapper;
  }

  private errorLine(fieldId: string, own: boolean): ErrorLine | undefined {
    if (!own) return undefined;
    const line: ErrorLine = {
      element: h('div', { className: 'error', attrs: { id: uniqueId('error'), role: 'alert', hidden: true } }),
      controls: [],
    };
    this.errorLines.set(fieldId, line);
    return line;
  }

  /** Fills a datalist under the input with the server's suggestions as the user types (and on focus). */
  private offerSuggestions(input: HTMLInputElement, fieldId: string): void {
    const list = h('datalist', { attrs: { id: uniqueId('suggestions') } });
    input.setAttribute('list', list.id);
    input.setAttribute('autocomplete', 'off');
    this.suggestionLists.append(list);
    // Says when the server sent more suggestions than are offered; placed once the input is in the form.
    const note = h('p', { className: 'hint suggestion-note', attrs: { 'aria-live': 'polite' } });
    const ask = (): void => {
      void this.host.suggest?.(fieldId, input.value).then(
        (answer) => {
          if (!answer) return;
          replaceChildren(list, ...answer.values.map((v) => h('option', { attrs: { value: v } })));
          note.textContent = answer.note ?? '';
          if (answer.note && !note.isConnected) input.insertAdjacentElement('afterend', note);
        },
        () => undefined,
      );
    };
    input.addEventListener('input', ask);
    input.addEventListener('focus', ask);
  }

  /** The input element of a leaf field (string, number, boolean, enum, variant, json). */
  private control(field: FormField, path: ValuePath, id: string, describedBy: string | undefined, label: string): HTMLElement {
    const common = { id, 'aria-describedby': describedBy, 'aria-required': field.required ? 'true' : undefined };
    const current = getAt(this.values, path);
    switch (field.kind) {
      case 'string': {
        const type = field.secret ? 'password' : inputTypeFor(field.format);
        const input = h('input', {
          attrs: {
            ...common,
            type,
            minlength: field.minLength,
            maxlength: field.maxLength,
            readonly: field.readOnly,
            autocomplete: field.secret ? 'off' : undefined,
            spellcheck: 'false',
          },
        });
        const text = typeof current === 'string' ? current : current === undefined || current === null ? '' : String(current);
        input.value = type === 'datetime-local' ? toLocalDateTimeInput(text) : text;
        input.addEventListener('input', () => {
          const raw = type === 'datetime-local' ? fromLocalDateTimeInput(input.value) : input.value;
          this.set(path, raw === '' ? undefined : raw, field.id);
        });
        if (type === 'text') this.textInputs.set(field.id, { input, path });
        if (type === 'text' && this.host.suggest && !field.readOnly) this.offerSuggestions(input, field.id);
        return input;
      }
      case 'number':
      case 'integer': {
        const step = field.multipleOf ?? (field.kind === 'integer' ? 1 : 'any');
        // A secret number (a PIN) is typed masked; its text is read as a number like any other.
        const input = h('input', {
          attrs: field.secret
            ? { ...common, type: 'password', inputmode: field.kind === 'integer' ? 'numeric' : 'decimal', autocomplete: 'off', readonly: field.readOnly }
            : { ...common, type: 'number', min: field.minimum, max: field.maximum, step, readonly: field.readOnly },
        });
        input.value = typeof current === 'number' || typeof current === 'string' ? String(current) : '';
        input.addEventListener('input', () => {
          const n = input.value.trim() === '' ? undefined : Number(input.value);
          this.set(path, n !== undefined && Number.isFinite(n) ? n : input.value || undefined, field.id);
        });
        return input;
      }
      case 'boolean': {
        const input = h('input', { attrs: { ...common, type: 'checkbox', disabled: field.readOnly } });
        input.checked = current === true;
        input.addEventListener('change', () => this.set(path, input.checked, field.id));
        return input;
      }
      case 'enum': {
        const select = h('select', { attrs: { ...common, disabled: field.readOnly } });
        const selected = field.options.findIndex((o) => sameJson(o.value, current));
        select.append(h('option', { attrs: { value: '' } }, field.required ? 'Choose…' : '(none)'));
        field.options.forEach((o, i) => select.append(h('option', { attrs: { value: String(i) } }, o.label)));
        select.value = selected >= 0 ? String(selected) : '';
        select.addEventListener('change', () => {
          const option = select.value === '' ? undefined : field.options[Number(select.value)];
          this.set(path, option ? structuredClone(option.value) : undefined, field.id);
        });
        return select;
      }
      case 'variant':
        return this.variantControl(field, path, id, describedBy, label);
      case 'json': {
        const area = h('textarea', { className: 'json', attrs: { ...common, rows: 6, spellcheck: 'false' } });
        area.value = typeof current === 'string' ? current : current === undefined ? '' : JSON.stringify(current, null, 2);
        area.addEventListener('input', () => this.set(path, area.value.trim() === '' ? undefined : area.value, field.id));
        return area;
      }
      default:
        return h('span');
    }
  }

  /** A choice between simple schemas: a select for the branch, then that branch's control. */
  private variantControl(
    field: Extract<FormField, { kind: 'variant' }>,
    path: ValuePath,
    id: string,
    describedBy: string | undefined,
    label: string,
  ): HTMLElement {
    const select = h('select', { attrs: { id, 'aria-describedby': describedBy } });
    field.variants.forEach((v, i) => select.append(h('option', { attrs: { value: String(i) } }, v.label)));
    const body = h('div', { className: 'variant-body' });
    const show = (index: number) => {
      const branch = field.variants[index]!;
      replaceChildren(body, this.field({ ...branch, id: field.id, description: branch.description }, path, false, `${label} (${branch.label})`));
    };
    select.value = String(Math.max(0, branchFor(field.variants, getAt(this.values, path))));
    select.addEventListener('change', () => {
      const branch = field.variants[Number(select.value)]!;
      setAt(this.values, path, branch.default !== undefined ? structuredClone(branch.default) : undefined);
      show(Number(select.value));
      this.host.changed(field.id);
    });
    show(Number(select.value));
    return h('div', { className: 'variant' }, select, body);
  }

  private nullToggle(field: FormField, path: ValuePath, control: HTMLElement, label: string): HTMLElement {
    const id = uniqueId('null');
    const box = h('input', { attrs: { id, type: 'checkbox', 'aria-label': `${label} is null` } });
    const apply = () => {
      for (const el of [control, ...Array.from(control.querySelectorAll('input, select, textarea'))]) {
        (el as HTMLInputElement).disabled = box.checked;
      }
    };
    box.checked = getAt(this.values, path) === null;
    apply();
    box.addEventListener('change', () => {
      apply();
      this.set(path, box.checked ? null : undefined, field.id);
    });
    return h('div', { className: 'checkbox-row null-toggle' }, box, h('label', { attrs: { for: id } }, 'null'));
  }

  private group(field: FormField, label: string, error: ErrorLine | undefined, ...content: HTMLElement[]): HTMLFieldSetElement {
    const descriptionId = field.description ? uniqueId('desc') : undefined;
    const labelId = uniqueId('label');
    const set = h(
      'fieldset',
      {
        className: `field field-${field.kind}`,
        attrs: { 'aria-labelledby': labelId, 'aria-describedby': [descriptionId, error?.element.id].filter(Boolean).join(' ') || undefined },
      },
      h('legend', {}, h('span', { attrs: { id: labelId } }, label), requiredMark(field)),
      field.description ? h('div', { className: 'description', attrs: { id: descriptionId } }, field.description) : null,
      ...content,
      error?.element,
    );
    if (error) error.controls.push(set);
    return set;
  }

  private objectField(field: Extract<FormField, { kind: 'object' }>, path: ValuePath, ownLine: boolean, label: string): HTMLElement {
    const error = this.errorLine(field.id, ownLine);
    // Fields inside an array entry report to the array's line: no lines of their own.
    return this.group(field, label, error, ...field.fields.map((f) => this.field(f, [...path, keyOf(f)], ownLine)));
  }

  private multiEnumField(field: Extract<FormField, { kind: 'multiEnum' }>, path: ValuePath, ownLine: boolean, label: string): HTMLElement {
    const error = this.errorLine(field.id, ownLine);
    const chosen = () => {
      const v = getAt(this.values, path);
      return Array.isArray(v) ? v : [];
    };
    const boxes = field.options.map((option) => {
      const id = uniqueId('option');
      const box = h('input', { attrs: { id, type: 'checkbox', disabled: field.readOnly } });
      box.checked = chosen().some((v) => sameJson(v, option.value));
      box.addEventListener('change', () => {
        const next = field.options
          .filter((o) => (o === option ? box.checked : chosen().some((v) => sameJson(v, o.value))))
          .map((o) => structuredClone(o.value));
        this.set(path, next.length ? next : undefined, field.id);
      });
      return h('div', { className: 'checkbox-row' }, box, h('label', { attrs: { for: id } }, option.label));
    });
    return this.group(field, label, error, ...boxes);
  }

  private arrayField(field: Extract<FormField, { kind: 'array' }>, path: ValuePath, ownLine: boolean, label: string): HTMLElement {
    const error = this.errorLine(field.id, ownLine);
    const rows = h('div', { className: 'array-rows' });
    const items = (): unknown[] => {
      const v = getAt(this.values, path);
      return Array.isArray(v) ? v : [];
    };
    const add = h('button', { className: 'secondary', attrs: { type: 'button', 'aria-label': `Add ${label}` } }, icon('add'), ' Add');
    const render = () => {
      const list = items();
      replaceChildren(
        rows,
        ...list.map((_, i) => {
          const remove = h(
            'button',
            { className: 'secondary icon-button', attrs: { type: 'button', 'aria-label': `Remove ${label} ${i + 1}`, title: 'Remove' } },
            icon('close'),
            ' Remove',
          );
          remove.addEventListener('click', () => {
            const next = items().filter((_v, j) => j !== i);
            setAt(this.values, path, next.length ? next : undefined);
            this.host.changed(field.id);
            render();
            add.focus();
          });
          const item = this.field(field.item, [...path, i], false, `${label} ${i + 1}`);
          return h('div', { className: 'array-row' }, item, remove);
        }),
      );
      add.disabled = field.maxItems !== undefined && list.length >= field.maxItems;
    };
    add.addEventListener('click', () => {
      const next = [...items(), initialItem(field.item)];
      setAt(this.values, path, next);
      this.host.changed(field.id);
      render();
      rows.lastElementChild?.querySelector<HTMLElement>('input, select, textarea')?.focus();
    });
    render();
    return this.group(field, label, error, rows, h('div', { className: 'row' }, add));
  }

  private fileSlot(field: FileField, label: string): HTMLElement {
    const labelId = uniqueId('label');
    const descriptionId = uniqueId('desc');
    const error = this.errorLine(field.id, true)!;
    const slot: FileSlotView = {
      field,
      list: h('ul', { className: 'file-list', attrs: { 'aria-label': `Chosen files for ${label}` } }),
      refusal: h('div', { className: 'error refusal', attrs: { role: 'alert', hidden: true } }),
      upload: h('progress', { attrs: { 'aria-label': `Upload of ${label}`, hidden: true } }),
    };
    this.fileSlots.set(field.id, slot);
    const pick = (source: FileSource, text: string, iconName: string) =>
      h(
        'button',
        {
          className: 'secondary',
          attrs: { type: 'button', 'aria-describedby': descriptionId },
          on: {
            click: () => {
              this.clearRefusal(slot);
              this.host.pickFile(field.id, source);
            },
          },
        },
        icon(iconName),
        ` ${text}`,
      );
    const group = h(
      'div',
      { className: 'field field-file', attrs: { role: 'group', 'aria-labelledby': labelId, 'aria-describedby': `${descriptionId} ${error.element.id}` } },
      h('div', { className: 'label' }, h('span', { attrs: { id: labelId } }, label), requiredMark(field)),
      field.description ? h('div', { className: 'description' }, field.description) : null,
      h('div', { className: 'description file-limits', attrs: { id: descriptionId } }, describeFileSlot(field)),
      h('div', { className: 'row' }, pick('workspace', 'From workspace…', 'folder-library'), pick('browse', 'Browse…', 'folder-opened')),
      slot.list,
      slot.refusal,
      slot.upload,
      error.element,
    );
    error.controls.push(group);
    this.renderFileList(field.id, slot, this.host.files(field.id));
    return group;
  }

  private renderFileList(fieldId: string, slot: FileSlotView, files: FileSummary[]): void {
    slot.list.hidden = files.length === 0;
    replaceChildren(
      slot.list,
      ...files.map((file, index) =>
        h(
          'li',
          { className: 'file' },
          icon('file'),
          h('span', { className: 'file-text' }, describeFile(file)),
          ...file.warnings.map((w) => h('span', { className: 'warning' }, w)),
          h(
            'button',
            {
              className: 'secondary icon-button',
              attrs: { type: 'button', 'aria-label': `Remove ${file.name}`, title: 'Remove' },
              on: { click: () => this.host.removeFile(fieldId, index) },
            },
            icon('close'),
            ' Remove',
          ),
        ),
      ),
    );
  }
}

/** The star after a required field's label; outside the label so the accessible name is the title alone. */
function requiredMark(field: FormField): HTMLElement | null {
  return field.required ? h('span', { className: 'required', attrs: { 'aria-hidden': 'true', title: 'Required' } }, ' *') : null;
}

function setError(line: ErrorLine, message: string | undefined): void {
  if ((line.element.textContent ?? '') === (message ?? '') && line.element.hidden === (message === undefined)) return;
  line.element.textContent = message ?? '';
  line.element.hidden = message === undefined;
  for (const control of line.controls) {
    if (message === undefined) control.removeAttribute('aria-invalid');
    else control.setAttribute('aria-invalid', 'true');
  }
}

function inputTypeFor(format: string | undefined): string {
  switch (format) {
    case 'email':
      return 'email';
    case 'uri':
    case 'url':
      return 'url';
    case 'date':
      return 'date';
    case 'date-time':
      return 'datetime-local';
    default:
      return 'text';
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** The branch a stored value belongs to (by its JSON type), or -1. */
function branchFor(variants: readonly FormField[], value: unknown): number {
  if (value === undefined || value === null) return -1;
  const kind =
    typeof value === 'number'
      ? ['number', 'integer']
      : typeof value === 'boolean'
        ? ['boolean']
        : typeof value === 'string'
          ? ['string', 'enum', 'number', 'integer']
          : Array.isArray(value)
            ? ['array', 'multiEnum']
            : ['object'];
  return variants.findIndex((v) => kind.includes(v.kind));
}

/** What a new array entry starts as. */
function initialItem(item: FormField): unknown {
  if (item.default !== undefined) return structuredClone(item.default);
  if (item.kind === 'object') return {};
  if (item.kind === 'boolean') return false;
  return '';
}
