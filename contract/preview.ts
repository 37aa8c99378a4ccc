/**
 * The console's preview of a draft (issue 33): the public site, opened by the console in a frame, showing a
 * draft instead of what is published. The address says what to show, and both sides read it from here (the
 * console writes it, the SPA reads it):
 * - `?preview=site&domain=<domain>`: the draft site configuration of that domain, as its site would show it;
 * - `?preview=form&raceId=<raceId>&channel=<channel>`: the draft registration form of that race and channel, as
 *   the runner will fill it;
 * each with `&lang=zh|en`. The phone preview is the same address under the mobile site's base (/m/).
 * The SPA reads the draft from the console's API with the staff member's own session: without one (a visitor
 * given the link) it shows the preview's error, never a draft.
 */
export type PreviewRequest =
  | { kind: 'site'; domain: string; language: PreviewLanguage }
  | { kind: 'form'; raceId: string; channel: string; language: PreviewLanguage };

export type PreviewLanguage = 'zh' | 'en';

const text = (params: URLSearchParams, name: string) => {
  const value = params.get(name)?.trim() ?? '';
  return value.length > 0 && value.length <= 253 ? value : undefined;
};

/** The preview a page address asks for (its query string, before the hash), or null for the real site. */
export function readPreview(search: string): PreviewRequest | null {
  const params = new URLSearchParams(search);
  const language: PreviewLanguage = params.get('lang') === 'en' ? 'en' : 'zh';
  const kind = params.get('preview');
  if (kind === 'site') {
    const domain = text(params, 'domain');
    return domain ? { kind, domain, language } : null;
  }
  if (kind === 'form') {
    const raceId = text(params, 'raceId');
    const channel = text(params, 'channel');
    return raceId && channel ? { kind, raceId, channel, language } : null;
  }
  return null;
}

/** The address of a preview: the desktop site (`/`) or the phone site (`/m/`), with the hash route to open. */
export function previewUrl(request: PreviewRequest, options: { phone: boolean; route?: string }): string {
  const params = new URLSearchParams({ preview: request.kind });
  if (request.kind === 'site') params.set('domain', request.domain);
  else {
    params.set('raceId', request.raceId);
    params.set('channel', request.channel);
  }
  params.set('lang', request.language);
  return `${options.phone ? '/m/' : '/'}?${params.toString()}#${options.route ?? '/'}`;
}

/** Where the SPA reads a site draft for its preview (the console's API, same origin, the staff session's cookie). */
export const SITE_PREVIEW_PATH = '/api/admin/site-preview';
