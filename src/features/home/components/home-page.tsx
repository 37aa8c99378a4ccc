import { startTransition, useEffect, useState } from 'react';
import { isMobileSite } from '@/lib/mobile-site';
import { adsShownAt } from '@/lib/sign-up-state';
import { useSiteTitle } from '@/lib/site-title';
import { useSiteStore } from '@/stores/site-store';
import { useNow } from '../hooks/use-now';
import { AdList } from './ad-list';
import { HeroCarousel } from './hero-carousel';
import { ModuleBoundary } from './module-boundary';
import { NewsNotice } from './news-notice';
import { Partners } from './partners';
import { RaceBand } from './race-band';
import { RouteMap } from './route-map';
import { SearchModules } from './search-modules';
import '../home.css';

/**
 * The home page (spec §2): carousel → search modules → countdown and sign-up window → top ads → news and
 * notice with the scroll-up ticker → route map → bottom ads → partners. Each module comes from the site
 * configuration or the race information and hides when its data is absent or broken.
 */
export default function HomePage() {
  const config = useSiteStore((s) => s.config);
  const race = useSiteStore((s) => s.race);
  const title = useSiteTitle();
  const now = useNow(60 * 1000);
  // On a phone the modules below the first screen come in a second, interruptible render: the first one (and
  // its single commit, which a slow phone cannot split) is the first screen's alone.
  const [belowFold, setBelowFold] = useState(() => !isMobileSite());
  useEffect(() => {
    if (!belowFold) startTransition(() => setBelowFold(true));
  }, [belowFold]);
  if (!config) return null;
  return (
    <div className="home" data-testid="home-page">
      <h1 className="visually-hidden">{title}</h1>
      <ModuleBoundary name="carousel">
        <HeroCarousel items={config.carouselList ?? []} />
      </ModuleBoundary>
      <ModuleBoundary name="search-modules">
        <SearchModules modules={config.searchConfigList ?? []} />
      </ModuleBoundary>
      <ModuleBoundary name="countdown-sign-up">
        <RaceBand config={config} race={race} />
      </ModuleBoundary>
      {belowFold ? (
        <>
          <ModuleBoundary name="ad-list-top">
            <AdList items={adsShownAt(config.adListTop ?? [], config, race, now)} position="top" />
          </ModuleBoundary>
          <ModuleBoundary name="news-notice">
            <NewsNotice config={config} />
          </ModuleBoundary>
          <ModuleBoundary name="route-map">
            <RouteMap config={config} race={race} />
          </ModuleBoundary>
          <ModuleBoundary name="ad-list-bottom">
            <AdList items={adsShownAt(config.adListBottom ?? [], config, race, now)} position="bottom" />
          </ModuleBoundary>
          <ModuleBoundary name="partners">
            <Partners groups={config.cooperativePartnerList ?? []} />
          </ModuleBoundary>
        </>
      ) : null}
    </div>
  );
}
