import { http, HttpResponse } from 'msw';
import { API_PATHS } from '#contract/api';
import { api } from '../base-url';
import { VALID_TOKEN } from './common';

/** What the upload handlers received, in order (tests read and clear it). */
export const receivedUploads: { path: string; size: number; type: string }[] = [];

/**
 * The three uploads (spec §7): a logged-in user's one multipart file answers data.url 'uploads/file-<n>' (the
 * n-th upload of the test), like the reference server's random name relative to the file host; no token →
 * the expired-login refusal. (jsdom's FormData reaches msw without the file's name: read only its bytes.)
 */
const upload = (path: string) =>
  http.post(api(path), async ({ request }) => {
    if (request.headers.get('token') !== VALID_TOKEN) {
      return HttpResponse.json(
        { code: 401, msg: 'Your login has expired, please log in again', data: null, msgCode: 'loginExpired' },
        { status: 401 },
      );
    }
    const form = await request.formData();
    const file = [...form.values()].find((part): part is File => typeof part !== 'string');
    if (!file)
      return HttpResponse.json({ code: 400, msg: 'No file in the upload', data: null, msgCode: 'uploadNoFile' });
    receivedUploads.push({ path, size: file.size, type: file.type });
    const url = `uploads/file-${receivedUploads.length}`;
    return HttpResponse.json({ code: 0, msg: 'success', success: true, data: { url, path: `/files/${url}` } });
  });

export const uploadHandlers = [
  upload(API_PATHS.uploadImageUserCentre),
  upload(API_PATHS.uploadImage),
  upload(API_PATHS.uploadFile),
];
