import { Button, Checkbox } from 'antd';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';
import { useSiteStore } from '@/stores/site-store';
import { agreementHref, type AgreementName } from '../utils/agreement-links';

/** The agreement checkbox with links that open the documents in a new tab. */
export function Agreement({
  checked,
  onChange,
  withRegistration = false,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  withRegistration?: boolean;
}) {
  const { t } = useTranslation();
  const config = useSiteStore((s) => s.config);
  const names: AgreementName[] = withRegistration
    ? ['userAgreement', 'privacyPolicy', 'registrationAgreement']
    : ['userAgreement', 'privacyPolicy'];
  return (
    <div className="auth-agreement">
      <Checkbox checked={checked} onChange={(e) => onChange(e.target.checked)} data-testid="agreement">
        {t('auth.agreement.prefix')}
      </Checkbox>
      <span className="auth-agreement__links">
        {names.map((name, i) => (
          <Fragment key={name}>
            {i === 0 ? null : i === names.length - 1 ? t('auth.agreement.and') : t('auth.agreement.comma')}
            <a href={agreementHref(config, name)} target="_blank" rel="noopener noreferrer">
              {t(`auth.agreement.${name}`)}
            </a>
          </Fragment>
        ))}
      </span>
    </div>
  );
}

/**
 * The submit button, disabled until the agreement is ticked. A click on it while disabled lands on the
 * wrapper (the disabled button lets pointer events through, auth.css) and explains why.
 */
export function GatedSubmit({
  agreed,
  loading,
  children,
}: {
  agreed: boolean;
  loading?: boolean;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  return (
    // The wrapper only explains a click on the disabled button; the button itself is the control.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions
    <div
      className="auth-submit"
      data-testid="submit-gate"
      onClick={() => {
        if (!agreed) notify.warning(t('messages.agreementRequired'));
      }}
    >
      <Button
        type="primary"
        htmlType="submit"
        block
        size="large"
        disabled={!agreed}
        loading={loading}
        data-testid="submit"
      >
        {children}
      </Button>
    </div>
  );
}
