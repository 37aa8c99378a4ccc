/**
 * The upload calls (spec §7 "Image upload"): an image goes to the user-centre image upload, any other file
 * to /api/base/uploadFile; one file per multipart request, with the token header of the one client. The
 * answer's data.url is the file's URL (relative to the file host). A refusal rejects with the server's
 * message in the visitor's language (and its toast, like every call).
 */
import type { AxiosProgressEvent } from 'axios';
import { API_PATHS } from '#contract/api';
import { apiRequest } from '@/lib/api-client';

export type UploadKind = 'image' | 'file';

export const UPLOAD_PATHS: Record<UploadKind, string> = {
  image: API_PATHS.uploadImageUserCentre,
  file: API_PATHS.uploadFile,
};

export async function uploadFile(
  file: Blob & { name?: string },
  kind: UploadKind,
  options: { onProgress?: (percent: number) => void; signal?: AbortSignal } = {},
): Promise<{ url: string }> {
  const body = new FormData();
  body.append('file', file, file.name);
  const envelope = await apiRequest<{ url: string }>({
    method: 'POST',
    url: UPLOAD_PATHS[kind],
    data: body,
    signal: options.signal,
    onUploadProgress: (event: AxiosProgressEvent) => {
      if (event.total) options.onProgress?.(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    },
  });
  return { url: envelope.data.url };
}
