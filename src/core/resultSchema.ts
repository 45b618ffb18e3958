import type { StandardSchemaV1 } from '@modelcontextprotocol/client';

/**
 * A Standard Schema (what the SDK's `request()` takes for a result) from a plain checking function: its value,
 * or the message it throws as the one issue.
 */
export function schemaOf<T>(check: (value: unknown) => T): StandardSchemaV1<unknown, T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'mcp-host',
      validate: (value: unknown) => {
        try {
          return { value: check(value) };
        } catch (e) {
          return { issues: [{ message: e instanceof Error ? e.message : String(e) }] };
        }
      },
    },
  };
}
