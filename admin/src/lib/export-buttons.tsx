/**
 * A page's export as two downloads, CSV and Excel (the server's export call in each format; each download is
 * in the audit log): the entries, mailing and letters pages.
 */
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import { Button } from 'antd';

export type ExportFormat = 'csv' | 'xlsx';

export function ExportButtons(props: {
  url: (format: ExportFormat) => string;
  labels: Record<ExportFormat, string>;
  /** Test ids `<testId>-csv` and `<testId>-xlsx`. */
  testId: string;
}) {
  const { url, labels, testId } = props;
  return (
    <>
      <Button href={url('csv')} download icon={<DownloadOutlined aria-hidden />} data-testid={`${testId}-csv`}>
        {labels.csv}
      </Button>
      <Button
        type="primary"
        href={url('xlsx')}
        download
        icon={<DownloadOutlined aria-hidden />}
        data-testid={`${testId}-xlsx`}
      >
        {labels.xlsx}
      </Button>
    </>
  );
}
