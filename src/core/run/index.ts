// One run pipeline for the panel, the CLI and the extension's test API.
export { FileChoices, type AddOutcome, type SlotFiles } from './fileChoices';
export {
  argumentsOf,
  callWithUrlRetry,
  checkValues,
  encodeFileSlots,
  preparedArguments,
  recordRun,
  resultViewOf,
  runPrompt,
  runTool,
  type EncodeSettings,
  type RunConnection,
  type RunHooks,
  type RunInput,
  type RunOutcome,
  type RunRecorder,
  type ToolRunRequest,
  type UploadReporter,
} from './pipeline';
export { authorizeUploads, AuthorizedUploads, type AuthorizedUploadEntry } from './uploads';
