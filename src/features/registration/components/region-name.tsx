import { useEffect, useState } from 'react';
import { loadRegionSource } from '@/components/form/region-picker';
import { useAppStore } from '@/stores/app-store';

/** The names of a region value in the visitor's language ('浙江省 杭州市 西湖区'); the codes should the data not load. */
export function RegionName({ codes }: { codes: readonly string[] }) {
  const language = useAppStore((s) => s.language);
  const [names, setNames] = useState<readonly string[] | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all([loadRegionSource(language), import('#contract/region-data')]).then(
      ([source, data]) => live && setNames(data.regionNames(codes, source.english) ?? codes),
      () => live && setNames(codes),
    );
    return () => {
      live = false;
    };
  }, [codes, language]);
  return <span data-testid="region-name">{names ? names.join(language === 'en' ? ', ' : ' ') : '…'}</span>;
}
