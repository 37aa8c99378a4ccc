// Moved to src/lib (shared with the personal centre); kept so the feature's imports stay as they are.
export { errorMessage, fieldRefusalsOf } from '@/lib/field-refusals';
