import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pickLang } from '@/lib/pick-lang';
import { JumpLink } from '@/components/ui/jump-link';
import { resolveImageUrl } from '@/lib/url';
import { useAppStore } from '@/stores/app-store';
import { useReducedMotion } from '../hooks/use-now';
import { MotionToggle } from './motion-toggle';
import type { CarouselItem } from '#contract/site-config/schema';

const INTERVAL_MS = 5000;

/**
 * Home carousel (carouselList: surfacePlotUrl, jumpUrl). Hidden when the list is empty. The first slide is
 * the page's LCP image (eager, high priority); it advances every 5 s, pausing on hover and focus. Its pause
 * button stops it until pressed again (WCAG 2.2.2); for visitors who prefer reduced motion it stands still
 * until they press play.
 */
export function HeroCarousel({ items }: { items: CarouselItem[] }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const slides = items
    .map((item) => ({ item, src: resolveImageUrl(item.surfacePlotUrl) }))
    .filter((s): s is { item: CarouselItem; src: string } => !!s.src);
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const reduced = useReducedMotion();
  // The visitor's own choice (the pause / play button) wins over the reduced-motion preference.
  const [playing, setPlaying] = useState<boolean | null>(null);
  const running = playing ?? !reduced;
  const paused = hovered || focused || !running;

  useEffect(() => {
    if (slides.length < 2 || paused) return undefined;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % slides.length), INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [slides.length, paused]);

  if (!slides.length) return null;
  const go = (i: number) => setIndex((i + slides.length) % slides.length);

  return (
    <section
      className="hero"
      aria-roledescription="carousel"
      aria-label={t('home.carousel.label')}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
      data-testid="home-carousel"
    >
      <div
        className="hero__track"
        style={{ transform: `translateX(-${index * 100}%)` }}
        aria-live={paused ? 'polite' : 'off'}
      >
        {slides.map(({ item, src }, i) => {
          const alt = pickLang(language, item.title, item.titleEn) || t('home.carousel.slide', { n: i + 1 });
          const img = (
            <img
              src={src}
              alt={alt}
              width={1920}
              height={600}
              loading={i === 0 ? 'eager' : 'lazy'}
              fetchPriority={i === 0 ? 'high' : 'low'}
              decoding={i === 0 ? 'sync' : 'async'}
            />
          );
          return (
            <div className="hero__slide" key={`${item.surfacePlotUrl}-${i}`} aria-hidden={i !== index}>
              <JumpLink url={item.jumpUrl} tabIndex={i === index ? 0 : -1}>
                {img}
              </JumpLink>
            </div>
          );
        })}
      </div>
      {slides.length > 1 ? (
        <>
          <button
            type="button"
            className="hero__nav hero__nav--prev"
            onClick={() => go(index - 1)}
            aria-label={t('home.carousel.prev')}
          >
            ‹
          </button>
          <button
            type="button"
            className="hero__nav hero__nav--next"
            onClick={() => go(index + 1)}
            aria-label={t('home.carousel.next')}
          >
            ›
          </button>
          <MotionToggle
            running={running}
            onToggle={() => setPlaying(!running)}
            label={t(running ? 'home.carousel.pause' : 'home.carousel.play')}
            className="hero__toggle"
            testId="home-carousel-toggle"
          />
          <div className="hero__dots">
            {slides.map((_, i) => (
              <button
                type="button"
                key={i}
                className={i === index ? 'hero__dot hero__dot--active' : 'hero__dot'}
                aria-label={t('home.carousel.slide', { n: i + 1 })}
                aria-current={i === index}
                onClick={() => go(i)}
              />
            ))}
          </div>
        </>
      ) : null}
    </section>
  );
}
