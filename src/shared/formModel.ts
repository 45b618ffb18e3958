// The form model: one plain-JSON description of a form, built from a tool's `inputSchema` or an
// elicitation's `requestedSchema`. It is posted to the webview as is, so it holds only JSON data.
// Every text in it (labels, descriptions, option titles, defaults) is plain text, never markup.

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Values the user entered, shaped like the payload (nested objects and arrays); text inputs may hold strings. */
export type FormValues = Record<string, unknown>;

/** Errors per field, keyed by the field's `id` (a JSON pointer such as `/address/city`); `''` is the whole form. */
export type FieldErrors = Record<string, string>;

export interface FieldBase {
  /** JSON pointer of the value in the payload (`/a/b`); the key of this field's entry in FieldErrors. */
  id: string;
  /** Property names from the root to this field. */
  path: string[];
  /** Title, or the property name when there is none. */
  label: string;
  description?: string;
  required: boolean;
  /** The schema also allows `null`. */
  nullable: boolean;
  default?: JsonValue;
  readOnly?: boolean;
}

export interface StringField extends FieldBase {
  kind: 'string';
  minLength?: number;
  maxLength?: number;
  /** `email`, `uri`, `date`, `date-time`, or another format the UI shows as plain text. */
  format?: string;
  pattern?: string;
  /** A secret-looking field (`format: password` or `writeOnly`): the UI masks it. */
  secret?: boolean;
}

export interface NumberField extends FieldBase {
  kind: 'number' | 'integer';
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  /** A secret-looking number (`writeOnly`, `format: password`; a PIN): the UI masks it. */
  secret?: boolean;
}

export interface BooleanField extends FieldBase {
  kind: 'boolean';
}

export interface EnumOption {
  value: JsonValue;
  label: string;
}

export interface EnumField extends FieldBase {
  kind: 'enum';
  options: EnumOption[];
}

export interface MultiEnumField extends FieldBase {
  kind: 'multiEnum';
  options: EnumOption[];
  minItems?: number;
  maxItems?: number;
}

export interface FileField extends FieldBase {
  kind: 'file';
  /** Accepted media types and extensions (`image/*`, `.pdf`); empty means anything. */
  accept: string[];
  maxSize?: number;
  multiple: boolean;
  /** `x-mcp-file` data-URI slot (inline) or SEP-1306 `type: "file"` (uploaded to an endpoint). */
  transfer: 'inline' | 'upload';
  /** The id of the sibling string field that takes the chosen file's name (the slot's filename companion). */
  filenameField?: string;
}

export interface ObjectField extends FieldBase {
  kind: 'object';
  fields: FormField[];
}

export interface ArrayField extends FieldBase {
  kind: 'array';
  /** The item's field; its `id` is the array's id plus `/*`. */
  item: FormField;
  minItems?: number;
  maxItems?: number;
}

/** A simple `oneOf`/`anyOf`: the user picks a branch, then fills it. */
export interface VariantField extends FieldBase {
  kind: 'variant';
  variants: FormField[];
}

/** Anything the form cannot render as widgets: edited as JSON text. */
export interface JsonField extends FieldBase {
  kind: 'json';
  /** Why the field is a JSON editor (shown to the user). */
  reason: string;
}

export type FormField = StringField | NumberField | BooleanField | EnumField | MultiEnumField | FileField | ObjectField | ArrayField | VariantField | JsonField;

export interface FormModel {
  title?: string;
  description?: string;
  fields: FormField[];
  /** The schema the values are validated against (file fields removed: the file engine checks them). */
  validationSchema: Record<string, JsonValue>;
  /** The validation schema could not be compiled: values are only checked field by field. */
  validationUnavailable?: string;
  /** Things the user should know about the form (truncated text, unsupported parts). */
  warnings: string[];
}
