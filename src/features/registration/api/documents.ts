import { API_PATHS } from '#contract/api';
import type { DocumentsAnswer, DocumentsSaveAnswer, DocumentsSaveRequest } from '#contract/registration-screens';
import { apiRequest } from '@/lib/api-client';

/** GET the document-upload settings and the runner's files. */
export async function getDocuments(raceId: string): Promise<DocumentsAnswer> {
  const envelope = await apiRequest<DocumentsAnswer>({
    method: 'GET',
    url: API_PATHS.documentsGet,
    params: { raceId },
    silent: 'answers',
  });
  return envelope.data;
}

/** POST the runner's files (the upload value). */
export async function saveDocuments(request: DocumentsSaveRequest): Promise<DocumentsSaveAnswer> {
  const envelope = await apiRequest<DocumentsSaveAnswer>({
    method: 'POST',
    url: API_PATHS.documentsSave,
    data: request,
    silent: 'answers',
  });
  return envelope.data;
}
