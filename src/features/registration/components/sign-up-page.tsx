/**
 * The sign-up page (issue #14 §1; PATHS.signUp, login): the race's sign-up window (a countdown before it
 * opens), the items as cards, the channel (public; an invitation code; a team, created or joined with its
 * code; charity places; the direct pass where the race has /direct), then the participants on the published
 * registration form (EntryInfo.formChannel) with the item fixed. The submission carries a random
 * idempotency key, kept while the same submission is retried, and a passed slider check (the login codes'
 * human check, shown above the submit button; a pass serves one submission, so every try asks for a new one).
 * An order goes on to its page to pay; a ballot entry shows its entry number and where the draw will be seen.
 * What is typed is kept as a draft per race, item and account (utils/entry-draft.ts, without the personal
 * numbers: a restored draft says which fields to type again); the page opens on the latest draft's item, asks
 * before leaving a changed, unsent form (LeaveGuard) and removes the draft once the entry is sent.
 */
import { Alert, Button, Input, Radio, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type {
  CodeCheckAnswer,
  EntryChannel,
  EntryInfo,
  EntryItemInfo,
  EntrySubmitAnswer,
  TeamInfo,
} from '#contract/entry';
import { normalizeCode } from '#contract/entry';
import type { RegistrationForm } from '#contract/registration-form';
import { SliderCaptcha } from '@/components/captcha/slider-captcha';
import { PATHS } from '@/config/paths';
import type { SliderPass } from '@/lib/captcha';
import { useRaceId } from '@/lib/use-race-id';
import { useAppStore } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';
import { checkEntryCode, createTeam, getEntryInfo, getTeam, submitEntry } from '../api/entry';
import { getRegistrationForm } from '../api/get-registration-form';
import { draftKey, latestDraftItem, readDraft, removeDraft, saveDraft, secretFields } from '../utils/entry-draft';
import { errorMessage, fieldRefusalsOf } from '../utils/field-refusals';
import { localText } from '../utils/form-utils';
import { useRaceTime } from '../utils/race-time';
import { useLoad } from '../utils/use-load';
import { EntryWindow, ItemCards, yuan } from './entry-items';
import { EntryPeople, ageRefusals, refusalsByPerson, type PeopleDraft, type PeopleRefusals } from './entry-people';
import { LeaveGuard } from './leave-guard';
import type { FormValues } from './registration-form';
import { LoadState, ScreenFrame, ScreenNotice } from './screen-frame';
import '../entry.css';

interface SignUpData {
  info: EntryInfo;
  form: RegistrationForm;
}

export default function SignUpPage() {
  const { t } = useTranslation();
  const raceId = useRaceId();
  const { result, reload } = useLoad<SignUpData>(async () => {
    const info = await getEntryInfo(raceId);
    const published = await getRegistrationForm(raceId, info.formChannel);
    return { info, form: published.form };
  }, raceId);
  return (
    <ScreenFrame title={t('entry.signUp.title')} subtitle={t('entry.signUp.subtitle')} testId="sign-up-page">
      {raceId ? (
        <LoadState load={result} retry={reload}>
          {(data) => <SignUpContent data={data} raceId={raceId} reload={reload} />}
        </LoadState>
      ) : (
        <ScreenNotice tone="off" title={t('registration.screen.noRace')} />
      )}
    </ScreenFrame>
  );
}

/** A random key for one submission (the same key on a retry gives the first answer again). */
function randomKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function SignUpContent({ data, raceId, reload }: { data: SignUpData; raceId: string; reload: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const race = useSiteStore((s) => s.race);
  const { info, form } = data;
  const open = info.windowState === 'open';
  const hasDirect = !!race?.directApplication;
  const channels: EntryChannel[] = [
    'public',
    'code',
    ...(info.items.some((i) => i.teams) ? (['team'] as const) : []),
    ...(info.items.some((i) => i.charity) ? (['charity'] as const) : []),
    ...(hasDirect ? (['direct'] as const) : []),
  ];
  // ?channel= (the direct-pass page links here with channel=direct) picks a channel the race offers.
  const [params] = useSearchParams();
  const [channel, setChannel] = useState<EntryChannel>(() => {
    const asked = params.get('channel');
    return channels.find((c) => c === asked) ?? 'public';
  });
  // The item of the latest draft, when it can still be chosen.
  const [chosen, setChosen] = useState<string | undefined>(() => {
    const code = latestDraftItem(raceId);
    const item = info.items.find((i) => i.code === code);
    return item && (item.left === null || item.left > 0) ? item.code : undefined;
  });
  const [codeAnswer, setCodeAnswer] = useState<CodeCheckAnswer>();
  const [team, setTeam] = useState<TeamInfo>();
  const [refusals, setRefusals] = useState<PeopleRefusals>({});
  const [submitError, setSubmitError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState<EntrySubmitAnswer>();
  const attempt = useRef<{ fingerprint: string; key: string }>(undefined);
  const [pass, setPass] = useState<SliderPass | null>(null);
  const [sliderKey, setSliderKey] = useState(0);

  const selectable = (item: EntryItemInfo): boolean => {
    // The organiser closed this item's channel (contract/season.ts entryStateFor).
    if (item.closedChannels?.includes(channel)) return false;
    if (channel === 'charity') return !!item.charity && item.charity.left > 0;
    if (channel === 'team') return !!item.teams && !team;
    if (channel === 'code') return false;
    return item.left === null || item.left > 0;
  };
  const itemCode =
    channel === 'code' ? codeAnswer?.itemCode : channel === 'team' ? team?.itemCode : chosen && selectableCode();
  function selectableCode() {
    const item = info.items.find((i) => i.code === chosen);
    return item && selectable(item) ? item.code : undefined;
  }
  const item = info.items.find((i) => i.code === itemCode);
  const ready = !!itemCode && (channel === 'code' || open);

  // The draft of this item (read when the item is chosen) and whether the form has changed since.
  const key = itemCode ? draftKey(raceId, itemCode) : undefined;
  const draft = useMemo(() => (key ? readDraft(key) : undefined), [key]);
  const changed = useRef(false);
  const leaving = useCallback(() => changed.current, []);
  const keepDraft = (next: PeopleDraft) => {
    if (!key) return;
    changed.current = true;
    saveDraft(key, form, next);
  };
  const language = useAppStore((s) => s.language);
  const retype = secretFields(form).map((f) => localText(language, f.label));

  const changeChannel = (next: EntryChannel) => {
    setChannel(next);
    setRefusals({});
    setSubmitError(undefined);
  };

  const submit = async (people: FormValues[]) => {
    if (!itemCode) return;
    setSubmitError(undefined);
    const ages = ageRefusals(people, item, race?.startTime);
    if (Object.keys(ages).length) {
      setRefusals(ages);
      return;
    }
    const request = {
      raceId,
      itemCode,
      channel,
      ...(channel === 'code' && codeAnswer ? { code: codeAnswer.code } : {}),
      ...(channel === 'team' && team ? { code: team.teamCode } : {}),
      participants: people,
    };
    if (!pass) {
      setSubmitError(t('entry.signUp.sliderFirst'));
      return;
    }
    const fingerprint = JSON.stringify(request);
    if (attempt.current?.fingerprint !== fingerprint) attempt.current = { fingerprint, key: randomKey() };
    setSubmitting(true);
    try {
      const answer = await submitEntry({
        ...request,
        idempotencyKey: attempt.current.key,
        captcha: { token: pass.nc_token, sig: pass.sig, sessionId: pass.sessionId, scene: pass.scene },
      });
      setRefusals({});
      // Sent: the draft is gone and leaving asks nothing.
      changed.current = false;
      if (key) removeDraft(key);
      if (answer.order) {
        navigate(PATHS.order.replace(':orderNo', encodeURIComponent(answer.order.orderNo)));
      } else {
        setDone(answer);
      }
    } catch (error) {
      const fields = fieldRefusalsOf(error);
      if (fields) setRefusals(refusalsByPerson(fields));
      else setRefusals({});
      setSubmitError(errorMessage(error));
    } finally {
      setSubmitting(false);
      // A pass serves one submission: a fresh slider for the next try.
      setSliderKey((n) => n + 1);
    }
  };

  if (done) return <EntryDone answer={done} info={info} />;

  return (
    <div className="en-signup">
      <LeaveGuard active={leaving} />
      <EntryWindow info={info} onOpen={reload} />
      <h2 className="rs-section-title">{t('entry.signUp.itemsTitle')}</h2>
      {info.items.length ? (
        <ItemCards
          items={info.items}
          selected={channel === 'code' || channel === 'team' ? itemCode : chosen}
          selectable={(i) => (channel === 'code' || channel === 'team' ? false : selectable(i))}
          channel={channel}
          onSelect={(code) => {
            setChosen(code);
            setRefusals({});
          }}
        />
      ) : (
        <ScreenNotice tone="off" title={t('entry.signUp.noItems')} />
      )}

      <h2 className="rs-section-title">{t('entry.signUp.channelTitle')}</h2>
      <Radio.Group
        className="en-channels"
        optionType="button"
        buttonStyle="solid"
        value={channel}
        onChange={(e) => changeChannel(e.target.value as EntryChannel)}
        options={channels.map((c) => ({ value: c, label: t(`entry.channels.${c}`) }))}
        aria-label={t('entry.signUp.channelTitle')}
        data-testid="entry-channels"
      />
      <p className="en-channel-text">{t(`entry.channelTexts.${channel}`)}</p>

      {channel === 'code' ? (
        <CodeBox raceId={raceId} answer={codeAnswer} onAnswer={setCodeAnswer} />
      ) : channel === 'team' ? (
        <TeamBox
          raceId={raceId}
          items={info.items}
          chosen={chosen}
          onChoose={setChosen}
          team={team}
          onTeam={setTeam}
          open={open}
        />
      ) : null}

      {channel !== 'code' && !open ? (
        <ScreenNotice tone={info.windowState === 'notYet' ? 'wait' : 'off'} title={t('entry.signUp.notOpen')}>
          <p>{t('entry.signUp.codeStillWorks')}</p>
        </ScreenNotice>
      ) : null}
      {channel !== 'code' && channel !== 'team' && open && !itemCode ? (
        <p className="en-hint" data-testid="entry-choose-hint">
          {t('entry.signUp.chooseFirst')}
        </p>
      ) : null}

      {ready && itemCode ? (
        <section className="en-participants" aria-labelledby="en-participants-title">
          <h2 id="en-participants-title" className="rs-section-title">
            {t('entry.signUp.peopleTitle')}
          </h2>
          <ChosenLine info={info} itemCode={itemCode} codeAnswer={codeAnswer} channel={channel} />
          {submitError ? (
            <Alert type="error" showIcon title={submitError} className="en-alert" data-testid="entry-submit-error" />
          ) : null}
          {draft ? (
            <Alert
              type="info"
              showIcon
              className="en-alert"
              data-testid="entry-draft-restored"
              title={
                retype.length
                  ? t('entry.signUp.draftRetype', { fields: retype.join(language === 'zh' ? '、' : ', ') })
                  : t('entry.signUp.draftRestored')
              }
            />
          ) : null}
          {info.allowMultiple ? (
            <p className="en-hint" data-testid="entry-per-account">
              {t('entry.signUp.perAccount', { max: info.peoplePerAccount })}
            </p>
          ) : null}
          <EntryPeople
            form={form}
            raceId={raceId}
            itemCode={itemCode}
            allowMultiple={info.allowMultiple}
            maxPeople={info.peoplePerAccount}
            refusals={refusals}
            submitting={submitting}
            onSubmit={submit}
            slider={<EntrySlider key={sliderKey} pass={pass} onPass={setPass} />}
            draft={draft}
            onDraftChange={keepDraft}
          />
        </section>
      ) : null}
    </div>
  );
}

/**
 * The human check before submitting: the login codes' slider. A slider shown anew (after a try, or when the
 * list of people is shown again) starts without a pass.
 */
function EntrySlider({ pass, onPass }: { pass: SliderPass | null; onPass: (pass: SliderPass | null) => void }) {
  const { t } = useTranslation();
  useEffect(() => onPass(null), [onPass]);
  return (
    <div className="en-slider" data-testid="entry-slider">
      <SliderCaptcha onPass={onPass} />
      {!pass ? <p className="en-hint">{t('entry.signUp.sliderFirst')}</p> : null}
    </div>
  );
}

/** What is being entered: the item, the channel and the fee of one place. */
function ChosenLine({
  info,
  itemCode,
  codeAnswer,
  channel,
}: {
  info: EntryInfo;
  itemCode: string;
  codeAnswer: CodeCheckAnswer | undefined;
  channel: EntryChannel;
}) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const item = info.items.find((i) => i.code === itemCode);
  const name = item ? localText(language, item.name) : codeAnswer ? localText(language, codeAnswer.itemName) : itemCode;
  const fee = item ? (channel === 'charity' && item.charity ? item.charity.feeFen : item.feeFen) : undefined;
  return (
    <p className="en-chosen" data-testid="entry-chosen">
      {t('entry.signUp.chosenLine', { item: name, channel: t(`entry.channels.${channel}`) })}
      {fee !== undefined ? <strong className="en-chosen__fee">{yuan(fee)}</strong> : null}
    </p>
  );
}

/** The invitation code: checked with the server, which answers the item it opens. */
function CodeBox({
  raceId,
  answer,
  onAnswer,
}: {
  raceId: string;
  answer: CodeCheckAnswer | undefined;
  onAnswer: (answer: CodeCheckAnswer | undefined) => void;
}) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const time = useRaceTime();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [checking, setChecking] = useState(false);
  const check = async () => {
    setChecking(true);
    setError(undefined);
    onAnswer(undefined);
    try {
      onAnswer(await checkEntryCode(raceId, normalizeCode(code)));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setChecking(false);
    }
  };
  return (
    <div className="en-box" data-testid="entry-code">
      <div className="en-inline">
        <Input
          value={code}
          onChange={(e) => setCode(e.target.value)}
          placeholder={t('entry.code.placeholder')}
          aria-label={t('entry.code.label')}
          maxLength={32}
          onPressEnter={() => void check()}
        />
        <Button type="primary" loading={checking} disabled={!code.trim()} onClick={() => void check()}>
          {t('entry.code.check')}
        </Button>
      </div>
      {error ? <Alert type="error" showIcon title={error} data-testid="entry-code-error" /> : null}
      {answer ? (
        <Alert
          type="success"
          showIcon
          data-testid="entry-code-ok"
          title={t('entry.code.opens', { item: localText(language, answer.itemName) })}
          description={[
            answer.namedFor ? t('entry.code.namedFor', { name: answer.namedFor }) : '',
            t('entry.code.usesLeft', { count: answer.usesLeft }),
            answer.expiresAt ? t('entry.code.expires', { time: time(answer.expiresAt) }) : '',
          ]
            .filter(Boolean)
            .join(' · ')}
        />
      ) : null}
    </div>
  );
}

/** A team: create one for an item with teams (its code is shared with the members) or join one by its code. */
function TeamBox({
  raceId,
  items,
  chosen,
  onChoose,
  team,
  onTeam,
  open,
}: {
  raceId: string;
  items: EntryItemInfo[];
  chosen: string | undefined;
  onChoose: (code: string) => void;
  team: TeamInfo | undefined;
  onTeam: (team: TeamInfo | undefined) => void;
  open: boolean;
}) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const [mode, setMode] = useState<'create' | 'join'>('create');
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const teamItems = items.filter((i) => i.teams);
  const itemCode = teamItems.some((i) => i.code === chosen) ? chosen : teamItems[0]?.code;
  const run = useCallback(
    async (call: () => Promise<TeamInfo>) => {
      setBusy(true);
      setError(undefined);
      try {
        onTeam(await call());
      } catch (e) {
        setError(errorMessage(e));
      } finally {
        setBusy(false);
      }
    },
    [onTeam],
  );
  if (team) {
    const item = items.find((i) => i.code === team.itemCode);
    return (
      <div className="en-box" data-testid="entry-team">
        <Alert
          type="success"
          showIcon
          data-testid="entry-team-info"
          title={t('entry.team.info', {
            name: team.name,
            item: item ? localText(language, item.name) : team.itemCode,
          })}
          description={
            <>
              <p>
                {t('entry.team.code')}{' '}
                <Typography.Text code copyable data-testid="entry-team-code">
                  {team.teamCode}
                </Typography.Text>
              </p>
              <p>{t('entry.team.members', { count: team.members.length, min: team.minSize, max: team.maxSize })}</p>
              {team.isCaptain ? <p>{t('entry.team.share')}</p> : null}
            </>
          }
        />
        <Button type="link" onClick={() => onTeam(undefined)}>
          {t('entry.team.other')}
        </Button>
      </div>
    );
  }
  return (
    <div className="en-box" data-testid="entry-team">
      <Radio.Group
        value={mode}
        onChange={(e) => setMode(e.target.value as 'create' | 'join')}
        options={[
          { value: 'create', label: t('entry.team.create') },
          { value: 'join', label: t('entry.team.join') },
        ]}
      />
      {mode === 'create' ? (
        <>
          <Radio.Group
            className="en-team-items"
            value={itemCode}
            onChange={(e) => onChoose(String(e.target.value))}
            options={teamItems.map((i) => ({ value: i.code, label: localText(language, i.name) }))}
            aria-label={t('entry.team.item')}
          />
          <div className="en-inline">
            <Input
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder={t('entry.team.namePlaceholder')}
              aria-label={t('entry.team.name')}
              maxLength={30}
            />
            <Button
              type="primary"
              loading={busy}
              disabled={!open || !name.trim() || !itemCode}
              onClick={() => itemCode && void run(() => createTeam({ raceId, itemCode, name: name.trim() }))}
              data-testid="entry-team-create"
            >
              {t('entry.team.createButton')}
            </Button>
          </div>
        </>
      ) : (
        <div className="en-inline">
          <Input
            value={code}
            onChange={(e) => setCode(e.target.value)}
            placeholder={t('entry.team.codePlaceholder')}
            aria-label={t('entry.team.code')}
            maxLength={32}
          />
          <Button
            type="primary"
            loading={busy}
            disabled={!code.trim()}
            onClick={() => void run(() => getTeam(raceId, normalizeCode(code)))}
            data-testid="entry-team-join"
          >
            {t('entry.team.joinButton')}
          </Button>
        </div>
      )}
      {error ? <Alert type="error" showIcon title={error} data-testid="entry-team-error" /> : null}
    </div>
  );
}

