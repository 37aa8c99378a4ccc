import { CERTIFICATE_TYPE_LABELS, isCertificateType } from '#contract/enums';
import { entryStatusLabel, placeByDraw, type EntryModel } from '#contract/entry';
import { ORDER_FIELDS } from '#contract/site-config/race-types';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '@/config/paths';
import { pickLang } from '@/lib/pick-lang';
import { useAppStore } from '@/stores/app-store';
import { searchRegistration, type RegistrationAnswer } from '../api/search-registration';
import type {
  Order,
  RegistrationChannel,
  RegistrationFacts,
  RegistrationQueryType,
  RegistrationResult,
  RegistrationStatusResult,
} from '../types/search-types';
import { useRaceId } from '@/lib/use-race-id';
import { useSearchRequest } from '../utils/use-search-request';
import { SearchFrame } from './search-frame';
import { SearchFailure, SearchSubmit } from './search-parts';
import { IdentityFields, SearchForm, type IdentityValues } from './search-form';

const STATUS_TONE = ['wait', 'ok', 'off', 'off', 'wait', 'off'];
/** The selector's order: the status first, then the info of each channel (spec §3 query types 1, 3, 5, 2). */
const QUERY_TYPES = [1, 3, 5, 2] as const satisfies readonly RegistrationQueryType[];
const CHANNEL_KEYS: Record<RegistrationChannel, 'web' | 'app' | 'thirdParty'> = { 2: 'thirdParty', 3: 'web', 5: 'app' };

function show(value: unknown): string {
  return value === null || value === undefined || value === '' ? '—' : String(value);
}

/** The channel a registration came through; web (the default of the contract) when the answer does not say. */
function channelOf(facts: RegistrationFacts): RegistrationChannel {
  return facts.channel === 2 || facts.channel === 5 ? facts.channel : 3;
}

/**
 * Registration search (spec §2 /registration-search, §3 query types): the registration status (type 1), or the
 * registration info (participant and orders) of the website (3), the app (5) or a third-party platform (2).
 */
export default function RegistrationSearchPage() {
  const { t } = useTranslation();
  const raceId = useRaceId();
  const [queryType, setQueryType] = useState<RegistrationQueryType>(1);
  const [asked, setAsked] = useState<IdentityValues | null>(null);
  const { loading, data: answer, failure, run, reset } = useSearchRequest<RegistrationAnswer>();

  const lookUp = async (type: RegistrationQueryType, who: IdentityValues) => {
    setAsked(who);
    await run(() =>
      searchRegistration({
        raceId,
        name: who.name,
        certificateType: who.certificateType,
        certificateNumber: who.certificateNumber.trim(),
        queryType: type,
      }),
    );
  };

  const choose = (type: RegistrationQueryType) => {
    setQueryType(type);
    reset();
  };

  /** From a status answer to the registration info of its channel, for the same name and number. */
  const viewDetails = async (channel: RegistrationChannel) => {
    if (!asked) return;
    setQueryType(channel);
    await lookUp(channel, asked);
  };

  return (
    <SearchFrame
      title={t('search.registration.title')}
      subtitle={t('search.registration.subtitle')}
      switchName="registrationSearch"
      wide
    >
      <fieldset className="search-mode search-mode--query">
        <legend className="search-field__label">{t('search.registration.queryType')}</legend>
        {QUERY_TYPES.map((type) => (
          <label
            key={type}
            className={queryType === type ? 'search-mode__option search-mode__option--on' : 'search-mode__option'}
          >
            <input
              type="radio"
              name="registration-query-type"
              value={type}
              checked={queryType === type}
              onChange={() => choose(type)}
            />
            {t(`search.registration.queryTypes.${type}`)}
          </label>
        ))}
      </fieldset>
      <SearchForm<IdentityValues>
        name="registration-search"
        label={t('search.registration.title')}
        onSearch={(who) => void lookUp(queryType, who)}
      >
        <IdentityFields />
        <SearchSubmit loading={loading} />
      </SearchForm>
      <SearchFailure failure={failure} />
      {answer?.queryType === 1 ? (
        <RegistrationStatusView
          result={answer.status}
          onViewDetails={(channel) => void viewDetails(channel)}
          loading={loading}
        />
      ) : answer ? (
        <RegistrationResultView result={answer.info} />
      ) : null}
    </SearchFrame>
  );
}

