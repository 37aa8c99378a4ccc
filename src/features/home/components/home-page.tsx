import { useSiteStore } from '@/stores/site-store';
import { HeroCarousel } from './hero-carousel';
import { SearchModules } from './search-modules';

/** The home page: each module comes from the site configuration and hides when its data is absent. */
export default function HomePage() {
  const config = useSiteStore((s) => s.config);
  if (!config) return null;
  return (
    <div className="home" data-testid="home-page">
      <HeroCarousel items={config.carouselList ?? []} />
      <SearchModules modules={config.searchConfigList ?? []} />
    </div>
  );
}