/** A ballot entry made: its number, when the draw is, and where to follow it. */
function EntryDone({ answer, info }: { answer: EntrySubmitAnswer; info: EntryInfo }) {
  const { t } = useTranslation();
  const time = useRaceTime();
  // The panel replaces a long form: bring it into view and focus it, so the outcome is seen and read out.
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    panel.current?.scrollIntoView?.({ block: 'center' });
    panel.current?.focus({ preventScroll: true });
  }, []);
  return (
    <div className="en-done" data-testid="entry-done" ref={panel} tabIndex={-1}>
      <ScreenNotice tone="ok" title={t('entry.done.title')}>
        <p>
          {t('entry.done.numbers', { count: answer.entries.length })}{' '}
          {answer.entries.map((e) => (
            <strong key={e.entryNo} className="en-entry-no" data-testid="entry-done-no">
              {e.entryNo}
            </strong>
          ))}
        </p>
        <p>
          {info.signUpEndTime
            ? t('entry.done.drawAfter', { time: time(info.signUpEndTime) })
            : t('entry.done.drawAfterWindow')}
        </p>
      </ScreenNotice>
      <div className="rs-actions">
        <Link className="en-link-button" to={PATHS.myIndex} data-testid="entry-done-centre">
          {t('entry.done.centre')}
        </Link>
        <Link className="en-link" to={PATHS.ballot} data-testid="entry-done-ballot">
          {t('entry.done.ballot')}
        </Link>
      </div>
    </div>
  );
}
