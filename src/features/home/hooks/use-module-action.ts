import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { ModuleAction } from '../utils/module-action';

/** Runs a module action: external links open in a new tab, routes navigate, notices open the dialog. */
export function useModuleAction() {
  const navigate = useNavigate();
  const [notice, setNotice] = useState<string | null>(null);
  const run = useCallback(
    (action: ModuleAction) => {
      if (action.kind === 'external') window.open(action.href, '_blank', 'noopener,noreferrer');
      else if (action.kind === 'internal') navigate(action.to);
      else setNotice(action.text);
    },
    [navigate],
  );
  const closeNotice = useCallback(() => setNotice(null), []);
  return { run, notice, closeNotice };
}
