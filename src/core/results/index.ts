export * from '../../shared/resultModel';
export {
  toResultView,
  promptResultView,
  maskView,
  resourceContentsView,
  resolveSave,
  RESULT_LIMITS,
  type ResultLike,
  type ToolLike,
  type SaveSource,
} from './view';
export { planSave, writeNewFile, pathInsideWorkspace, downloadToFile, safeFileName, type DownloadOptions } from './save';
export {
  KeptResults,
  KeptPart,
  readableParts,
  readRange,
  resultPartUri,
  modelPreviewUri,
  parseResultPartPath,
  headOf,
  tailOf,
  KEPT_RESULT_LIMITS,
  RESULT_SCHEME,
  type KeptResult,
  type KeptPartInput,
  type RangeRequest,
  type RangeRead,
} from './modelView';
