import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { searchRegistration } from '../api/search-registration';
import type { Order, RegistrationResult } from '../types/search-types';
import { useRaceId } from '../utils/use-race-id';
import { useSearchRequest } from '../utils/use-search-request';
import { SearchFrame } from './search-frame';
import { SearchFailure, SearchSubmit } from './search-parts';
import { IdentityFields, emptyIdentity, validateIdentity, type IdentityErrors } from './identity-fields';

const ORDER_FIELDS = ['orderNo', 'subOrderNo', 'createTime', 'serialNo', 'payTime', 'amountPaid', 'orderAmount', 'coupon', 'discount'] as const;
const STATUS_TONE = ['wait', 'ok', 'off', 'off', 'wait', 'off'];

function show(value: unknown): string {
  return value === null || value === undefined || value === '' ? '—' : String(value);
}

/** Registration search (spec §2 /registration-search): status, participant and orders. */
export default function RegistrationSearchPage() {
  const { t } = useTranslation();
  const raceId = useRaceId();
  const [identity, setIdentity] = useState(emptyIdentity);
  const [errors, setErrors] = useState<IdentityErrors>({ name: null, certificateNumber: null });
  const { loading, data: result, failure, run } = useSearchRequest<RegistrationResult>();

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const errs = validateIdentity(identity);
    setErrors(errs);
    if (errs.name || errs.certificateNumber) return;
    await run(() =>
      searchRegistration({
        raceId,
        name: identity.name,
        certificateType: identity.certificateType,
        certificateNumber: identity.certificateNumber.trim(),
      }),
    );
  };

  return (
    <SearchFrame title={t('search.registration.title')} subtitle={t('search.registration.subtitle')} switchName="registrationSearch" wide>
      <form className="search-form" onSubmit={(e) => void submit(e)} noValidate aria-label={t('search.registration.title')}>
        <IdentityFields value={identity} onChange={setIdentity} errors={errors} onErrors={setErrors} />
        <SearchSubmit loading={loading} />
      </form>
      <SearchFailure failure={failure} />
      {result ? <RegistrationResultView result={result} /> : null}
    </SearchFrame>
  );
}

export function RegistrationResultView({ result }: { result: RegistrationResult }) {
  const { t } = useTranslation();
  const p = result.participant;
  const status = result.status >= 0 && result.status <= 5 ? result.status : 0;
  const rows: [string, string][] = [
    [t('search.fields.name'), p.name],
    [t('search.fields.certificateType'), [1, 2, 3, 4].includes(p.certificateType) ? t(`search.certificateTypes.${p.certificateType as 1 | 2 | 3 | 4}`) : '—'],
    [t('search.fields.certificateNumber'), show(p.certificateNumber)],
    [t('search.registration.phone'), show(p.phone)],
    [t('search.registration.emergencyName'), show(p.emergencyName)],
    [t('search.registration.emergencyPhone'), show(p.emergencyPhone)],
    [t('search.registration.birthday'), show(p.birthday)],
    [t('search.registration.age'), show(p.age)],
    [t('search.registration.adultLabel'), p.adult ? t('search.registration.adult') : t('search.registration.minor')],
  ];
  return (
    <div className="result-card" data-testid="registration-result">
      <div className={`reg-status reg-status--${STATUS_TONE[status]}`}>
        <span className="reg-status__label">{t('search.registration.status')}</span>
        <strong data-testid="registration-status">{t(`search.registration.statuses.${status as 0 | 1 | 2 | 3 | 4 | 5}`)}</strong>
      </div>
      <h3 className="result-section-title">{t('search.registration.participant')}</h3>
      <dl className="kv-grid" data-testid="participant">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <h3 className="result-section-title">{t('search.registration.orders')}</h3>
      {result.orders.length ? (
        result.orders.map((o: Order) => (
          <dl className="kv-grid kv-grid--order" key={`${o.orderNo}-${o.subOrderNo}`} data-testid="order">
            {ORDER_FIELDS.map((f) => (
              <div key={f}>
                <dt>{t(`search.registration.order.${f}`)}</dt>
                <dd>{show(o[f])}</dd>
              </div>
            ))}
          </dl>
        ))
      ) : (
        <p className="search-note">{t('search.registration.noOrders')}</p>
      )}
    </div>
  );
}
