import { useEffect, useState } from 'react';
import { loadRegionSource } from '@/components/form/region-picker';
import { useAppStore } from '@/stores/app-store';

/** The names of a region value in the visitor's language ('浙江省 杭州市 西湖区'), the codes until the data is in. */
export function RegionName({ codes }: { codes: readonly string[] }) {
  const language = useAppStore((s) => s.language);
  const [names, setNames] = useState<string[] | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all([loadRegionSource(language), import('#contract/region-data')]).then(
      ([source, data]) => live && setNames(data.regionNames(codes, source.english)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [codes, language]);
  return <span data-testid="region-name">{(names ?? codes).join(language === 'en' ? ', ' : ' ')}</span>;
}
