import { useMatches } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

/** In the debug configuration, a badge shows the names of the matched routes (spec §2). */
export function DebugBadge() {
  const { t } = useTranslation();
  const names = useMatches()
    .map((m) => (m.handle as { name?: string } | undefined)?.name)
    .filter(Boolean);
  return (
    <div className="debug-badge" data-testid="debug-badge" aria-hidden>
      {t('layout.debug.route')}: {names.join(' › ') || '—'}
    </div>
  );
}
