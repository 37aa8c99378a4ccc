/**
 * The home page's carousel (carouselList) as a form: each slide with its image (and a thumbnail of it), where
 * a click goes, and its title in Chinese and English; add, remove, move up and down.
 */
import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SiteEditor, SiteEditorProps } from '../editor-types';
import {
  BilingualFields,
  BrokenPart,
  CardList,
  EditorFrame,
  ImageItemTitle,
  ImageField,
  TextField,
  listPart,
  objectItems,
  withKey,
} from './parts-kit';

const KEY = 'carouselList';
const FIELDS = ['surfacePlotUrl', 'jumpUrl', 'title', 'titleEn'];

export function CarouselEditor({ raceId, draft, onChange, problems }: SiteEditorProps) {
  const { t } = useTranslation();
  const { items, broken } = listPart(draft, KEY);
  return (
    <EditorFrame intro={t('siteParts.carousel.intro')} testId="site-carousel">
      {broken ? (
        <BrokenPart name={KEY} />
      ) : (
        <CardList
          testId="site-carousel-slides"
          items={items}
          itemFields={FIELDS}
          path={[KEY]}
          problems={problems}
          onChange={(next) => onChange(withKey(draft, KEY, next))}
          newItem={() => ({ surfacePlotUrl: '' })}
          addLabel={t('siteParts.carousel.add')}
          emptyText={t('siteParts.carousel.empty')}
          itemTitle={(item, index) => <ImageItemTitle item={item} index={index} texts="siteParts.carousel" />}
          renderItem={objectItems((slide, index, update) => {
            const path = [KEY, index];
            return (
              <>
                <Row gutter={16}>
                  <Col xs={24} md={12}>
                    <ImageField
                      label={t('siteParts.carousel.image')}
                      hint={t('siteParts.carousel.imageHint')}
                      path={[...path, 'surfacePlotUrl']}
                      problems={problems}
                      raceId={raceId}
                      value={slide.surfacePlotUrl}
                      required
                      onChange={(value) => update(withKey(slide, 'surfacePlotUrl', value))}
                    />
                  </Col>
                  <Col xs={24} md={12}>
                    <TextField
                      label={t('siteParts.carousel.link')}
                      hint={t('siteParts.common.linkHint')}
                      placeholder="/race-information/race-rules"
                      path={[...path, 'jumpUrl']}
                      problems={problems}
                      value={slide.jumpUrl}
                      onChange={(value) => update(withKey(slide, 'jumpUrl', value))}
                    />
                  </Col>
                </Row>
                <BilingualFields
                  label={t('siteParts.carousel.title')}
                  object={slide}
                  path={path}
                  field="title"
                  problems={problems}
                  onChange={update}
                />
              </>
            );
          })}
        />
      )}
    </EditorFrame>
  );
}

export const carouselEditor: SiteEditor = {
  key: 'carousel',
  labelKey: 'siteParts.carousel.tab',
  paths: [KEY],
  order: 20,
  Component: CarouselEditor,
};
