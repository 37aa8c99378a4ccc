import { Link } from 'react-router-dom';
import type { ModuleAction } from '../utils/module-action';

/**
 * A module action as a control: a route is a Link, an external page a new-tab anchor, a notice a button
 * (the caller shows the notice).
 */
export function ActionLink({
  action,
  className,
  onNotice,
  children,
}: {
  action: ModuleAction;
  className?: string;
  onNotice: (text: string) => void;
  children: React.ReactNode;
}) {
  if (action.kind === 'internal') {
    return (
      <Link className={className} to={action.to}>
        {children}
      </Link>
    );
  }
  if (action.kind === 'external') {
    return (
      <a className={className} href={action.href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    );
  }
  return (
    <button type="button" className={className} onClick={() => onNotice(action.text)}>
      {children}
    </button>
  );
}
