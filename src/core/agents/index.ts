// Files for agents: what a language model sees of MCP tools, and how its calls are checked before the run pipeline.
export { modelFacingSchema, describePathSlot, type ModelFacingSchema } from './modelSchema';
export { splitModelArguments, type SlotPaths, type SplitArguments } from './modelArguments';
export { resolveWorkspacePath, secretReason, excludedBy, gitignoredBy, workspaceLabel, type ResolvedPath, type WorkspaceFolderRules } from './workspacePaths';
export { planAgentCall, describeAgentFiles, type AgentCallPlan, type AgentCallCheck, type AgentCallContext, type AgentFile } from './agentCall';
export { agentResultParts, boundedAgentResultParts, type AgentPart, type BoundedResultOptions } from './agentResult';
export { parseRunTarget, assignReferencedFiles } from './chatRun';
