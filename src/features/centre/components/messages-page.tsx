/**
 * My messages (issue 32 §2; PATHS.messages): every message the site and the organiser sent to the runner, by
 * SMS or e-mail, newest first, with its time in the race's clock. Opening it tells the server the language the
 * runner reads (their next messages come in it).
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatRaceTime } from '#contract/race-clock';
import type { MyMessage } from '#contract/runner-messages';
import { useLoad } from '@/lib/use-load';
import { listMyMessages } from '../api/messages';
import { CentreFrame, LoadView } from './centre-frame';
import '../messages.css';

export default function MessagesPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const load = useCallback(() => listMyMessages(lang), [lang]);
  const { result, reload } = useLoad(load, `messages:${lang}`);
  return (
    <CentreFrame title={t('centre.menu.messages')} testId="messages-page">
      <LoadView load={result} retry={reload}>
        {(list) => <Messages list={list} />}
      </LoadView>
    </CentreFrame>
  );
}

function Messages({ list }: { list: MyMessage[] }) {
  const { t } = useTranslation();
  if (list.length === 0) {
    return (
      <p className="centre-note" data-testid="messages-empty">
        {t('centre.messages.empty')}
      </p>
    );
  }
  return (
    <>
      <p className="centre-note">{t('centre.messages.intro')}</p>
      <ol className="my-messages" data-testid="messages-list">
        {list.map((m) => (
          <li key={m.id} className="my-messages__item" data-testid={`message-${m.id}`}>
            <h2 className="my-messages__subject">{m.subject}</h2>
            <p className="my-messages__meta">
              <time dateTime={new Date(m.sentAt).toISOString()}>{formatRaceTime(m.sentAt, 'YYYY-MM-DD HH:mm')}</time>
              {' · '}
              {t(m.channel === 'sms' ? 'centre.messages.sms' : 'centre.messages.email')}
            </p>
            <p className="my-messages__body">{m.body}</p>
          </li>
        ))}
      </ol>
    </>
  );
}
