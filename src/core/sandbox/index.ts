export { sandboxPolicy, launcherDomains, DEFAULT_ALLOW_WRITE, DEFAULT_DENY_READ, type SandboxPolicy } from './policy';
export { sandboxUnavailableReason } from './launch';
export { describeAllowEntry, describeRefusal, networkRefusal, refusalIn, type SandboxAllowEntry, type SandboxRefusal } from './refusals';
