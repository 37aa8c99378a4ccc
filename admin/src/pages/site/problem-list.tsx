/**
 * The validator's problems of the draft, each with its JSON path and severity (a word, not only a colour); a
 * click (or Enter) jumps to its place in the JSON editor.
 */
import { Empty, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DraftProblem } from './draft-report';

export function ProblemList({
  problems,
  onJump,
}: {
  problems: readonly DraftProblem[];
  onJump: (path: string) => void;
}) {
  const { t } = useTranslation();
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  return (
    <div className="site-problems" data-testid="site-problems">
      <div className="site-problems__counts" role="status">
        <Tag color={errors > 0 ? 'red' : 'green'}>{t('site.problems.errors', { count: errors })}</Tag>
        <Tag color={warnings > 0 ? 'gold' : undefined}>{t('site.problems.warnings', { count: warnings })}</Tag>
      </div>
      {problems.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('site.problems.none')} />
      ) : (
        <ul className="site-problems__list" aria-label={t('site.problems.listLabel')}>
          {problems.map((problem, i) => (
            <li
              key={`${problem.severity}-${problem.path}-${i}`}
              className={`site-problem site-problem--${problem.severity}`}
            >
              <button
                type="button"
                className="site-problem__jump"
                onClick={() => onJump(problem.path)}
                aria-label={`${t(`site.problems.${problem.severity}`)} ${problem.path}: ${problem.message}. ${t('site.problems.jump', { path: problem.path })}`}
                data-testid="site-problem"
              >
                <span className="site-problem__severity">{t(`site.problems.${problem.severity}`)}</span>
                <code className="site-problem__path">{problem.path}</code>
                <span className="site-problem__message">{problem.message}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
