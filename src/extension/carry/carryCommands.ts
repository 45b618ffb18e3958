// Bringing servers in and out: the registry browser and the MCP view's registry section, MCP Bundles, other
// apps' configurations and export. A bundle of its own (dist/carry.js), required on first use of one of its
// commands or the registry section's first rows (carryOnDemand.ts): activation parses none of it. It gets the
// extension's live objects from its caller, never a copy of their modules.
export { exportServers, importDiscovered, installBundleFile } from './carry';
export { browseServers } from './registryBrowser';
export { RegistryTree } from './registryTree';
