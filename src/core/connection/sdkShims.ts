// The MCP SDK's runtime shims (`@modelcontextprotocol/client/_shims`) as the host's bundles take them (scripts/build.mjs).
// The SDK's Node shims make its own copy of Ajv (about 150 KB minified) the default JSON Schema validator of a
// Client; the host gives every Client the validator below instead (core/forms/validate: the Ajv of dist/libraries.js,
// with server patterns on the linear-time engine), so that copy would be carried and never run.
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';
import { ajvMessages, checkValue, compileSchema } from '../forms/validate';

/** Node has no CORS: a `fetch` TypeError is a network error (as in the SDK's Node shims). */
export const CORS_IS_POSSIBLE = false;

/** JSON Schema validation for the SDK, by the host's own validator (the SDK compiles a schema only when it is used). */
export class HostSchemaValidator implements jsonSchemaValidator {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const validate = compileSchema(schema);
    if (typeof validate === 'string') throw new Error(validate);
    return (input) => {
      const check = checkValue(validate, input);
      return check.valid
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: ajvMessages(check.errors).join('; ') };
    };
  }
}

export { HostSchemaValidator as DefaultJsonSchemaValidator };
