export * from './types';
export { createElicitationHandler, describeUrl, DEFAULT_UPLOAD_MAX_BYTES } from './handler';
export { uploadMultipart, type UploadFile, type UploadOptions } from './upload';
export { callToolWithUrlElicitation, urlElicitationsOf, UrlElicitationIncompleteError, type UrlRetryConnection, type UrlRetryOptions } from './urlRetry';
