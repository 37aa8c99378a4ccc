/**
 * A field that names one of the race's assets (issue 33 §1): the site's editors use it wherever the document
 * takes an image or a file (a carousel slide, an ad, a partner's logo, an image in rich text). Its value is the
 * asset's path on the file host (`assets/<raceId>/<name>`) or an address the organiser typed.
 *
 * The field shows the chosen image's thumbnail; "Choose" opens the race's library (thumbnails, name, size,
 * dimensions; a filter; images only for kind 'image'), where a new file can be uploaded in place. With `size`
 * (the slot's exact size, contract/assets.ts siteSlotSize), images of another size are marked with the reason
 * and cannot be chosen, and an upload of another size is refused before it is sent.
 */
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import CloseOutlined from '@ant-design/icons/CloseOutlined';
import FileOutlined from '@ant-design/icons/FileOutlined';
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import { Alert, Button, Empty, Input, Modal, Space, Spin } from 'antd';
import { ASSET_FILE_TYPES, ASSET_IMAGE_TYPES, assetNameIn, isImageAssetName } from '#contract/assets';
import { checkImageSize, type ImageSize } from '#contract/rules';
import {
  assetThumb,
  byteSize,
  dimensions,
  listRaceAssets,
  uploadAsset,
  valueAddress,
  type ListedAsset,
} from './asset-library';
import { FileButton } from './file-button';
import { useAction } from './use-action';
import './asset-library.css';

export interface AssetPickerProps {
  raceId: string;
  /** The asset's path (assets/<raceId>/<name>) or an address; '' when none is chosen. */
  value: string;
  onChange: (value: string) => void;
  /** Images only (the default), or any file (documents to download). */
  kind?: 'image' | 'file';
  /** The slot's exact size where the site needs one (contract/rules ImageSize): other images are refused. */
  size?: { width: number; height: number };
  /** The field's accessible name (the label it sits under). */
  'aria-label'?: string;
  id?: string;
}

/** Why an asset cannot go in a slot of `size` (another size, or an SVG without one), or ''. */
function useSizeReason(size: ImageSize | undefined) {
  const { t } = useTranslation();
  return useCallback(
    (asset: ListedAsset) => {
      if (!size) return '';
      if (!asset.size) return t('assets.picker.noFixedSize', { width: size.width, height: size.height });
      return checkImageSize(asset.size, size)
        ? t('assets.picker.wrongSize', {
            width: size.width,
            height: size.height,
            actualWidth: asset.size.width,
            actualHeight: asset.size.height,
          })
        : '';
    },
    [size, t],
  );
}

export function AssetPicker({
  raceId,
  value,
  onChange,
  kind = 'image',
  size,
  id,
  'aria-label': ariaLabel,
}: AssetPickerProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const hintId = useId();
  const showImage = kind === 'image' || isImageAssetName(assetNameIn(raceId, value) ?? '');
  return (
    <div className="asset-picker">
      <div className="asset-picker__row">
        {value ? (
          showImage ? (
            <img className="asset-picker__thumb" src={valueAddress(value)} alt="" />
          ) : (
            <span className="asset-picker__thumb asset-picker__thumb--file" aria-hidden="true">
              <FileOutlined aria-hidden />
            </span>
          )
        ) : null}
        <Space.Compact style={{ flex: 1, minWidth: 0 }}>
          <Input
            id={id}
            aria-label={ariaLabel}
            aria-describedby={size ? hintId : undefined}
            value={value}
            placeholder={t(kind === 'image' ? 'assets.picker.placeholderImage' : 'assets.picker.placeholderFile')}
            onChange={(event) => onChange(event.target.value)}
          />
          {value && (
            <Button
              icon={<CloseOutlined aria-hidden />}
              aria-label={t('assets.picker.clear')}
              title={t('assets.picker.clear')}
              onClick={() => onChange('')}
            />
          )}
          {/* No space inserted between two Chinese characters: the visible text must stay part of the aria-label. */}
          <Button
            type="primary"
            ghost
            // Its name starts with its visible text: antd's space between two Chinese characters (选 择) would not.
            autoInsertSpace={false}
            onClick={() => setOpen(true)}
            aria-label={ariaLabel ? t('assets.picker.chooseFor', { field: ariaLabel }) : undefined}
          >
            {t('assets.picker.choose')}
          </Button>
        </Space.Compact>
      </div>
      {size && (
        <span id={hintId} className="asset-picker__hint">
          {t('assets.picker.needs', { width: size.width, height: size.height })}
        </span>
      )}
      {open && (
        <AssetChooser
          raceId={raceId}
          kind={kind}
          size={size}
          value={value}
          onClose={() => setOpen(false)}
          onChoose={(path) => {
            onChange(path);
            setOpen(false);
          }}
        />
      )}
    </div>
  );
}

