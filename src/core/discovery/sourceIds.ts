// The apps whose MCP servers the host can discover, and their names (kept apart from the readers, which load on demand).
export const DISCOVERY_SOURCES = ['claudeDesktop', 'claudeCode', 'cursor', 'windsurf', 'copilotCli', 'codex'] as const;
export type DiscoverySourceId = (typeof DISCOVERY_SOURCES)[number];

export const SOURCE_LABELS: Record<DiscoverySourceId, string> = {
  claudeDesktop: 'Claude Desktop',
  claudeCode: 'Claude Code',
  cursor: 'Cursor',
  windsurf: 'Windsurf',
  copilotCli: 'GitHub Copilot CLI',
  codex: 'Codex',
};

export function isDiscoverySource(id: string): id is DiscoverySourceId {
  return (DISCOVERY_SOURCES as readonly string[]).includes(id);
}
