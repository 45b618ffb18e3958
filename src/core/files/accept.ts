// `accept` lists use the HTML accept grammar: MIME types, `type/*` wildcards and `.ext` entries.
//
// Decisions where SEP-2356 is silent (digest §1.5, §9.2):
// - `*/*` matches every file.
// - Comparison is case-insensitive and ignores media-type parameters.
// - When the list holds any MIME entry, the media type that will be sent must match one: a server
//   validates MIME types only, so a file matching just an extension entry would be refused there.
// - A list of extensions only filters by the file's extension (servers apply no MIME constraint then).

export interface AcceptSubject {
  /** The media type that will be sent (parameters allowed, ignored). */
  mediaType?: string;
  /** The file's name, used for `.ext` entries. */
  fileName?: string;
}

function bareType(mediaType: string): string {
  return mediaType.split(';')[0]!.trim().toLowerCase();
}

function isExtensionEntry(entry: string): boolean {
  return entry.trim().startsWith('.');
}

function mimeEntryMatches(entry: string, mediaType: string): boolean {
  const want = bareType(entry);
  if (want === '*/*' || want === '*') return true;
  if (want.endsWith('/*')) return mediaType.startsWith(want.slice(0, -1));
  return want === mediaType;
}

/** Whether a file passes an `accept` list; an absent or empty list accepts everything. */
export function matchesAccept(accept: readonly string[] | undefined, subject: AcceptSubject): boolean {
  const entries = (accept ?? []).filter((e) => typeof e === 'string' && e.trim() !== '');
  if (entries.length === 0) return true;
  const mimeEntries = entries.filter((e) => !isExtensionEntry(e));
  if (mimeEntries.length > 0) {
    const mediaType = bareType(subject.mediaType ?? '');
    return mediaType !== '' && mimeEntries.some((e) => mimeEntryMatches(e, mediaType));
  }
  const name = (subject.fileName ?? '').toLowerCase();
  return entries.some((e) => name.endsWith(e.trim().toLowerCase()));
}

export { describeAccept } from '../../shared/format';
