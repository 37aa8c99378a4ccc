import { Link } from 'react-router-dom';
import { resolveJump } from '@/lib/url';

/**
 * A link from a config: internal routes stay in the tab, external links open in a new tab without an
 * opener, anything else renders its content unlinked. Ads pass `allowInternal={false}`: an ad looks
 * clickable only when its link begins with http, https or // (spec §5).
 */
export function JumpLink({
  url,
  className,
  allowInternal = true,
  children,
  ...rest
}: {
  url: string | null | undefined;
  className?: string;
  allowInternal?: boolean;
  children: React.ReactNode;
  tabIndex?: number;
  'aria-label'?: string;
}) {
  const jump = resolveJump(url);
  if (jump?.kind === 'external') {
    return (
      <a className={className} href={jump.href} target="_blank" rel="noopener noreferrer" {...rest}>
        {children}
      </a>
    );
  }
  if (jump?.kind === 'internal' && allowInternal) {
    return (
      <Link className={className} to={jump.to} {...rest}>
        {children}
      </Link>
    );
  }
  return <>{children}</>;
}
