import { Spin } from 'antd';

/** Placeholder while a lazily loaded page arrives; keeps the main area's height to avoid layout shift. */
export function PageLoading() {
  return (
    <div className="page-loading" role="status" aria-busy="true">
      <Spin />
    </div>
  );
}
