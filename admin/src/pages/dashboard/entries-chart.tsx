/**
 * A bar chart of entries over time (per hour or per day), drawn with echarts (its core and the parts used
 * only, loaded with the dashboard page, never by the public site). The chart is an image to assistive
 * technology, named by a summary (the total and the busiest hour or day); the figures themselves are one
 * click away as a table.
 */
import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

echarts.use([BarChart, GridComponent, TooltipComponent, SVGRenderer]);

export interface ChartPoint {
  /** The label of the hour or day ('YYYY-MM-DD HH:00' or 'YYYY-MM-DD'). */
  at: string;
  count: number;
}

export function EntriesChart({
  testId,
  title,
  unit,
  points,
  axisLabel,
}: {
  testId: string;
  title: string;
  unit: 'hour' | 'day';
  points: ChartPoint[];
  /** The axis's short label of a point (the hour 'HH:00', the day 'MM-DD'). */
  axisLabel: (at: string) => string;
}) {
  const { t } = useTranslation();
  const holder = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    if (!holder.current) return undefined;
    const made = echarts.init(holder.current, undefined, { renderer: 'svg' });
    chart.current = made;
    const resize = new ResizeObserver(() => made.resize());
    resize.observe(holder.current);
    return () => {
      resize.disconnect();
      made.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption({
      animation: false,
      grid: { left: 48, right: 16, top: 16, bottom: 40 },
      tooltip: { trigger: 'axis' },
      xAxis: {
        type: 'category',
        data: points.map((p) => p.at),
        axisLabel: { formatter: axisLabel, color: '#4a5868' },
      },
      yAxis: { type: 'value', minInterval: 1, axisLabel: { color: '#4a5868' } },
      series: [{ type: 'bar', name: t('dashboard.charts.count'), data: points.map((p) => p.count), color: '#0b5fa5' }],
    });
  }, [points, axisLabel, t]);

  const total = points.reduce((sum, p) => sum + p.count, 0);
  const peak = points.reduce<ChartPoint | undefined>(
    (best, p) => (best && best.count >= p.count ? best : p),
    undefined,
  );
  const summary =
    total === 0 || !peak
      ? t('dashboard.charts.summaryEmpty', { title })
      : t('dashboard.charts.summary', {
          title,
          total,
          peak: peak.count,
          at: peak.at,
          unit: t(unit === 'hour' ? 'dashboard.charts.hourUnit' : 'dashboard.charts.dayUnit'),
        });

  return (
    <figure className="dashboard-chart" data-testid={testId}>
      <figcaption className="dashboard-chart__title">{title}</figcaption>
      <div ref={holder} className="dashboard-chart__canvas" role="img" aria-label={summary} />
      <details className="dashboard-chart__table">
        <summary>{t('dashboard.charts.asTable')}</summary>
        <table>
          <caption className="console-visually-hidden">{summary}</caption>
          <thead>
            <tr>
              <th scope="col">{t(unit === 'hour' ? 'dashboard.charts.hour' : 'dashboard.charts.day')}</th>
              <th scope="col">{t('dashboard.charts.count')}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.at}>
                <th scope="row">{p.at}</th>
                <td>{p.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
