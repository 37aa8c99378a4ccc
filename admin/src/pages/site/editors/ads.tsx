/**
 * The ads (bannerAdList in the top banner, adListTop above the news, adListBottom below the route map) as forms:
 * each ad with its image, its link for the Chinese and the English site, its description, and whether it is
 * shown only while sign-up is open; add, remove, move up and down.
 */
import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SiteEditor, SiteEditorProps } from '../editor-types';
import {
  BilingualFields,
  BrokenPart,
  CardList,
  EditorFrame,
  FlagField,
  ImageItemTitle,
  PartSection,
  ImageField,
  TextField,
  listPart,
  objectItems,
  withKey,
} from './parts-kit';

export const AD_LISTS = ['bannerAdList', 'adListTop', 'adListBottom'] as const;
const FIELDS = ['surfacePlotUrl', 'jumpUrl', 'jumpUrlEn', 'title', 'titleEn', 'whileSignUpOpen'];

export function AdsEditor({ raceId, draft, onChange, problems }: SiteEditorProps) {
  const { t } = useTranslation();
  return (
    <EditorFrame intro={t('siteParts.ads.intro')} testId="site-ads">
      {AD_LISTS.map((key) => {
        const { items, broken } = listPart(draft, key);
        return (
          <PartSection
            key={key}
            title={t(`siteParts.ads.lists.${key}`)}
            hint={t(`siteParts.ads.where.${key}`)}
            testId={`site-ads-${key}`}
          >
            {broken ? (
              <BrokenPart name={key} />
            ) : (
              <CardList
                testId={`site-ads-${key}-list`}
                items={items}
                itemFields={FIELDS}
                path={[key]}
                problems={problems}
                onChange={(next) => onChange(withKey(draft, key, next))}
                newItem={() => ({ surfacePlotUrl: '' })}
                addLabel={t('siteParts.ads.add')}
                emptyText={t('siteParts.ads.empty')}
                itemTitle={(item, index) => <ImageItemTitle item={item} index={index} texts="siteParts.ads" />}
                renderItem={objectItems((ad, index, update) => {
                  const path = [key, index];
                  return (
                    <>
                      <ImageField
                        label={t('siteParts.ads.image')}
                        path={[...path, 'surfacePlotUrl']}
                        problems={problems}
                        raceId={raceId}
                        value={ad.surfacePlotUrl}
                        required
                        onChange={(value) => update(withKey(ad, 'surfacePlotUrl', value))}
                      />
                      <Row gutter={16}>
                        <Col xs={24} md={12}>
                          <TextField
                            label={t('siteParts.ads.linkZh')}
                            hint={t('siteParts.ads.linkHint')}
                            placeholder="https://"
                            path={[...path, 'jumpUrl']}
                            problems={problems}
                            value={ad.jumpUrl}
                            onChange={(value) => update(withKey(ad, 'jumpUrl', value))}
                          />
                        </Col>
                        <Col xs={24} md={12}>
                          <TextField
                            label={t('siteParts.ads.linkEn')}
                            placeholder={t('siteParts.ads.linkEnFallback')}
                            path={[...path, 'jumpUrlEn']}
                            problems={problems}
                            value={ad.jumpUrlEn}
                            onChange={(value) => update(withKey(ad, 'jumpUrlEn', value))}
                          />
                        </Col>
                      </Row>
                      <BilingualFields
                        label={t('siteParts.ads.description')}
                        object={ad}
                        path={path}
                        field="title"
                        problems={problems}
                        onChange={update}
                      />
                      <FlagField
                        label={t('siteParts.ads.whileSignUpOpen')}
                        hint={t('siteParts.ads.whileSignUpOpenHint')}
                        path={path}
                        problems={problems}
                        object={ad}
                        field="whileSignUpOpen"
                        onChange={update}
                      />
                    </>
                  );
                })}
              />
            )}
          </PartSection>
        );
      })}
    </EditorFrame>
  );
}

export const adsEditor: SiteEditor = {
  key: 'ads',
  labelKey: 'siteParts.ads.tab',
  paths: AD_LISTS,
  order: 30,
  Component: AdsEditor,
};
