import { API_PATHS } from '#contract/api';
import { apiRequest } from '@/lib/api-client';

export interface CaptchaVerifyInput {
  sessionId: string;
  /** Where the handle was dropped, px. */
  x: number;
  /** The drag as [ms since start, x] pairs. */
  trail: [number, number][];
}

export interface CaptchaPass {
  token: string;
  sig: string;
  sessionId: string;
  scene: string;
}

/** POST the drop; code 0 answers the fields the send-code calls need, anything else rejects. */
export async function verifyCaptcha(input: CaptchaVerifyInput): Promise<CaptchaPass> {
  // The slider shows its own failure state; the server's message is not toasted on top.
  const envelope = await apiRequest<CaptchaPass>({
    method: 'POST',
    url: API_PATHS.captchaVerify,
    data: input,
    silent: true,
  });
  return envelope.data;
}
