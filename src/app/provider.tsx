/**
 * App-wide providers. antd's ConfigProvider is not here on purpose: antd-using pieces wrap themselves in
 * AntdScope (components/ui/antd-scope.tsx) so antd stays out of the first paint's JS.
 */
export function AppProvider({ children }: { children: React.ReactNode }) {
  return <>{children}</>;
}
