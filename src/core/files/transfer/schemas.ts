// The schemas of SEP-2631's answers, for the SDK's custom-request API (see ./protocol for the names and types).
// Loose objects: fields a later revision adds are kept, not rejected.

import { z } from 'zod';
import type { AuthorizedFile, AuthorizedUpload } from './protocol';

const FileDigestSchema = z.looseObject({ algorithm: z.string(), value: z.string() });

const FileValueSchema = z.looseObject({
  uri: z.string().min(1),
  name: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().int().nonnegative().optional(),
  digest: FileDigestSchema.optional(),
});

const TransferDescriptorSchema = z.looseObject({
  transport: z.string(),
  method: z.string(),
  url: z.string(),
  headers: z.record(z.string(), z.string()).optional(),
  multipart: z.looseObject({ fileField: z.string().min(1), fields: z.record(z.string(), z.string()).optional() }).optional(),
  expiresAt: z.string().optional(),
});

export const AuthorizedFileSchema: z.ZodType<AuthorizedFile> = z.looseObject({
  file: FileValueSchema,
  download: TransferDescriptorSchema.optional(),
});

export const AuthorizedUploadSchema: z.ZodType<AuthorizedUpload> = z.looseObject({
  file: FileValueSchema,
  download: TransferDescriptorSchema.optional(),
  upload: TransferDescriptorSchema,
});
