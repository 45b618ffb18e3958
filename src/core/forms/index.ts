export * from '../../shared/formModel';
export { buildForm, FORM_LIMITS, pointer, promptArgumentsSchema, promptAsTool, type FormFileSlot } from './build';
export { defaultValues, toPayload, validateForm } from './values';
export { compileSchema, describeAjvError, ajvMessages } from './validate';