/** The status line every answer starts with; an entry by draw links the public ballot page. */
function StatusBanner({ status, model }: { status: number; model?: EntryModel }) {
  const { t } = useTranslation();
  const code = status >= 0 && status <= 5 ? status : 0;
  return (
    <div className={`reg-status reg-status--${STATUS_TONE[code]}`}>
      <span className="reg-status__label">{t('search.registration.status')}</span>
      <strong data-testid="registration-status">{t(entryStatusLabel(code, model))}</strong>
      {model && placeByDraw(model) && code <= 2 ? (
        <Link className="reg-status__ballot" to={PATHS.ballot} data-testid="registration-ballot-link">
          {t('search.registration.ballotLink')}
        </Link>
      ) : null}
    </div>
  );
}

/** 'Registered via: Third party (Qingchuan Sports Travel)': the platform in the visitor's language, else Chinese. */
function useChannelText(facts: RegistrationFacts): string {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const channel = t(`search.registration.channels.${CHANNEL_KEYS[channelOf(facts)]}`);
  const platform = pickLang(language, facts.channelName, facts.channelNameEn);
  return platform ? t('search.registration.channelWithPlatform', { channel, platform }) : channel;
}

/** The item, bib, race and channel of a registration. */
function RegistrationFactsGrid({ facts, name }: { facts: RegistrationFacts; name?: string }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const channel = useChannelText(facts);
  const rows: [string, string, string?][] = [
    ...(name === undefined ? [] : [[t('search.fields.name'), name] as [string, string]]),
    [t('search.registration.race'), show(pickLang(language, facts.raceName, facts.raceNameEn))],
    [t('search.registration.item'), show(pickLang(language, facts.itemName, facts.itemNameEn))],
    [t('search.registration.bib'), show(facts.bib)],
    [t('search.registration.registeredVia'), channel, 'registration-channel'],
  ];
  return (
    <dl className="kv-grid reg-facts">
      {rows.map(([k, v, testId]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd data-testid={testId}>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Query type 1: the status, how the runner registered, and the way to the registration info. */
export function RegistrationStatusView({
  result,
  onViewDetails,
  loading = false,
}: {
  result: RegistrationStatusResult;
  onViewDetails: (channel: RegistrationChannel) => void;
  loading?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="result-card" data-testid="registration-result">
      <StatusBanner status={result.status} model={result.model} />
      <RegistrationFactsGrid facts={result} name={show(result.participant?.name)} />
      <div className="search-actions reg-actions">
        <button
          type="button"
          className="search-btn search-btn--ghost"
          disabled={loading}
          onClick={() => onViewDetails(channelOf(result))}
        >
          {t('search.registration.viewDetails')}
        </button>
      </div>
      <p className="search-note">{t('search.registration.statusHint')}</p>
    </div>
  );
}

/** Query types 2, 3, 5: status, channel, participant and orders. */
export function RegistrationResultView({ result }: { result: RegistrationResult }) {
  const { t } = useTranslation();
  const p = result.participant;
  const rows: [string, string][] = [
    [t('search.fields.name'), p.name],
    [
      t('search.fields.certificateType'),
      isCertificateType(p.certificateType) ? t(CERTIFICATE_TYPE_LABELS[p.certificateType]) : '—',
    ],
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
      <StatusBanner status={result.status} model={result.model} />
      <RegistrationFactsGrid facts={result} />
      <h2 className="result-section-title">{t('search.registration.participant')}</h2>
      <dl className="kv-grid" data-testid="participant">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <h2 className="result-section-title">{t('search.registration.orders')}</h2>
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
