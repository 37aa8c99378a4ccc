/**
 * The footer as a form: the filing links (websiteRegInfo: the public-security filing and the ICP filing, each
 * with its text and link), the copyright images (Chinese, English, phone), the event's own texts (eventInfo:
 * slogan, organisers, hotline and its hours, e-mail) and the QR codes (qrCodeList "follow us", appQrCode in
 * the login drawer).
 */
import { Button, Card } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SiteEditor, SiteEditorProps } from '../editor-types';
import {
  BilingualFields,
  BrokenPart,
  CardList,
  EditorFrame,
  ImageField,
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
} from './parts-kit';

const FILINGS = 'websiteRegInfo';
const EVENT = 'eventInfo';
const QR_CODES = 'qrCodeList';
const COPYRIGHT = ['copyright', 'copyrightEn', 'copyrightH5'] as const;
const FILING_FIELDS = ['id', 'label', 'labelEn', 'link'];
const EVENT_FIELDS = ['slogan', 'sloganEn', 'organizers', 'hotline', 'hotlineHours', 'hotlineHoursEn', 'email'];
const ORGANIZER_FIELDS = ['role', 'roleEn', 'names', 'namesEn'];
const QR_FIELDS = ['id', 'label', 'labelEn', 'src'];
/** The national filing sites a filing links to. */
export const FILING_LINKS = { security: 'https://www.beian.gov.cn/', icp: 'https://beian.miit.gov.cn/' } as const;

