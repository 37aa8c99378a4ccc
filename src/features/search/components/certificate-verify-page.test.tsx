import { screen, within, waitFor } from '@testing-library/react';
import { renderApp } from '@/testing/test-utils';
import { certificateVerifyUrl } from '../utils/certificate-image';

describe('certificate verification page', () => {
  it('shows a valid certificate with the facts from the server', async () => {
    await renderApp({ path: '/certificate?id=cert-a1023&sig=good-sig' });
    const valid = await screen.findByTestId('certificate-valid');
    expect(within(valid).getByText('证书有效')).toBeInTheDocument();
    expect(within(valid).getByText('张三')).toBeInTheDocument();
    expect(within(valid).getByText('3:41:05')).toBeInTheDocument();
    expect(within(valid).getByText('1203 / 8512')).toBeInTheDocument();
    expect(within(valid).getByText('230 (M40-44)')).toBeInTheDocument();
  });

  it('says clearly, in English, that a tampered certificate could not be verified', async () => {
    await renderApp({ path: '/certificate?id=cert-a1023&sig=forged', language: 'en' });
    const invalid = await screen.findByTestId('certificate-invalid');
    expect(within(invalid).getByText('This certificate could not be verified')).toBeInTheDocument();
    expect(screen.queryByTestId('certificate-valid')).toBeNull();
  });

  it('treats a link without id or signature as unverifiable', async () => {
    await renderApp({ path: '/certificate' });
    await waitFor(() => expect(screen.getByText('该证书无法验证')).toBeInTheDocument());
  });

  it('builds the QR link to the hash route of the verification page', () => {
    expect(certificateVerifyUrl({ id: 'c 1', sig: 'a+b' }, { origin: 'https://race.example', pathname: '/' })).toBe(
      'https://race.example/#/certificate?id=c+1&sig=a%2Bb',
    );
  });
});
