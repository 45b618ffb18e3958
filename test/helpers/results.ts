// The text of a tool result, for assertions: every text block (or text item) joined by a newline.

/** The text blocks of a CallToolResult as the server sent it. */
export function resultText(result: { content?: unknown }): string {
  const blocks = Array.isArray(result.content) ? (result.content as { type?: unknown; text?: unknown }[]) : [];
  return blocks
    .filter((b) => b?.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
}

/** The text items of a ResultView (what the panel and the test API return). */
export function viewText(view: { items: readonly { kind: string; text?: string }[] }): string {
  return view.items
    .filter((i) => i.kind === 'text')
    .map((i) => i.text ?? '')
    .join('\n');
}
