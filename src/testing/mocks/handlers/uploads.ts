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

/** The file fetches of the private uploads (tests read and clear it): the token each came with. */
export const fetchedUploads: { path: string; token: string | null }[] = [];

/**
 * A runner's upload served back (issue 27): only with the runner's token (a few bytes), else the 404 of a
 * missing file, as the reference server answers.
 */
const uploadedFile = http.get(api(`${API_PATHS.filesPrefix}uploads/:name`), ({ request, params }) => {
  const token = request.headers.get('token');
  fetchedUploads.push({ path: `uploads/${String(params.name)}`, token });
  if (token !== VALID_TOKEN) return HttpResponse.json({ code: 404, msg: 'Not Found', data: null }, { status: 404 });
  return new HttpResponse(new Uint8Array([0x25, 0x50, 0x44, 0x46]), {
    headers: { 'cache-control': 'private, no-store' },
  });
});

export const uploadHandlers = [
  upload(API_PATHS.uploadImageUserCentre),
  upload(API_PATHS.uploadImage),
  upload(API_PATHS.uploadFile),
  uploadedFile,
];
