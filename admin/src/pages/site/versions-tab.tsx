/**
 * Every publication of the domain (newest first): when (the race's time zone), who (a staff member or the
 * command line), MD5 and size; two compared line by line (pretty-printed JSON, added and removed lines marked
 * with + and − as well as colour); a roll back to one in one action (its exact bytes published again).
 */
import { Alert, App, Button, Card, Empty, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SiteVersion } from '#contract/site-drafts';
import { api } from '../../api/client';
import { useAction } from '../../lib/use-action';
import { formatInstant } from '../../time';
import { useLoaded } from '../../use-loaded';
import { lineDiff, prettyJson, type DiffLine } from './line-diff';

const shortMd5 = (md5: string) => md5.slice(0, 8);
/** Unchanged lines kept around each change; longer runs are folded into one line. */
const CONTEXT = 3;

type Row = { kind: 'line'; line: DiffLine } | { kind: 'fold'; count: number };

function foldUnchanged(lines: DiffLine[]): Row[] {
  const rows: Row[] = [];
  const near = lines.map(() => false);
  lines.forEach((line, i) => {
    if (line.kind === 'same') return;
    for (let j = Math.max(0, i - CONTEXT); j <= Math.min(lines.length - 1, i + CONTEXT); j++) near[j] = true;
  });
  let folded = 0;
  lines.forEach((line, i) => {
    if (line.kind === 'same' && !near[i]) {
      folded++;
      return;
    }
    if (folded > 0) rows.push({ kind: 'fold', count: folded });
    folded = 0;
    rows.push({ kind: 'line', line });
  });
  if (folded > 0) rows.push({ kind: 'fold', count: folded });
  return rows;
}

