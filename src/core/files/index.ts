// The file-input engine: slot discovery, accept matching, size policy, data URIs, redaction.
export { redactDataUris, redactValue, decodedSize } from './redact';
export { parseDataUri, dataUriBytes, encodeDataUri, encodeLegacyName, type ParsedDataUri, type DataUriError } from './dataUri';
export { checkDataUriValue, describeDataUri, type DataUriValueCheck } from './validateValue';
export { matchesAccept, describeAccept, type AcceptSubject } from './accept';
export {
  inlineLimitsFor,
  uploadLimitsFor,
  withoutUploads,
  downloadDeadlineMs,
  formatBytes,
  DEFAULT_UPLOAD_MAX_BYTES,
  DEFAULT_MAX_DOWNLOAD_BYTES,
  FILE_OUTPUT_MAX_BYTES,
  DEFAULT_STDIO_MAX_BYTES,
  DEFAULT_HTTP_MAX_BYTES,
  DEFAULT_WARN_ABOVE_BYTES,
  type InlineLimits,
  type InlineLimitOverrides,
} from './limits';
export { findFileSlots, findElicitationFileFields, type FileSlot, type FileSlotScan, type FileSlotOrigin, type FileInputMode, type ToolLike } from './slots';
export {
  checkFile,
  checkTotalSize,
  readCheckedFile,
  readCheckedBytes,
  decideType,
  effectiveLimit,
  sendsInline,
  type CheckedFile,
  type FileCheck,
  type TypeVerdict,
} from './check';
export {
  fileInputValue,
  pathInsideRoots,
  findFileOutputs,
  fileOutputAt,
  setAtPath,
  getAtPath,
  type FileInputOptions,
  type FileOutput,
  type FileOutputSource,
} from './fileObjects';
export { encodeCheckedFile, type EncodeOptions, type FileUploader } from './transfer/encode';
export { planTransfer, mayUpload, usableModes, inlineThreshold, type TransferPlan } from './transfer/mode';
export { promptArgumentFileSchema, restorePromptFileArguments, shieldPromptFileArguments } from './promptFiles';
export { asFileValue, fileOfBlock, fileOfResourceContents, findFileValues } from './transfer/outputs';
export {
  AUTHORIZE_DOWNLOAD,
  AUTHORIZE_UPLOAD,
  FILES_CAPABILITY,
  SEP_2631_REVISION,
  type FileValue,
  type FileDigest,
  type TransferDescriptor,
  type AuthorizedFile,
  type AuthorizedUpload,
  type TransferMode,
} from './transfer/protocol';