export function FooterEditor({ raceId, draft, onChange, problems }: SiteEditorProps) {
  const { t } = useTranslation();
  const filings = listPart(draft, FILINGS);
  const qrCodes = listPart(draft, QR_CODES);
  const eventValue = draft[EVENT];
  const event: Obj = isObj(eventValue) ? eventValue : {};
  const updateEvent = (next: Obj) => onChange(withKey(draft, EVENT, next));
  const organizers = listPart(event, 'organizers');
  const section = (title: string, hint: string, children: ReactNode, testId: string) => (
    <Card
      className="site-parts-section"
      data-testid={testId}
      title={<h2 className="site-parts-section-title">{title}</h2>}
    >
      <p className="site-parts-section-hint">{hint}</p>
      {children}
    </Card>
  );

  return (
    <EditorFrame intro={t('siteParts.footer.intro')} testId="site-footer">
      {section(
        t('siteParts.footer.filingsTitle'),
        t('siteParts.footer.filingsHint'),
        filings.broken ? (
          <BrokenPart name={FILINGS} />
        ) : (
          <CardList
            testId="site-footer-filings"
            items={filings.items}
            itemFields={FILING_FIELDS}
            path={[FILINGS]}
            problems={problems}
            onChange={(next) => onChange(withKey(draft, FILINGS, next))}
            newItem={() => ({ id: nextId(filings.items), label: '', link: '' })}
            addLabel={t('siteParts.footer.addFiling')}
            emptyText={t('siteParts.footer.noFilings')}
            extraActions={(['security', 'icp'] as const).map((kind) => (
              <Button
                key={kind}
                data-testid={`site-footer-add-${kind}`}
                onClick={() =>
                  onChange(
                    withKey(draft, FILINGS, [
                      ...filings.items,
                      { id: nextId(filings.items), label: '', link: FILING_LINKS[kind] },
                    ]),
                  )
                }
              >
                {t(`siteParts.footer.add.${kind}`)}
              </Button>
            ))}
            itemTitle={(item, index) =>
              (isObj(item) && text(item.label)) || t('siteParts.footer.filingUntitled', { n: index + 1 })
            }
            renderItem={objectItems((filing, index, update) => (
              <>
                <BilingualFields
                  label={t('siteParts.footer.filingLabel')}
                  object={filing}
                  path={[FILINGS, index]}
                  field="label"
                  required
                  problems={problems}
                  onChange={update}
                />
                <TextField
                  label={t('siteParts.footer.filingLink')}
                  hint={t('siteParts.footer.filingLinkHint')}
                  placeholder={FILING_LINKS.icp}
                  path={[FILINGS, index, 'link']}
                  problems={problems}
                  value={filing.link}
                  required
                  onChange={(value) => update(withKey(filing, 'link', value))}
                />
              </>
            ))}
          />
        ),
        'site-footer-filings-section',
      )}
      {section(
        t('siteParts.footer.copyrightTitle'),
        t('siteParts.footer.copyrightHint'),
        COPYRIGHT.map((key) => (
          <ImageField
            key={key}
            label={t(`siteParts.footer.copyright.${key}`)}
            path={[key]}
            problems={problems}
            raceId={raceId}
            value={draft[key]}
            onChange={(value) => onChange(withKey(draft, key, value))}
          />
        )),
        'site-footer-copyright',
      )}
      {section(
        t('siteParts.footer.eventTitle'),
        t('siteParts.footer.eventHint'),
        eventValue !== undefined && !isObj(eventValue) ? (
          <BrokenPart name={EVENT} />
        ) : (
          <>
            <PartProblems problems={problemsBeside(problems, [EVENT], EVENT_FIELDS)} />
            <BilingualFields
              label={t('siteParts.footer.slogan')}
              object={event}
              path={[EVENT]}
              field="slogan"
              problems={problems}
              onChange={updateEvent}
            />
            <h3 className="site-parts-subtitle">{t('siteParts.footer.organizers')}</h3>
            <p className="site-parts-section-hint">{t('siteParts.footer.organizersHint')}</p>
            {organizers.broken ? (
              <BrokenPart name={`${EVENT}.organizers`} />
            ) : (
              <CardList
                testId="site-footer-organizers"
                items={organizers.items}
                itemFields={ORGANIZER_FIELDS}
                path={[EVENT, 'organizers']}
                problems={problems}
                onChange={(next) => updateEvent(withKey(event, 'organizers', next))}
                newItem={() => ({ role: '', names: '' })}
                addLabel={t('siteParts.footer.addOrganizer')}
                emptyText={t('siteParts.footer.noOrganizers')}
                itemTitle={(item, index) =>
                  (isObj(item) && `${text(item.role)}${text(item.names)}`) ||
                  t('siteParts.footer.organizerUntitled', { n: index + 1 })
                }
                renderItem={objectItems((organizer, index, update) => (
                  <>
                    <BilingualFields
                      label={t('siteParts.footer.role')}
                      object={organizer}
                      path={[EVENT, 'organizers', index]}
                      field="role"
                      required
                      problems={problems}
                      onChange={update}
                    />
                    <BilingualFields
                      label={t('siteParts.footer.names')}
                      object={organizer}
                      path={[EVENT, 'organizers', index]}
                      field="names"
                      required
                      problems={problems}
                      onChange={update}
                    />
                  </>
                ))}
              />
            )}
            <TextField
              label={t('siteParts.footer.hotline')}
              placeholder="400-820-2027"
              path={[EVENT, 'hotline']}
              problems={problems}
              value={event.hotline}
              onChange={(value) => updateEvent(withKey(event, 'hotline', value))}
            />
            <BilingualFields
              label={t('siteParts.footer.hotlineHours')}
              object={event}
              path={[EVENT]}
              field="hotlineHours"
              problems={problems}
              onChange={updateEvent}
            />
            <TextField
              label={t('siteParts.footer.email')}
              placeholder="service@example.com"
              path={[EVENT, 'email']}
              problems={problems}
              value={event.email}
              onChange={(value) => updateEvent(withKey(event, 'email', value))}
            />
          </>
        ),
        'site-footer-event',
      )}
      {section(
        t('siteParts.footer.qrTitle'),
        t('siteParts.footer.qrHint'),
        <>
          {qrCodes.broken ? (
            <BrokenPart name={QR_CODES} />
          ) : (
            <CardList
              testId="site-footer-qr"
              items={qrCodes.items}
              itemFields={QR_FIELDS}
              path={[QR_CODES]}
              problems={problems}
              onChange={(next) => onChange(withKey(draft, QR_CODES, next))}
              newItem={() => ({ id: nextId(qrCodes.items), label: '', src: '' })}
              addLabel={t('siteParts.footer.addQr')}
              emptyText={t('siteParts.footer.noQr')}
              itemTitle={(item, index) => {
                const qr = isObj(item) ? item : {};
                const name = text(qr.label) || t('siteParts.footer.qrUntitled', { n: index + 1 });
                return (
                  <>
                    <Thumbnail src={qr.src} alt={t('siteParts.footer.qrOf', { name })} />
                    <span>{name}</span>
                  </>
                );
              }}
              renderItem={objectItems((qr, index, update) => (
                <>
                  <BilingualFields
                    label={t('siteParts.footer.qrLabel')}
                    object={qr}
                    path={[QR_CODES, index]}
                    field="label"
                    required
                    problems={problems}
                    onChange={update}
                  />
                  <ImageField
                    label={t('siteParts.footer.qrImage')}
                    path={[QR_CODES, index, 'src']}
                    problems={problems}
                    raceId={raceId}
                    value={qr.src}
                    required
                    onChange={(value) => update(withKey(qr, 'src', value))}
                  />
                </>
              ))}
            />
          )}
          <ImageField
            label={t('siteParts.footer.appQrCode')}
            hint={t('siteParts.footer.appQrCodeHint')}
            path={['appQrCode']}
            problems={problems}
            raceId={raceId}
            value={draft.appQrCode}
            onChange={(value) => onChange(withKey(draft, 'appQrCode', value))}
          />
        </>,
        'site-footer-qr-section',
      )}
    </EditorFrame>
  );
}

export const footerEditor: SiteEditor = {
  key: 'footer',
  labelKey: 'siteParts.footer.tab',
  paths: [FILINGS, ...COPYRIGHT, EVENT, QR_CODES, 'appQrCode'],
  order: 60,
  Component: FooterEditor,
};
