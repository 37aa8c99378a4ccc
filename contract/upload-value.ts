/**
 * The value of an upload field (spec §3 "Upload value: comma-separated string of URLs"): the URLs the upload
 * calls answered (data.url), in the order the files were added, joined by ','. The SPA writes it, the
 * server reads it back when a form is submitted (server/src/lib/upload-value.ts).
 */

/** The URLs of an upload value, blanks dropped. */
export function splitUploadValue(value: string | null | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
}

/** The upload value of a list of URLs. */
export const joinUploadValue = (urls: readonly string[]): string => urls.join(',');

/**
 * The folder (under the file host) of runners' uploads: ID photos, medical certificates. Its files are
 * private (issue 27): served to their owner (the `token` header) and never cached by a shared cache, so the
 * SPA shows one back by fetching it with the token (src/components/form/upload-field.tsx).
 */
export const PRIVATE_UPLOAD_DIR = 'uploads';

/** Whether a URL names a runner's upload ('uploads/<name>', '/files/uploads/<name>', or on another file host). */
export function isPrivateUploadUrl(url: string): boolean {
  return new RegExp(`(^|/)${PRIVATE_UPLOAD_DIR}/[\\w.-]+$`).test(url.split(/[?#]/)[0] ?? '') && !/^blob:/.test(url);
}
