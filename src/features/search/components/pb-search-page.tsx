import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import { searchPb } from '../api/search-pb';
import type { PbItem } from '../types/search-types';
import { SearchFrame } from './search-frame';
import { IdentityFields, emptyIdentity, validateIdentity, type IdentityErrors } from './identity-fields';

/** Personal best (spec §2 /pb-search): the best time per item across races. */
export default function PbSearchPage() {
  const { t } = useTranslation();
  const [identity, setIdentity] = useState(emptyIdentity);
  const [errors, setErrors] = useState<IdentityErrors>({ name: null, certificateNumber: null });
  const [loading, setLoading] = useState(false);
  const [items, setItems] = useState<PbItem[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const errs = validateIdentity(identity);
    setErrors(errs);
    if (errs.name || errs.certificateNumber) return;
    setLoading(true);
    setFailure(null);
    setItems(null);
    try {
      const list = await searchPb({ name: identity.name, certificateNumber: identity.certificateNumber.trim() });
      setItems(list);
      if (!list.length) setFailure(t('search.notFound'));
    } catch (err) {
      setFailure(err instanceof ApiError ? err.message : t('search.noData'));
    } finally {
      setLoading(false);
    }
  };

  return (
    <SearchFrame title={t('search.pb.title')} subtitle={t('search.pb.subtitle')} switchName="scoreSearch" wide>
      <form className="search-form" onSubmit={(e) => void submit(e)} noValidate aria-label={t('search.pb.title')}>
        <IdentityFields value={identity} onChange={setIdentity} errors={errors} onErrors={setErrors} />
        <div className="search-actions">
          <button type="submit" className="search-btn" disabled={loading}>
            {loading ? t('search.searching') : t('search.submit')}
          </button>
        </div>
      </form>
      {failure ? (
        <p className="search-empty" role="alert" data-testid="search-failure">
          {failure}
        </p>
      ) : null}
      {items?.length ? (
        <table className="search-table" data-testid="pb-table">
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
                <th scope="row">{pb.itemName}</th>
                <td className="search-table__strong">{pb.chipTime}</td>
                <td>{pb.raceName}</td>
                <td>{pb.date}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </SearchFrame>
  );
}
