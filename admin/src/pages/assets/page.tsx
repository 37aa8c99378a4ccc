/**
 * The race's asset library (issue 33 §1; owner and service): every image and document with its thumbnail,
 * name, type, size, dimensions, where it is used and the path to put in the site configuration; upload several
 * files at once (each checked, each refusal with its reason), replace one under its name (the site shows the
 * new file at once), delete one nothing uses (with a confirmation), preview an image, download a document. The
 * same service as the CLI's asset-add, asset-list, asset-replace and asset-remove; every change audited.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import FileOutlined from '@ant-design/icons/FileOutlined';
import InboxOutlined from '@ant-design/icons/InboxOutlined';
import SwapOutlined from '@ant-design/icons/SwapOutlined';
import {
  Alert,
  App,
  Button,
  Empty,
  Input,
  Modal,
  Popconfirm,
  Segmented,
  Space,
  Table,
  Tooltip,
  Typography,
  Upload,
  type TableColumnsType,
} from 'antd';
import { ASSET_FILE_TYPES, isImageAssetName, type AssetUse } from '#contract/assets';
import { api } from '../../api/client';
import {
  assetsCall,
  assetThumb,
  byteSize,
  dimensions,
  listRaceAssets,
  replaceAsset,
  uploadAsset,
  type ListedAsset,
} from '../../lib/asset-library';
import { FileButton } from '../../lib/file-button';
import { ScrollRegion } from '../../lib/scroll-region';
import { useAction } from '../../lib/use-action';
import { useConsole } from '../../store';
import { formatInstant, zoneOfRace } from '../../time';
import { useLoaded } from '../../use-loaded';
import '../../lib/asset-library.css';

type Kind = 'all' | 'images' | 'files';
interface UploadOutcome {
  key: number;
  name: string;
  ok: boolean;
  text: string;
}

let outcomeKey = 0;

export default function AssetsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { raceId = '' } = useParams();
  const zone = useConsole((s) => zoneOfRace(raceId, s.races));
  const load = useCallback(() => listRaceAssets(raceId), [raceId]);
  const assets = useLoaded(load);
  const [kind, setKind] = useState<Kind>('all');
  const [filter, setFilter] = useState('');
  const [outcomes, setOutcomes] = useState<UploadOutcome[]>([]);
  const [uploadingName, setUploadingName] = useState('');
  const [previewed, setPreviewed] = useState<ListedAsset | null>(null);
  const acting = useAction();

  // Several files chosen at once arrive one call each: uploaded one after another, each with its outcome.
  const queue = useRef(Promise.resolve());
  const upload = (file: File) => {
    queue.current = queue.current.then(async () => {
      setUploadingName(file.name);
      let outcome: UploadOutcome;
      try {
        const added = await uploadAsset(raceId, file);
        outcome = { key: ++outcomeKey, name: added.name, ok: true, text: t('assets.uploaded', { name: added.name }) };
      } catch (failure) {
        outcome = {
          key: ++outcomeKey,
          name: file.name,
          ok: false,
          text: failure instanceof Error ? failure.message : String(failure),
        };
      }
      setOutcomes((last) => [outcome, ...last].slice(0, 20));
      setUploadingName('');
      assets.reload();
    });
    return false;
  };

  const replace = (asset: ListedAsset, file: File) => {
    void acting.run(async () => {
      await replaceAsset(raceId, asset.name, file);
      void message.success(t('assets.replaced', { name: asset.name }));
      assets.reload();
    });
  };
  const remove = (asset: ListedAsset) =>
    acting.run(async () => {
      await api.post(`${assetsCall(raceId)}/${encodeURIComponent(asset.name)}/remove`);
      void message.success(t('assets.deleted', { name: asset.name }));
      assets.reload();
    });

  // The audit log's actor name: "name <e-mail>" of a staff member (the name is enough here), or cli:user@host.
  const byWhom = (by: string) => by.replace(/\s*<[^>]*>$/, '').replace(/^cli:/, `${t('assets.cli')} `);
  const labelOf = (use: AssetUse) => t(`assets.use.${use.where}`, { of: use.of });
  const shown = useMemo(() => {
    const words = filter.trim().toLowerCase();
    return (assets.data ?? []).filter(
      (asset) =>
        (kind === 'all' || (kind === 'images') === isImageAssetName(asset.name)) &&
        (words === '' || asset.name.includes(words)),
    );
  }, [assets.data, filter, kind]);

  const columns: TableColumnsType<ListedAsset> = [
    {
      title: t('assets.columns.preview'),
      key: 'preview',
      width: 88,
      render: (_, asset) =>
        isImageAssetName(asset.name) ? (
          <Button
            type="text"
            style={{ padding: 0, height: 'auto' }}
            aria-label={t('assets.previewOf', { name: asset.name })}
            onClick={() => setPreviewed(asset)}
          >
            <img className="asset-table-thumb" src={assetThumb(asset)} alt="" loading="lazy" />
          </Button>
        ) : (
          <span className="asset-table-thumb asset-table-thumb--file" aria-hidden="true">
            <FileOutlined aria-hidden />
          </span>
        ),
    },
    {
      title: t('assets.columns.name'),
      dataIndex: 'name',
      key: 'name',
      sorter: (a, b) => a.name.localeCompare(b.name),
      render: (name: string) => <span className="asset-name">{name}</span>,
    },
    { title: t('assets.columns.type'), dataIndex: 'type', key: 'type', width: 72 },
    {
      title: t('assets.columns.bytes'),
      key: 'bytes',
      align: 'right',
      width: 96,
      sorter: (a, b) => a.bytes - b.bytes,
      render: (_, asset) => byteSize(asset.bytes),
    },
    {
      title: t('assets.columns.dimensions'),
      key: 'dimensions',
      width: 120,
      render: (_, asset) => dimensions(asset.size),
    },
    {
      title: t('assets.columns.uploaded'),
      key: 'uploaded',
      width: 150,
      render: (_, asset) =>
        asset.uploaded ? (
          <>
            {formatInstant(asset.uploaded.at, zone)}
            <br />
            <Typography.Text type="secondary">{byWhom(asset.uploaded.by)}</Typography.Text>
          </>
        ) : (
          '—'
        ),
    },
    {
      title: t('assets.columns.usedBy'),
      key: 'usedBy',
      minWidth: 130,
      render: (_, asset) =>
        asset.usedBy.length === 0 ? (
          <Typography.Text type="secondary">{t('assets.unused')}</Typography.Text>
        ) : (
          <ul style={{ margin: 0, paddingLeft: 16 }}>
            {asset.usedBy.map((use) => (
              <li key={`${use.where} ${use.of} ${use.field}`}>
                {labelOf(use)} <span className="asset-path">{use.field}</span>
              </li>
            ))}
          </ul>
        ),
    },
    {
      title: t('assets.columns.path'),
      key: 'path',
      minWidth: 170,
      render: (_, asset) => (
        <Typography.Text
          className="asset-path"
          copyable={{ text: asset.path, tooltips: [t('assets.copyPath'), t('assets.copied')] }}
        >
          {asset.path}
        </Typography.Text>
      ),
    },
    {
      title: t('assets.columns.actions'),
      key: 'actions',
      render: (_, asset) => (
        <Space wrap size={4}>
          <FileButton
            size="small"
            accept={`.${asset.type}`}
            icon={<SwapOutlined aria-hidden />}
            aria-label={t('assets.replaceOf', { name: asset.name, type: asset.type })}
            inputLabel={t('assets.replaceOf', { name: asset.name, type: asset.type })}
            onFiles={([file]) => file && replace(asset, file)}
          >
            {t('assets.replace')}
          </FileButton>
          <Button
            size="small"
            icon={<DownloadOutlined aria-hidden />}
            href={asset.url}
            download={asset.name}
            aria-label={t('assets.downloadOf', { name: asset.name })}
          >
            {t('assets.download')}
          </Button>
          {asset.usedBy.length > 0 ? (
            <Tooltip title={t('assets.inUse')}>
              <Button
                size="small"
                danger
                icon={<DeleteOutlined aria-hidden />}
                disabled
                aria-label={`${t('assets.deleteOf', { name: asset.name })}: ${t('assets.inUse')}`}
              >
                {t('assets.delete')}
              </Button>
            </Tooltip>
          ) : (
            <Popconfirm
              title={t('assets.deleteConfirm', { name: asset.name })}
              okText={t('assets.deleteOk')}
              cancelText={t('assets.deleteCancel')}
              okButtonProps={{ danger: true }}
              onConfirm={() => remove(asset)}
            >
              <Button
                size="small"
                danger
                icon={<DeleteOutlined aria-hidden />}
                aria-label={t('assets.deleteOf', { name: asset.name })}
              >
                {t('assets.delete')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  const empty = (assets.data ?? []).length === 0;
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }} data-testid="assets-page">
      <div>
        <div className="console-page-head" style={{ marginBottom: 4 }}>
          <h1>{t('assets.title')}</h1>
        </div>
        <Typography.Paragraph>{t('assets.intro')}</Typography.Paragraph>
      </div>
      <Upload.Dragger
        accept={ASSET_FILE_TYPES.map((type) => `.${type}`).join(',')}
        multiple
        showUploadList={false}
        beforeUpload={upload}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined aria-hidden />
        </p>
        <p className="ant-upload-text">{t('assets.upload')}</p>
        <p className="ant-upload-hint">{t('assets.uploadHint')}</p>
      </Upload.Dragger>
      {uploadingName && (
        <Typography.Text role="status">{t('assets.uploading', { name: uploadingName })}</Typography.Text>
      )}
      {outcomes.length > 0 && (
        <Space direction="vertical" style={{ width: '100%' }} data-testid="asset-upload-outcomes">
          {outcomes.map((outcome) => (
            <Alert
              key={outcome.key}
              type={outcome.ok ? 'success' : 'error'}
              showIcon
              closable
              onClose={() => setOutcomes((last) => last.filter((o) => o.key !== outcome.key))}
              message={outcome.ok ? outcome.text : t('assets.refused', { name: outcome.name })}
              description={outcome.ok ? undefined : outcome.text}
            />
          ))}
        </Space>
      )}
      {acting.error && <Alert type="error" showIcon message={acting.error} role="alert" />}
      {assets.error && <Alert type="error" showIcon message={assets.error} />}
      {!assets.loading && empty && !assets.error ? (
        <Empty description={t('assets.empty')} data-testid="assets-empty" />
      ) : (
        <>
          <Space wrap>
            <Segmented<Kind>
              aria-label={t('assets.kindFilter')}
              options={(['all', 'images', 'files'] as const).map((value) => ({
                value,
                label: t(`assets.kinds.${value}`),
              }))}
              value={kind}
              onChange={setKind}
            />
            <Input.Search
              allowClear
              aria-label={t('assets.filter')}
              placeholder={t('assets.filter')}
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
              style={{ width: 240 }}
            />
          </Space>
          <ScrollRegion label={t('assets.table')}>
            <Table<ListedAsset>
              rowKey="name"
              size="middle"
              columns={columns}
              dataSource={shown}
              loading={assets.loading && assets.data === undefined}
              pagination={{ pageSize: 20, hideOnSinglePage: true }}
              locale={{ emptyText: t('assets.noMatch') }}
            />
          </ScrollRegion>
        </>
      )}
      <Modal
        open={previewed !== null}
        title={previewed?.name}
        onCancel={() => setPreviewed(null)}
        footer={<Button onClick={() => setPreviewed(null)}>{t('assets.close')}</Button>}
        width={840}
      >
        {previewed && (
          <div style={{ textAlign: 'center' }}>
            <img
              src={assetThumb(previewed)}
              alt={previewed.name}
              style={{ maxWidth: '100%', maxHeight: '70vh', objectFit: 'contain' }}
            />
            <Typography.Paragraph style={{ marginTop: 8 }}>
              {byteSize(previewed.bytes)} · {dimensions(previewed.size)}
            </Typography.Paragraph>
          </div>
        )}
      </Modal>
    </Space>
  );
}
