export { DISCOVERY_SOURCES, isDiscoverySource, SOURCE_LABELS, type DiscoverySourceId } from './sourceIds';
export { DISCOVERY_MAX_BYTES, discoverServers, sourceFiles, type DiscoveredServer, type DiscoveryContext, type SourceResult } from './sources';
export { exportStandard, importEntry, standardText, type ExportResult, type ImportedEntry, type StandardDocument, type StandardEntry } from './portable';