/** The library in a dialog: choose one, or upload one in place (chosen at once when it fits). */
function AssetChooser({
  raceId,
  kind,
  size,
  value,
  onClose,
  onChoose,
}: {
  raceId: string;
  kind: 'image' | 'file';
  size?: ImageSize;
  value: string;
  onClose: () => void;
  onChoose: (path: string) => void;
}) {
  const { t } = useTranslation();
  const [assets, setAssets] = useState<ListedAsset[] | null>(null);
  const [filter, setFilter] = useState('');
  const [refusal, setRefusal] = useState('');
  const loading = useAction();
  const uploading = useAction();
  const sizeReason = useSizeReason(size);

  const load = useCallback(
    () =>
      loading.run(async () => {
        setAssets(await listRaceAssets(raceId));
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [raceId],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const shown = useMemo(() => {
    const words = filter.trim().toLowerCase();
    return (assets ?? [])
      .filter((asset) => kind === 'file' || isImageAssetName(asset.name))
      .filter((asset) => words === '' || asset.name.includes(words));
  }, [assets, filter, kind]);

  const upload = (file: File) => {
    setRefusal('');
    void uploading.run(async () => {
      const added = await uploadAsset(raceId, file, kind === 'image' ? size : undefined);
      onChoose(added.path);
    });
  };
  const accept = (kind === 'image' ? ASSET_IMAGE_TYPES : ASSET_FILE_TYPES).map((type) => `.${type}`).join(',');
  const error = refusal || uploading.error || loading.error;

  return (
    <Modal
      open
      title={t(kind === 'image' ? 'assets.picker.titleImage' : 'assets.picker.titleFile')}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('assets.picker.cancel')}</Button>}
      width={880}
      destroyOnHidden
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
          <Input.Search
            allowClear
            aria-label={t('assets.picker.filter')}
            placeholder={t('assets.picker.filter')}
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            style={{ width: 260 }}
          />
          <FileButton
            accept={accept}
            icon={<UploadOutlined aria-hidden />}
            loading={uploading.busy}
            inputLabel={t('assets.picker.upload')}
            onFiles={([file]) => file && upload(file)}
          >
            {t('assets.picker.upload')}
          </FileButton>
        </Space>
        {size && (
          <Alert
            type="info"
            role="note"
            showIcon
            message={t('assets.picker.needs', { width: size.width, height: size.height })}
          />
        )}
        {error && <Alert type="error" showIcon message={error} role="alert" />}
        {assets === null ? (
          <div style={{ textAlign: 'center', padding: 32 }}>
            <Spin aria-label={t('assets.loading')} />
          </div>
        ) : shown.length === 0 ? (
          <Empty
            description={
              assets.length === 0
                ? t(kind === 'image' ? 'assets.picker.emptyImage' : 'assets.picker.emptyFile')
                : t('assets.picker.noMatch')
            }
          />
        ) : (
          <ul className="asset-grid" aria-label={t('assets.picker.list')}>
            {shown.map((asset) => {
              const reason = sizeReason(asset);
              const chosen = value === asset.path;
              return (
                <li key={asset.name}>
                  <button
                    type="button"
                    className={`asset-card${chosen ? ' asset-card--chosen' : ''}${reason ? ' asset-card--refused' : ''}`}
                    aria-disabled={reason ? true : undefined}
                    aria-pressed={chosen}
                    onClick={() => (reason ? setRefusal(`${asset.name}: ${reason}`) : onChoose(asset.path))}
                  >
                    <span className="asset-card__image">
                      {isImageAssetName(asset.name) ? (
                        <img src={assetThumb(asset)} alt="" loading="lazy" />
                      ) : (
                        <FileOutlined aria-hidden="true" />
                      )}
                    </span>
                    <span className="asset-card__body">
                      <span className="asset-card__name">{asset.name}</span>
                      <span className="asset-card__meta">
                        {byteSize(asset.bytes)}
                        {asset.size ? ` · ${dimensions(asset.size)}` : ''}
                      </span>
                      {reason && <span className="asset-card__reason">{reason}</span>}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </Space>
    </Modal>
  );
}
