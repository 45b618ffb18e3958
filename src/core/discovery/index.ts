export {
  DISCOVERY_MAX_BYTES, DISCOVERY_SOURCES, discoverServers, isDiscoverySource, SOURCE_LABELS, sourceFiles,
  type DiscoveredServer, type DiscoveryContext, type DiscoverySourceId, type SourceResult,
} from './sources';
export { exportStandard, importEntry, standardText, type ExportResult, type ImportedEntry, type StandardDocument, type StandardEntry } from './portable';
