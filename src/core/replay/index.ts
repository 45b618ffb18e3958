// Runs kept and replayed: the saved-calls format, the expectations' matcher, and a run as a record, a saved call
// or an `mcp-host` command. Shared by the extension (History, saved calls) and the CLI (`run`, `call --record`).
export * from './savedCalls';
export * from './expectations';
export * from './record';
export * from './history';
