/**
 * The public ballot page (issue #14 §3; PATHS.ballot): every ballot of the race, per item and round, with
 * its commitment and when it was published, the beacon, the seed once revealed, the places, the published
 * entry list (searchable by entry number) with each entry's result, and a check in the visitor's own
 * browser: SHA-256 of the seed against the commitment, and the draw (contract/ballot.ts, the very code the
 * server runs) re-run on the page's own data against the published winners and wait list. "Am I in?"
 * answers an entry number's outcome.
 */
import { Alert, Button, Descriptions, Input, Select, Table, Tag } from 'antd';
import { PageTabs } from '@/components/ui/page-tabs';
import { useMemo, useState, type TdHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { unitsOf } from '#contract/ballot';
import type { BallotCheckAnswer, BallotPublic } from '#contract/entry';
import { useInputClear } from '@/components/form/clear-button';
import { useRaceId } from '@/lib/use-race-id';
import { useAppStore } from '@/stores/app-store';
import { checkBallot, getBallot, listBallots } from '../api/ballot';
import { errorMessage } from '../utils/field-refusals';
import { localText } from '../utils/form-utils';
import { useRaceTime } from '../utils/race-time';
import { useLoad } from '../utils/use-load';
import { verifyBallot, type Verification } from '../utils/verify-ballot';
import { LoadState, ScreenFrame, ScreenNotice } from './screen-frame';
import '../entry.css';

export default function BallotPage() {
  const { t } = useTranslation();
  const raceId = useRaceId();
  const { result, reload } = useLoad<BallotPublic[]>(async () => {
    const list = await listBallots(raceId);
    return Promise.all(list.map((b) => getBallot(raceId, b.itemCode, b.round)));
  }, raceId);
  return (
    <ScreenFrame title={t('entry.ballot.title')} subtitle={t('entry.ballot.subtitle')} testId="ballot-page">
      <div className="en-explain">
        <p>{t('entry.ballot.explain1')}</p>
        <p>{t('entry.ballot.explain2')}</p>
      </div>
      {raceId ? (
        <>
          <AmIIn raceId={raceId} />
          <LoadState load={result} retry={reload}>
            {(ballots) =>
              ballots.length ? <Ballots ballots={ballots} /> : <ScreenNotice title={t('entry.ballot.none')} />
            }
          </LoadState>
        </>
      ) : (
        <ScreenNotice tone="off" title={t('registration.screen.noRace')} />
      )}
    </ScreenFrame>
  );
}

function Ballots({ ballots }: { ballots: BallotPublic[] }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  if (ballots.length === 1 && ballots[0]) return <BallotView ballot={ballots[0]} />;
  return (
    <PageTabs
      className="en-ballot-tabs"
      items={ballots.map((b) => ({
        key: `${b.itemCode}-${b.round}`,
        label:
          b.round > 1
            ? t('entry.ballot.tabRound', { item: localText(language, b.itemName), round: b.round })
            : localText(language, b.itemName),
        children: <BallotView ballot={b} />,
      }))}
    />
  );
}

type Result = 'won' | 'waitList' | 'notWon' | 'pending';
interface Row {
  index: number;
  entryNo: string;
  maskedName: string;
  unit: string | null;
  result: Result;
  waitListPosition: number | null;
}

/** The published results of a ballot as rows of its entry list. */
function rowsOf(ballot: BallotPublic): Row[] {
  const won = new Set(ballot.winners);
  // Wait-list positions count units: a team's members share one.
  const unitOf = new Map(ballot.entries.map((e) => [e.entryNo, e.unit]));
  const waiting = new Map<string, number>();
  unitsOf(ballot.waitList.map((no) => ({ entryNo: no, unit: unitOf.get(no) ?? null }))).forEach((unit, i) =>
    unit.members.forEach((no) => waiting.set(no, i + 1)),
  );
  const drawn = ballot.drawnAt !== null;
  return ballot.entries.map((e, index) => {
    const position = waiting.get(e.entryNo) ?? null;
    const result: Result = !drawn ? 'pending' : won.has(e.entryNo) ? 'won' : position !== null ? 'waitList' : 'notWon';
    return { index: index + 1, ...e, result, waitListPosition: position };
  });
}

const RESULT_COLOR = { won: 'success', waitList: 'warning', notWon: 'default', pending: 'processing' } as const;

function BallotView({ ballot }: { ballot: BallotPublic }) {
  const { t } = useTranslation();
  const clear = useInputClear();
  const time = useRaceTime();
  const rows = useMemo(() => rowsOf(ballot), [ballot]);
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<Result | 'all'>('all');
  const [verification, setVerification] = useState<Verification>();
  const query = search.trim().toUpperCase();
  const shown = rows.filter(
    (r) => (filter === 'all' || r.result === filter) && (!query || r.entryNo.toUpperCase().includes(query)),
  );
  const drawn = ballot.drawnAt !== null;
  const resultText = (r: Row) =>
    r.result === 'waitList'
      ? t('entry.ballot.results.waitListAt', { position: r.waitListPosition })
      : t(`entry.ballot.results.${r.result}`);

  return (
    <section className="en-ballot" data-testid={`ballot-${ballot.itemCode}-${ballot.round}`}>
      <Descriptions
        className="en-ballot__facts"
        bordered
        size="small"
        column={1}
        items={[
          {
            key: 'commitment',
            label: t('entry.ballot.commitment'),
            children: (
              <>
                <code className="en-hash" data-testid="ballot-commitment">
                  {ballot.commitment}
                </code>
                <span className="en-muted"> {t('entry.ballot.publishedAt', { time: time(ballot.committedAt) })}</span>
              </>
            ),
          },
          {
            key: 'beacon',
            label: t('entry.ballot.beacon'),
            children: ballot.beacon ? <code className="en-hash">{ballot.beacon}</code> : t('entry.ballot.noBeacon'),
          },
          {
            key: 'seed',
            label: t('entry.ballot.seed'),
            children: ballot.seed ? (
              <code className="en-hash" data-testid="ballot-seed">
                {ballot.seed}
              </code>
            ) : (
              t('entry.ballot.seedHidden')
            ),
          },
          {
            key: 'places',
            label: t('entry.ballot.places'),
            children: ballot.places ?? '—',
          },
          {
            key: 'drawn',
            label: t('entry.ballot.drawnAt'),
            children: ballot.drawnAt ? time(ballot.drawnAt) : t('entry.ballot.notDrawn'),
          },
          {
            key: 'counts',
            label: t('entry.ballot.counts'),
            children: t('entry.ballot.countsLine', {
              entries: ballot.entries.length,
              winners: ballot.winners.length,
              waitList: ballot.waitList.length,
            }),
          },
        ]}
      />

      <div className="en-verify">
        <Button
          type="primary"
          disabled={!drawn || !ballot.seed}
          onClick={() => setVerification(verifyBallot(ballot))}
          data-testid="ballot-verify"
        >
          {t('entry.ballot.verify')}
        </Button>
        {!ballot.seed ? <span className="en-muted">{t('entry.ballot.verifyLater')}</span> : null}
        {verification ? <VerificationView verification={verification} /> : null}
      </div>

      <div className="en-table-tools">
        <Input.Search
          allowClear={clear}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder={t('entry.ballot.searchPlaceholder')}
          aria-label={t('entry.ballot.search')}
          className="en-table-tools__search"
          data-testid="ballot-search"
        />
        <Select
          value={filter}
          onChange={setFilter}
          aria-label={t('entry.ballot.filter')}
          className="en-table-tools__filter"
          options={(['all', 'won', 'waitList', 'notWon', 'pending'] as const).map((value) => ({
            value,
            label: t(`entry.ballot.filters.${value}`),
          }))}
        />
      </div>
      <Table<Row>
        className="en-ballot__entries phone-cards"
        size="small"
        rowKey="entryNo"
        dataSource={shown}
        pagination={{ pageSize: 20, showSizeChanger: false, hideOnSinglePage: true }}
        columns={[
          { title: t('entry.ballot.columns.index'), dataIndex: 'index', width: 72 },
          { title: t('entry.ballot.columns.entryNo'), dataIndex: 'entryNo' },
          { title: t('entry.ballot.columns.name'), dataIndex: 'maskedName' },
          {
            title: t('entry.ballot.columns.unit'),
            dataIndex: 'unit',
            render: (unit: string | null) => unit ?? '—',
            // On the mobile site a row is a small card: the team's cell says what it is (registration-mobile.css).
            onCell: () => ({ 'data-label': t('entry.ballot.columns.unit') }) as TdHTMLAttributes<HTMLElement>,
          },
          {
            title: t('entry.ballot.columns.result'),
            dataIndex: 'result',
            render: (_: Result, r: Row) => <Tag color={RESULT_COLOR[r.result]}>{resultText(r)}</Tag>,
          },
        ]}
        locale={{ emptyText: t(drawn ? 'entry.ballot.noEntries' : 'entry.ballot.listAtDraw') }}
        data-testid="ballot-entries"
      />
    </section>
  );
}

function VerificationView({ verification }: { verification: Verification }) {
  const { t } = useTranslation();
  if (verification.state === 'ok') {
    return (
      <Alert
        type="success"
        showIcon
        role="status"
        data-testid="ballot-verify-result"
        title={t('entry.ballot.verifyOk', { count: verification.winners })}
      />
    );
  }
  if (verification.state === 'seedMismatch') {
    return (
      <Alert
        type="error"
        showIcon
        role="alert"
        data-testid="ballot-verify-result"
        title={t('entry.ballot.seedMismatch')}
      />
    );
  }
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      data-testid="ballot-verify-result"
      title={t('entry.ballot.drawMismatch')}
      description={[
        t('entry.ballot.mismatchCounts', {
          published: verification.published,
          computed: verification.computed,
          differing: verification.differing,
        }),
        verification.waitListDiffers ? t('entry.ballot.waitListDiffers') : '',
      ]
        .filter(Boolean)
        .join(' ')}
    />
  );
}

