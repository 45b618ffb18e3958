export * from '../../shared/resultModel';
export { toResultView, promptResultView, maskView, resourceContentsView, resolveSave, RESULT_LIMITS, type ResultLike, type ToolLike, type SaveSource } from './view';
export { planSave, writeNewFile, pathInsideWorkspace, downloadToFile, safeFileName, type DownloadOptions } from './save';
