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
