import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { pickLang } from '@/lib/pick-lang';
import { useAppStore } from '@/stores/app-store';
import { verifyCertificate } from '../api/verify-certificate';
import type { VerifyAnswer } from '../types/search-types';
import { SearchFrame } from './search-frame';

/** /certificate?id=&sig= — the page the e-certificate's QR code opens: valid with the server's facts, or not. */
export default function CertificateVerifyPage() {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const sig = params.get('sig') ?? '';
  const [answer, setAnswer] = useState<VerifyAnswer | null>(id && sig ? null : { valid: false });

  useEffect(() => {
    if (!id || !sig) return;
    let alive = true;
    verifyCertificate(id, sig)
      .then((a) => alive && setAnswer(a))
      .catch(() => alive && setAnswer({ valid: false }));
    return () => {
      alive = false;
    };
  }, [id, sig]);

  return (
    <SearchFrame title={t('search.certificate.verifyTitle')}>
      {!answer ? (
        <p className="search-note" role="status">
          {t('search.certificate.verifying')}
        </p>
      ) : answer.valid ? (
        <div className="verify verify--valid" data-testid="certificate-valid">
          <p className="verify__badge" role="status">
            <span aria-hidden="true">✓</span> {t('search.certificate.valid')}
          </p>
          <p className="search-note">{t('search.certificate.validHint')}</p>
          <dl className="kv-grid">
            {(
              [
                ['search.fields.race', pickLang(language, answer.facts.raceName, answer.facts.raceNameEn)],
                ['search.certificate.runner', answer.facts.name],
                ['search.certificate.bib', answer.facts.bib],
                ['search.certificate.item', pickLang(language, answer.facts.itemName, answer.facts.itemNameEn)],
                ['search.certificate.chipTime', answer.facts.chipTime],
                [
                  'search.certificate.overall',
                  answer.facts.ranks?.overall != null
                    ? `${answer.facts.ranks.overall}${answer.facts.ranks.finishers ? ` / ${answer.facts.ranks.finishers}` : ''}`
                    : '—',
                ],
                [
                  'search.certificate.gender',
                  answer.facts.ranks?.gender != null ? String(answer.facts.ranks.gender) : '—',
                ],
                [
                  'search.certificate.ageGroup',
                  answer.facts.ranks?.ageGroup != null
                    ? `${answer.facts.ranks.ageGroup}${answer.facts.ranks.ageGroupLabel ? ` (${answer.facts.ranks.ageGroupLabel})` : ''}`
                    : '—',
                ],
              ] as const
            ).map(([key, value]) => (
              <div key={key}>
                <dt>{t(key)}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </div>
      ) : (
        <div className="verify verify--invalid" data-testid="certificate-invalid">
          <p className="verify__badge" role="alert">
            <span aria-hidden="true">✕</span> {t('search.certificate.invalid')}
          </p>
          <p className="search-note">{t('search.certificate.invalidHint')}</p>
        </div>
      )}
    </SearchFrame>
  );
}
