/**
 * The partners by category (cooperativePartnerList) as a form: the categories in the order of spec §3
 * (PARTNER_CATEGORY_ORDER), each with its heading in Chinese and English and its partners (logo, link, name);
 * a category is added in its place and removed whole; partners are added, removed and moved up and down.
 * A category with a code the site does not know is shown last, with a choice of the known ones.
 */
import { Button, Card, Col, Empty, Popconfirm, Row, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { PARTNER_CATEGORY_ORDER } from '#contract/site-config/schema';
import type { SiteEditor, SiteEditorProps } from '../editor-types';
import {
  BilingualFields,
  BrokenPart,
  CardList,
  EditorFrame,
  ImageField,
  PartField,
  PartProblems,
  TextField,
  Thumbnail,
  isObj,
  listPart,
  nextId,
  objectItems,
  problemsBeside,
  text,
  withKey,
  type Obj,
  type Problem,
} from './parts-kit';

const KEY = 'cooperativePartnerList';
const CATEGORY_FIELDS = ['id', 'label', 'labelEn', 'code', 'children'];
const PARTNER_FIELDS = ['id', 'src', 'href', 'name', 'nameEn'];
const known: readonly string[] = PARTNER_CATEGORY_ORDER;

const rank = (item: unknown) => (isObj(item) ? known.indexOf(text(item.code)) : -1);

/** Where a new category goes: before the first category that comes after it in the spec's order. */
function insertAt(items: readonly unknown[], code: string): number {
  const mine = known.indexOf(code);
  const after = items.findIndex((item) => rank(item) > mine);
  return after < 0 ? items.length : after;
}

/** Every partner of every category, for a new partner's id (unique across the categories). */
const allPartners = (items: readonly unknown[]) =>
  items.flatMap((item) => (isObj(item) && Array.isArray(item.children) ? item.children : []));

function Category({
  raceId,
  items,
  index,
  problems,
  onItems,
  unknownCode,
}: {
  raceId: string;
  items: readonly unknown[];
  index: number;
  problems: readonly Problem[];
  onItems: (next: unknown[]) => void;
  unknownCode?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language === 'en' ? 'en' : 'zh';
  const raw = items[index];
  if (!isObj(raw)) return <BrokenPart name={`${KEY}[${index}]`} />;
  const category: Obj = raw;
  const path = [KEY, index];
  const update = (next: Obj) => onItems(items.map((item, i) => (i === index ? next : item)));
  const children = listPart(category, 'children');
  const name = text(category.label) || text(category.code);
  return (
    <div className="site-parts-category" data-testid={`site-partners-category-${index}`}>
      <PartProblems problems={problemsBeside(problems, path, CATEGORY_FIELDS)} />
      {unknownCode && (
        <PartField
          label={t('siteParts.partners.code')}
          hint={t('siteParts.partners.unknownCode', { code: text(category.code) })}
          path={[...path, 'code']}
          problems={problems}
        >
          {(control) => (
            <Select
              {...control}
              value={text(category.code)}
              options={known.map((code) => ({ value: code, label: t(`siteParts.partners.codes.${code}.${language}`) }))}
              onChange={(code: string) => update(withKey(category, 'code', code))}
            />
          )}
        </PartField>
      )}
      <BilingualFields
        label={t('siteParts.partners.label')}
        object={category}
        path={path}
        field="label"
        required
        problems={problems}
        onChange={update}
      />
      {children.broken ? (
        <BrokenPart name={`${KEY}[${index}].children`} />
      ) : (
        <CardList
          testId={`site-partners-${index}-partners`}
          items={children.items}
          itemFields={PARTNER_FIELDS}
          path={[...path, 'children']}
          problems={problems}
          onChange={(next) => update(withKey(category, 'children', next))}
          newItem={() => ({ id: nextId(allPartners(items)), src: '' })}
          addLabel={t('siteParts.partners.addPartner')}
          emptyText={t('siteParts.partners.noPartners')}
          itemTitle={(item, i) => {
            const partner = isObj(item) ? item : {};
            const partnerName = text(partner.name) || t('siteParts.partners.unnamed', { n: i + 1 });
            return (
              <>
                <Thumbnail src={partner.src} alt={t('siteParts.partners.logoOf', { name: partnerName })} />
                <span>{partnerName}</span>
              </>
            );
          }}
          renderItem={objectItems((partner, i, updatePartner) => {
            const partnerPath = [...path, 'children', i];
            return (
              <>
                <Row gutter={16}>
                  <Col xs={24} md={12}>
                    <ImageField
                      label={t('siteParts.partners.logo')}
                      path={[...partnerPath, 'src']}
                      problems={problems}
                      raceId={raceId}
                      value={partner.src}
                      required
                      onChange={(value) => updatePartner(withKey(partner, 'src', value))}
                    />
                  </Col>
                  <Col xs={24} md={12}>
                    <TextField
                      label={t('siteParts.partners.href')}
                      hint={t('siteParts.partners.hrefHint')}
                      placeholder="https://"
                      path={[...partnerPath, 'href']}
                      problems={problems}
                      value={partner.href}
                      onChange={(value) => updatePartner(withKey(partner, 'href', value))}
                    />
                  </Col>
                </Row>
                <BilingualFields
                  label={t('siteParts.partners.name')}
                  object={partner}
                  path={partnerPath}
                  field="name"
                  problems={problems}
                  onChange={updatePartner}
                />
              </>
            );
          })}
          extraActions={
            <Popconfirm
              title={t('siteParts.partners.removeCategoryConfirm', { name })}
              okText={t('siteParts.partners.removeCategory')}
              cancelText={t('siteParts.common.cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={() => onItems(items.filter((_, i) => i !== index))}
            >
              <Button danger data-testid={`site-partners-remove-${index}`}>
                {t('siteParts.partners.removeCategory')}
              </Button>
            </Popconfirm>
          }
        />
      )}
    </div>
  );
}

export function PartnersEditor({ raceId, draft, onChange, problems }: SiteEditorProps) {
  const { t, i18n } = useTranslation();
  const { items, broken } = listPart(draft, KEY);
  const onItems = (next: unknown[]) => onChange(withKey(draft, KEY, next));
  const indexesOf = (code: string) =>
    items.flatMap((item, index) => (isObj(item) && text(item.code) === code ? [index] : []));
  const others = items.flatMap((item, index) => (rank(item) < 0 ? [index] : []));

  const addCategory = (code: string) => {
    const at = insertAt(items, code);
    const category = {
      id: nextId(items),
      label: t(`siteParts.partners.codes.${code}.zh`),
      labelEn: t(`siteParts.partners.codes.${code}.en`),
      code,
      children: [],
    };
    onItems([...items.slice(0, at), category, ...items.slice(at)]);
  };

  if (broken)
    return (
      <EditorFrame intro={t('siteParts.partners.intro')} testId="site-partners">
        <BrokenPart name={KEY} />
      </EditorFrame>
    );
  const language = i18n.language === 'en' ? 'en' : 'zh';
  return (
    <EditorFrame intro={t('siteParts.partners.intro')} testId="site-partners">
      {known.map((code) => {
        const indexes = indexesOf(code);
        return (
          <Card
            key={code}
            className="site-parts-section"
            data-testid={`site-partners-${code}`}
            title={
              <h2 className="site-parts-section-title">
                {t(`siteParts.partners.codes.${code}.${language}`)} <code className="site-parts-code">{code}</code>
              </h2>
            }
          >
            {indexes.length === 0 ? (
              <Space orientation="vertical">
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('siteParts.partners.categoryAbsent')} />
                <Button onClick={() => addCategory(code)} data-testid={`site-partners-add-${code}`}>
                  {t('siteParts.partners.addCategory')}
                </Button>
              </Space>
            ) : (
              indexes.map((index) => (
                <Category
                  key={index}
                  raceId={raceId}
                  items={items}
                  index={index}
                  problems={problems}
                  onItems={onItems}
                />
              ))
            )}
          </Card>
        );
      })}
      {others.length > 0 && (
        <Card
          className="site-parts-section"
          title={<h2 className="site-parts-section-title">{t('siteParts.partners.otherCategories')}</h2>}
        >
          {others.map((index) => (
            <Category
              key={index}
              raceId={raceId}
              items={items}
              index={index}
              problems={problems}
              onItems={onItems}
              unknownCode
            />
          ))}
        </Card>
      )}
    </EditorFrame>
  );
}

export const partnersEditor: SiteEditor = {
  key: 'partners',
  labelKey: 'siteParts.partners.tab',
  paths: [KEY],
  order: 50,
  Component: PartnersEditor,
};
