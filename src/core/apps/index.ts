export * from './discovery';
export * from './csp';
export * from './resource';
export * from './document';
export * from './watch';
export * from './downloads';
export * from './elicitation';
export * from './modelContext';
