import { useTranslation } from 'react-i18next';
import { JumpLink } from '@/components/ui/jump-link';
import { findRoutePathByDataPath } from '@/lib/content';
import { pickLang } from '@/lib/pick-lang';
import { formatRaceTime } from '#contract/race-clock';
import { raceTimeZone } from '#contract/time-zone';
import { resolveImageUrl, resolveJump } from '@/lib/url';
import { useAppStore } from '@/stores/app-store';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { RouteMap as RouteMapConfig, SiteConfig } from '#contract/site-config/schema';
import { parseRaceItems } from '../utils/race-items';
import { SectionHead } from './section-head';

export const ROUTE_PAGE_PATH = 'raceInformation.raceRoute';

/** The route map to show: config.routeMap, else the race's imgDetail image whose path contains 'route'. */
export function routeMapSource(
  config: SiteConfig,
  race: RaceInfo | null,
): (Partial<RouteMapConfig> & { src: string }) | null {
  const configured = config.routeMap;
  const src = resolveImageUrl(configured?.image);
  if (configured && src) return { ...configured, src };
  const fromRace = (race?.imgDetail ?? '')
    .split(',')
    .map((url) => url.trim())
    .find((url) => /route/i.test(url));
  const raceSrc = resolveImageUrl(fromRace);
  return raceSrc ? { src: raceSrc } : null;
}

/**
 * The race route (spec §2 map): the course image (no third-party map tiles), its title and summary, the
 * race distances with start and cut-off times, and a link to the full route page.
 */
export function RouteMap({ config, race }: { config: SiteConfig; race: RaceInfo | null }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const source = routeMapSource(config, race);
  if (!source) return null;
  const title = pickLang(language, source.title, source.titleEn).trim() || t('home.route.mapTitle');
  const summary = pickLang(language, source.summary, source.summaryEn).trim();
  const link = source.jumpUrl?.trim() || findRoutePathByDataPath(config, ROUTE_PAGE_PATH);
  const zone = raceTimeZone(race);
  const items = parseRaceItems(race?.itemTimeSetting, zone);
  const hhmm = (ms: number) => formatRaceTime(ms, 'HH:mm', zone);

  return (
    <section className="home-section route" aria-labelledby="home-route-title" data-testid="route-map">
      <div className="container">
        <SectionHead id="home-route-title" eyebrow={t('home.route.eyebrow')} title={t('home.route.title')} />
        <div className="route__card">
          <figure className="route__figure">
            <img src={source.src} alt={title} width={1200} height={800} loading="lazy" decoding="async" />
          </figure>
          <div className="route__info">
            <h3 className="route__title">{title}</h3>
            {summary ? <p className="route__summary">{summary}</p> : null}
            {items.length ? (
              <>
                <h4 className="route__items-title">{t('home.route.items')}</h4>
                <ul className="route__items">
                  {items.map((item, i) => (
                    <li key={`${item.name}-${i}`} className="route__item">
                      <span className="route__item-name">{pickLang(language, item.name, item.nameEn)}</span>
                      {item.distanceKm ? (
                        <span className="route__item-km">{t('home.route.distance', { km: item.distanceKm })}</span>
                      ) : null}
                      <span className="route__item-times">
                        {item.start !== null ? <span>{t('home.route.start', { time: hhmm(item.start) })}</span> : null}
                        {item.cutOff !== null ? (
                          <span>{t('home.route.cutOff', { time: hhmm(item.cutOff) })}</span>
                        ) : null}
                      </span>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
            {resolveJump(link) ? (
              <JumpLink url={link} className="route__more">
                {t('home.route.more')}
                <span aria-hidden> →</span>
              </JumpLink>
            ) : null}
          </div>
        </div>
      </div>
    </section>
  );
}
