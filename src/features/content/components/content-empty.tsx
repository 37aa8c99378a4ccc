import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ContentIcon, type ContentIconName } from './content-icons';

/** A friendly state for a part of a page that has nothing to show (missing, empty or broken content). */
export function ContentEmpty({
  title,
  text,
  icon = 'document',
  action,
}: {
  title?: string;
  text?: string;
  icon?: ContentIconName;
  action?: React.ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="content-empty" role="status" data-testid="content-empty">
      <span className="content-empty__icon">
        <ContentIcon name={icon} size={36} />
      </span>
      <p className="content-empty__title">{title ?? t('content.empty.title')}</p>
      <p className="content-empty__text">{text ?? t('content.empty.text')}</p>
      {action ?? (
        <Link className="content-button" to="/home">
          {t('content.empty.backHome')}
        </Link>
      )}
    </div>
  );
}
