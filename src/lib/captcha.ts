/**
 * The built-in slider check's calls (spec §7 "Captcha"): a challenge, then the drop, whose pass (token, sig,
 * session id, scene) goes with the call it guards (the code sends, the registration confirmation search).
 */
import { API_PATHS } from '#contract/api';
import { apiRequest } from '@/lib/api-client';

/** The fields of a passed slider check, as the calls it guards send them. */
export interface SliderPass {
  nc_token: string;
  sig: string;
  sessionId: string;
  scene: string;
}

export interface CaptchaChallenge {
  sessionId: string;
  scene: string;
  /** Width of the track in px (300). */
  trackWidth: number;
  /** Width of the handle (the piece) in px; 40 when not given. */
  pieceWidth?: number;
  /** Where the piece's left edge must be dropped, in px from the track's start. */
  targetX: number;
  /** How far from targetX a drop may be, in px. */
  tolerance: number;
}

/** GET a new slider challenge. */
export async function getCaptchaChallenge(): Promise<CaptchaChallenge> {
  const envelope = await apiRequest<CaptchaChallenge>({ method: 'GET', url: API_PATHS.captchaChallenge });
  return envelope.data;
}

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

/** POST the drop; code 0 answers the fields the guarded calls need, anything else rejects. */
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
