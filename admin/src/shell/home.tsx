/**
 * The console's start: straight to the first race's first area when the member works on races (a race
 * director lands on the dashboard), else a welcome listing what they may open.
 */
import { Card, List, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router-dom';
import { areaPath, type ConsoleArea } from '../areas';
import { raceLabel, useConsole } from '../store';
import { useRaceInView } from './layout';

export function ConsoleHome({ areas }: { areas: ConsoleArea[] }) {
  const { t } = useTranslation();
  const { me, races, language } = useConsole();
  const raceId = useRaceInView();
  const raceArea = areas.find((area) => area.raceScoped && area.menu !== false);
  if (raceArea && raceId) return <Navigate to={areaPath(raceArea, raceId)} replace />;
  const others = areas.filter((area) => !area.raceScoped && area.menu !== false);
  return (
    <div className="console-home" data-testid="console-home">
      <h1>{t('shell.home.heading', { name: me?.staff.name || me?.staff.email })}</h1>
      {raceArea && races.length > 0 && (
        <Card title={t('shell.home.races')}>
          <List
            dataSource={races}
            renderItem={(race) => (
              <List.Item
                actions={[
                  <Link key="open" to={areaPath(raceArea, race.raceId)}>
                    {t('shell.home.open')}
                  </Link>,
                ]}
              >
                {raceLabel(race, language)}
              </List.Item>
            )}
          />
        </Card>
      )}
      {others.length > 0 ? (
        <List
          dataSource={others}
          renderItem={(area) => (
            <List.Item>
              <Link to={areaPath(area, undefined)}>{t(area.labelKey)}</Link>
            </List.Item>
          )}
        />
      ) : (
        !raceArea && <Result status="info" title={t('shell.home.noArea')} />
      )}
    </div>
  );
}
