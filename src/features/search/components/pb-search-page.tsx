import { useTranslation } from 'react-i18next';
import { pickLang } from '@/lib/pick-lang';
import { useAppStore } from '@/stores/app-store';
import { searchPb } from '../api/search-pb';
import type { PbItem } from '../types/search-types';
import { useSearchRequest } from '../utils/use-search-request';
import { SearchFrame } from './search-frame';
import { SearchFailure, SearchSubmit } from './search-parts';
import { IdentityFields, SearchForm, type IdentityValues } from './search-form';

/** Personal best (spec §2 /pb-search): the best time per item across races. */
export default function PbSearchPage() {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const { loading, data: items, failure, run } = useSearchRequest<PbItem[]>();

  const submit = async (identity: IdentityValues) => {
    await run(
      () => searchPb({ name: identity.name, certificateNumber: identity.certificateNumber.trim() }),
      (list) => (list.length ? null : t('search.notFound')),
    );
  };

  return (
    <SearchFrame title={t('search.pb.title')} subtitle={t('search.pb.subtitle')} switchName="scoreSearch" wide>
      <SearchForm<IdentityValues> name="pb-search" label={t('search.pb.title')} onSearch={(v) => void submit(v)}>
        <IdentityFields />
        <SearchSubmit loading={loading} />
      </SearchForm>
      <SearchFailure failure={failure} />
      {items?.length ? (
        <table className="search-table search-table--cards phone-cards" data-testid="pb-table">
          <thead>
            <tr>
              <th scope="col">{t('search.pb.item')}</th>
              <th scope="col">{t('search.pb.chipTime')}</th>
              <th scope="col">{t('search.pb.race')}</th>
              <th scope="col">{t('search.pb.date')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((pb) => (
              <tr key={pb.item}>
                <th scope="row">{pickLang(language, pb.itemName, pb.itemNameEn)}</th>
                <td className="search-table__strong" data-label={t('search.pb.chipTime')}>
                  {pb.chipTime}
                </td>
                <td className="search-table__wide" data-label={t('search.pb.race')}>
                  {pickLang(language, pb.raceName, pb.raceNameEn)}
                </td>
                <td data-label={t('search.pb.date')}>{pb.raceDate}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </SearchFrame>
  );
}