export function VersionsTab(props: { raceId: string; domain: string; zone: string; onRolledBack: () => void }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const base = `/races/${encodeURIComponent(props.raceId)}/site`;
  const load = useCallback(
    () => api.get<SiteVersion[]>(`${base}/versions`, { domain: props.domain }),
    [base, props.domain],
  );
  const { data, error, loading } = useLoaded(load);
  const versions = data ?? [];
  const [from, setFrom] = useState<string>();
  const [to, setTo] = useState<string>();
  const [diff, setDiff] = useState<{ from: string; to: string; lines: DiffLine[] }>();
  const action = useAction();
  const older = from ?? versions[1]?.md5;
  const newer = to ?? versions[0]?.md5;

  const textOf = (md5: string) =>
    api.get<{ md5: string; text: string }>(`${base}/version`, { domain: props.domain, md5 }).then((v) => v.text);

  const compare = () =>
    action.run(async () => {
      if (!older || !newer) return;
      const [a, b] = await Promise.all([textOf(older), textOf(newer)]);
      setDiff({ from: older, to: newer, lines: lineDiff(prettyJson(a), prettyJson(b)) });
    });

  const rollback = (version: SiteVersion) => {
    modal.confirm({
      title: t('site.versions.rollbackConfirmTitle', { domain: props.domain, md5: shortMd5(version.md5) }),
      content: t('site.versions.rollbackConfirmText'),
      okText: t('site.versions.rollback'),
      okButtonProps: { danger: true },
      cancelText: t('site.cancel'),
      onOk: () =>
        action.run(async () => {
          await api.post(`${base}/rollback`, { domain: props.domain, md5: version.md5 });
          void message.success(t('site.versions.rolledBack', { md5: shortMd5(version.md5) }));
          props.onRolledBack();
        }),
    });
  };

  const option = (v: SiteVersion) => ({
    value: v.md5,
    label: `${formatInstant(v.publishedAt, props.zone)} · ${shortMd5(v.md5)}`,
  });
  // One option per document (a roll back publishes the same MD5 again).
  const options = versions.filter((v, i) => versions.findIndex((w) => w.md5 === v.md5) === i).map(option);

  const columns: TableColumnsType<SiteVersion> = [
    {
      key: 'at',
      title: t('site.versions.publishedAt'),
      render: (_, v) => (
        <Space size={4}>
          <span>{formatInstant(v.publishedAt, props.zone)}</span>
          {v.current && <Tag color="blue">{t('site.versions.current')}</Tag>}
        </Space>
      ),
    },
    { key: 'by', title: t('site.versions.by'), render: (_, v) => v.publishedBy?.name ?? t('site.versions.cli') },
    { key: 'md5', title: t('site.versions.md5'), render: (_, v) => <code title={v.md5}>{shortMd5(v.md5)}</code> },
    {
      key: 'size',
      title: t('site.versions.size'),
      align: 'right',
      render: (_, v) => t('site.versions.kb', { size: (v.bytes / 1024).toFixed(1) }),
    },
    {
      key: 'actions',
      title: t('site.versions.actions'),
      render: (_, v) =>
        v.current ? null : (
          <Button
            size="small"
            onClick={() => rollback(v)}
            disabled={action.busy}
            data-testid={`site-rollback-${v.md5}`}
          >
            {t('site.versions.rollback')}
          </Button>
        ),
    },
  ];

  const added = diff?.lines.filter((l) => l.kind === 'added').length ?? 0;
  const removed = diff?.lines.filter((l) => l.kind === 'removed').length ?? 0;

  return (
    <div className="site-versions" data-testid="site-versions">
      {error && <Alert type="error" showIcon message={error} role="alert" className="site-alert" />}
      {action.error && <Alert type="error" showIcon message={action.error} role="alert" className="site-alert" />}
      <Table<SiteVersion>
        rowKey={(v) => `${v.md5}-${v.publishedAt}`}
        size="middle"
        loading={loading}
        columns={columns}
        dataSource={versions}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('site.versions.empty')} /> }}
        data-testid="site-versions-table"
      />
      {options.length >= 2 && (
        <Card size="small" title={t('site.versions.compare')} className="site-compare">
          <Space wrap>
            <label htmlFor="site-compare-from">{t('site.versions.from')}</label>
            <Select
              id="site-compare-from"
              aria-label={t('site.versions.from')}
              value={older}
              onChange={setFrom}
              options={options}
              style={{ minWidth: 240 }}
              data-testid="site-compare-from"
            />
            <label htmlFor="site-compare-to">{t('site.versions.to')}</label>
            <Select
              id="site-compare-to"
              aria-label={t('site.versions.to')}
              value={newer}
              onChange={setTo}
              options={options}
              style={{ minWidth: 240 }}
              data-testid="site-compare-to"
            />
            <Button onClick={() => void compare()} loading={action.busy} data-testid="site-compare">
              {t('site.versions.compare')}
            </Button>
          </Space>
          {diff && (
            <div className="site-diff" data-testid="site-diff">
              <Typography.Paragraph strong>
                {t('site.versions.compareTitle', { from: shortMd5(diff.from), to: shortMd5(diff.to) })} ·{' '}
                {added + removed === 0 ? t('site.versions.same') : t('site.versions.summary', { added, removed })}
              </Typography.Paragraph>
              {added + removed > 0 && (
                // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a long diff scrolls: the keyboard must reach it
                <pre className="site-diff__lines" role="region" aria-label={t('site.versions.diffLabel')} tabIndex={0}>
                  {foldUnchanged(diff.lines).map((row, i) =>
                    row.kind === 'fold' ? (
                      <div key={i} className="site-diff__fold">
                        {t('site.versions.unchanged', { count: row.count })}
                      </div>
                    ) : (
                      <div key={i} className={`site-diff__line site-diff__line--${row.line.kind}`}>
                        <span className="site-diff__mark" aria-hidden="true">
                          {row.line.kind === 'added' ? '+' : row.line.kind === 'removed' ? '−' : ' '}
                        </span>
                        {row.line.kind !== 'same' && (
                          <span className="site-sr-only">{t(`site.versions.${row.line.kind}`)}: </span>
                        )}
                        <span className="site-diff__no" aria-hidden="true">
                          {row.line.kind === 'added' ? '' : row.line.oldLine}
                        </span>
                        <span className="site-diff__no" aria-hidden="true">
                          {row.line.kind === 'removed' ? '' : row.line.newLine}
                        </span>
                        {row.line.text}
                      </div>
                    ),
                  )}
                </pre>
              )}
            </div>
          )}
        </Card>
      )}
    </div>
  );
}
