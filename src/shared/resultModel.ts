// The result display model: one plain-JSON description of a CallToolResult, posted to the webview
// as is. Text is text (never markup); bytes are kept only up to a preview cap.

export interface ContentAnnotations {
  audience?: ('user' | 'assistant')[];
  /** 0 (least) to 1 (most important). */
  priority?: number;
  lastModified?: string;
}

interface ItemBase {
  annotations?: ContentAnnotations;
  /** A prompt message's role (prompts/get): who the content is meant to come from. */
  role?: 'user' | 'assistant';
  /** When the item can be saved: the reference `resolveSave` takes. */
  save?: SaveItem;
}

export type ResultItem =
  | (ItemBase & { kind: 'text'; text: string; /** Only the first part of a longer text is kept. */ truncated?: { totalChars: number } })
  | (ItemBase & {
      kind: 'image' | 'audio';
      mimeType: string;
      size: number;
      /** Base64 for the preview; absent when the media is over the preview cap ("too large to preview, save it"). */
      data?: string;
      tooLargeToPreview?: boolean;
    })
  | (ItemBase & {
      kind: 'resourceLink';
      uri: string;
      name: string;
      title?: string;
      description?: string;
      mimeType?: string;
      size?: number;
    })
  | (ItemBase & { kind: 'resourceText'; uri: string; mimeType?: string; text: string; truncated?: { totalChars: number } })
  | (ItemBase & { kind: 'resourceBlob'; uri: string; mimeType?: string; size: number; data?: string; tooLargeToPreview?: boolean })
  | (ItemBase & { kind: 'fileOutput'; name: string; mimeType?: string; size?: number })
  /** A SEP-2631 file output (content block, FileValue in structured content, or file-backed resource): downloaded only on Save. */
  | (ItemBase & { kind: 'file'; name: string; uri: string; mimeType?: string; size?: number; digest: boolean })
  | (ItemBase & { kind: 'unknown'; type: string; json: string });

/** Something the user can save into the workspace (or open, or download after consent). */
export interface SaveItem {
  /** Where the bytes are in the result: `content/3` (a block) or `structured/<json pointer>` (a FileOutput). */
  ref: string;
  /** A suggested file name (sanitised by planSave before use). */
  name: string;
  mimeType?: string;
  size?: number;
  /**
   * `inline`: bytes in the result; `path`: a file the server names; `url`: a presigned URL to download;
   * `file`: a SEP-2631 file URI, downloaded through files/authorizeDownload and verified.
   */
  source: 'inline' | 'path' | 'url' | 'file';
  path?: string;
  url?: string;
  /** For `file`: the file URI, and the sha-256 the server stated (checked after the download). */
  fileUri?: string;
  digest?: { algorithm: string; value: string };
}

export type StructuredStatus =
  | 'valid' // matches the tool's outputSchema
  | 'invalid' // does not match: `errors` and the raw value are shown
  | 'missing' // the tool declares an outputSchema but the result has no structuredContent
  | 'unchecked' // no outputSchema, or the schema could not be compiled (`errors[0]` says why)
  | 'skipped'; // an error result: structured content is not validated

export interface StructuredView {
  status: StructuredStatus;
  /** The raw value, pretty-printed (capped). Absent when missing. */
  json?: string;
  truncated?: { totalChars: number };
  errors?: string[];
  /** What was not checked or not shown whole, and why (a pattern the host does not run, a value cut at the nesting limit). */
  notes?: string[];
}

export interface ResultView {
  isError: boolean;
  items: ResultItem[];
  structured?: StructuredView;
  /** Every savable thing in the result, in order (also linked from its item). */
  saves: SaveItem[];
  warnings: string[];
}
