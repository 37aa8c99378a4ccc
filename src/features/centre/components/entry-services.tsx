/**
 * The after-entry services of one registration on its card in "My registrations" (issue 15): a row of links
 * to the commitment letter, the pick-up booking and the refund page with the entry preselected (`?entryNo=`;
 * "Request deferral" when the race offers deferral but no refunds),
 * and to /post for the race-pack parcel. Which ones show is the server's MyEntry.services (contract
 * entryServices); the pages themselves refuse or explain what the entry may not do.
 */
import CalendarOutlined from '@ant-design/icons/CalendarOutlined';
import CarOutlined from '@ant-design/icons/CarOutlined';
import FileProtectOutlined from '@ant-design/icons/FileProtectOutlined';
import HistoryOutlined from '@ant-design/icons/HistoryOutlined';
import MoneyCollectOutlined from '@ant-design/icons/MoneyCollectOutlined';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, type To } from 'react-router-dom';
import type { EntryService } from '#contract/after-entry';
import { PATHS } from '@/config/paths';
import '../entry-services.css';

const ICONS: Record<EntryService, ReactNode> = {
  letter: <FileProtectOutlined aria-hidden />,
  pickup: <CalendarOutlined aria-hidden />,
  refund: <MoneyCollectOutlined aria-hidden />,
  deferral: <HistoryOutlined aria-hidden />,
  mailing: <CarOutlined aria-hidden />,
};

/** Where a service's link goes for this entry. */
export function serviceTarget(service: EntryService, entryNo: string): To {
  const search = `?${new URLSearchParams({ entryNo }).toString()}`;
  switch (service) {
    case 'letter':
      return { pathname: PATHS.letter, search };
    case 'pickup':
      return { pathname: PATHS.pickup, search };
    case 'refund':
    case 'deferral':
      return { pathname: PATHS.refund, search };
    case 'mailing':
      return PATHS.post;
  }
}

export function EntryServices({ entryNo, services }: { entryNo: string; services: readonly EntryService[] }) {
  const { t } = useTranslation();
  if (services.length === 0) return null;
  return (
    <nav className="centre-services" aria-label={t('centre.services.title')} data-testid="entry-services">
      <span className="centre-services__title">{t('centre.services.title')}</span>
      <ul className="centre-services__list">
        {services.map((service) => (
          <li key={service}>
            <Link
              className="centre-services__link"
              to={serviceTarget(service, entryNo)}
              data-testid={`entry-service-${service}`}
            >
              <span className="centre-services__icon" aria-hidden="true">
                {ICONS[service]}
              </span>
              {t(`centre.services.${service}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
