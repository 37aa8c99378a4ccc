/**
 * The slider human check (spec §4, §7 "Captcha"). A provider issues challenges and verifies answers; a
 * passed check yields { token, sig, sessionId, scene }, which a send-code call redeems once.
 *
 * The built-in provider is a speed bump, not a strong bot test: the target is sent to the browser, so a
 * script can solve it. The per-IP rate limits and the per-destination code caps are what protect the
 * code-sending calls. CAPTCHA_PROVIDER selects the provider ('builtin'); an external one (a hosted
 * slider) implements the same interface and is passed to buildApp as `captchaProvider`.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hashPass, type CaptchaRepository } from '../db/captcha-repository.ts';

export const SLIDER_SCENE = 'message_h5';

export interface SliderAnswer {
  sessionId: string;
  /** Where the piece was dropped (left edge, px). */
  x: number;
  /** The drag: [milliseconds since start, x] points. */
  trail: [number, number][];
}

export interface SliderPass {
  token: string;
  sig: string;
  sessionId: string;
  scene: string;
}

export interface CaptchaProvider {
  readonly name: string;
  /** A new challenge, as sent to the browser. */
  issue(): Promise<Record<string, unknown>>;
  /** The pass for a right answer, or null ('Verification failed'). A challenge takes one answer only. */
  verify(answer: SliderAnswer): Promise<SliderPass | null>;
  /** True once for a pass this provider issued (and not yet redeemed, and fresh). */
  redeem(pass: SliderPass): Promise<boolean>;
}

export const BUILTIN_SLIDER = {
  trackWidth: 300,
  pieceWidth: 40,
  tolerance: 6,
  minDragMs: 200,
  minTrailPoints: 5,
  challengeTtlMs: 2 * 60_000,
  passTtlMs: 5 * 60_000,
} as const;

export function createBuiltinCaptcha(repo: CaptchaRepository, now: () => number): CaptchaProvider {
  const s = BUILTIN_SLIDER;
  const maxX = s.trackWidth - s.pieceWidth;
  return {
    name: 'builtin',
    async issue() {
      const sessionId = randomUUID();
      const targetX = randomInt(0, maxX + 1);
      await repo.create(sessionId, targetX, now(), 24 * 3_600_000);
      return {
        sessionId,
        scene: SLIDER_SCENE,
        trackWidth: s.trackWidth,
        pieceWidth: s.pieceWidth,
        targetX,
        tolerance: s.tolerance,
      };
    },
    async verify(answer) {
      const at = now();
      const challenge = await repo.takeForAttempt(answer.sessionId, at);
      if (!challenge || at - challenge.createdAt >= s.challengeTtlMs) return null;
      if (Math.abs(answer.x - challenge.targetX) > s.tolerance) return null;
      const trail = answer.trail;
      if (trail.length < s.minTrailPoints) return null;
      const first = trail[0]?.[0] ?? 0;
      const last = trail[trail.length - 1]?.[0] ?? 0;
      if (last - first < s.minDragMs) return null;
      if (trail.some((point, i) => i > 0 && point[0] < (trail[i - 1]?.[0] ?? 0))) return null;
      const pass: SliderPass = {
        token: randomBytes(24).toString('base64url'),
        sig: randomBytes(24).toString('base64url'),
        sessionId: answer.sessionId,
        scene: SLIDER_SCENE,
      };
      await repo.markPassed(answer.sessionId, hashPass(pass.token, pass.sig), at);
      return pass;
    },
    async redeem(pass) {
      if (pass.scene !== SLIDER_SCENE) return false;
      const at = now();
      return repo.redeem(pass.sessionId, hashPass(pass.token, pass.sig), at, at - s.passTtlMs);
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    captcha: CaptchaProvider;
  }
}

async function captchaPlugin(app: FastifyInstance, options: { provider?: CaptchaProvider; name: string }) {
  let provider = options.provider;
  if (provider === undefined) {
    if (options.name !== 'builtin') {
      throw new Error(
        `CAPTCHA_PROVIDER "${options.name}" is not built in; use 'builtin' or pass a captchaProvider to buildApp`,
      );
    }
    provider = createBuiltinCaptcha(app.repos.captcha, app.config.now);
  }
  app.decorate('captcha', provider);
}

export default fp(captchaPlugin, { name: 'captcha', dependencies: ['db', 'app-config'] });
