import { API_PATHS } from '#contract/api';
import { apiRequest } from '@/lib/api-client';

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