/** "Am I in?": an entry number's outcome. */
function AmIIn({ raceId }: { raceId: string }) {
  const { t } = useTranslation();
  const [entryNo, setEntryNo] = useState('');
  const [answer, setAnswer] = useState<BallotCheckAnswer>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const ask = async () => {
    setBusy(true);
    setError(undefined);
    setAnswer(undefined);
    try {
      setAnswer(await checkBallot(raceId, entryNo.trim()));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const tone = { won: 'success', waitList: 'warning', notWon: 'info', pending: 'info' } as const;
  return (
    <section className="en-box en-am-i-in" aria-labelledby="en-am-i-in" data-testid="ballot-am-i-in">
      <h2 id="en-am-i-in" className="rs-section-title">
        {t('entry.ballot.amIIn')}
      </h2>
      <div className="en-inline">
        <Input
          value={entryNo}
          onChange={(e) => setEntryNo(e.target.value)}
          placeholder={t('entry.ballot.entryNoPlaceholder')}
          aria-label={t('entry.ballot.entryNo')}
          maxLength={40}
          onPressEnter={() => entryNo.trim() && void ask()}
        />
        <Button type="primary" loading={busy} disabled={!entryNo.trim()} onClick={() => void ask()}>
          {t('entry.ballot.ask')}
        </Button>
      </div>
      {error ? <Alert type="error" showIcon title={error} data-testid="ballot-am-i-in-error" /> : null}
      {answer ? (
        <Alert
          type={tone[answer.outcome]}
          showIcon
          data-testid="ballot-am-i-in-answer"
          title={
            answer.outcome === 'waitList'
              ? t('entry.ballot.answers.waitList', {
                  entryNo: answer.entryNo,
                  position: answer.waitListPosition ?? '—',
                })
              : t(`entry.ballot.answers.${answer.outcome}`, { entryNo: answer.entryNo })
          }
        />
      ) : null}
    </section>
  );
}
