/**
 * Tencent Cloud SMS (腾讯云短信, API 3.0, version 2021-01-11) through its official SDK (tencentcloud-sdk-nodejs's
 * SMS product, installed alone as tencentcloud-sdk-nodejs-sms): SendSms with the SdkAppId, the sign name
 * (mainland only: international messages need none), the template ID and TemplateParamSet (the template's
 * variables' values, in its order). The SDK signs each call (TC3-HMAC-SHA256).
 *
 * Delivery receipts (短信下发状态回调) are posted as a JSON array of { sid, report_status, errmsg, description,
 * mobile, … } to the callback URL set in the console (routes/sms/receipt.ts), answered
 * { "result": 0, "errmsg": "OK" }. They carry no signature: the URL's secret token protects them.
 *
 * Environment: TENCENT_SMS_SECRET_ID, TENCENT_SMS_SECRET_KEY, TENCENT_SMS_SDK_APP_ID, TENCENT_SMS_SIGN_NAME,
 * TENCENT_SMS_REGION (default ap-guangzhou), TENCENT_SMS_ENDPOINT (default sms.tencentcloudapi.com).
 */
import * as tencentSms from 'tencentcloud-sdk-nodejs-sms';
import type { Env } from '../env.ts';
import { readSmsProviderEnv } from './endpoint.ts';
import {
  networkFailure,
  SmsReceiptFormatError,
  templateValues,
  type SmsProvider,
  type SmsReceipt,
  type SmsSendResult,
} from './provider.ts';

export const TENCENT_SMS_PROVIDER = 'tencent';
export const DEFAULT_TENCENT_SMS_ENDPOINT = 'sms.tencentcloudapi.com';
export const DEFAULT_TENCENT_SMS_REGION = 'ap-guangzhou';

/**
 * Tencent's codes worth another try: throttled (the API's rate, a number's 30-second or hour limit), or its own
 * failure. A number's day limit, a template or sign refused, arrears are not.
 */
const THROTTLED =
  /^(RequestLimitExceeded.*|LimitExceeded\.(PhoneNumberThirtySecondLimit|PhoneNumberOneHourLimit|DeliveryFrequencyLimit))$/;
const TRANSIENT = /^(InternalError.*|ResourceUnavailable.*)$/;

const sdk = tencentSms as unknown as { sms?: typeof tencentSms.sms; default?: { sms: typeof tencentSms.sms } };
const SmsClient = (sdk.sms ?? sdk.default?.sms)!.v20210111.Client;

function classify(code: string, message: string): SmsSendResult {
  const throttled = THROTTLED.test(code);
  return { ok: false, code, message, transient: throttled || TRANSIENT.test(code), throttled };
}

export function createTencentSmsProvider(env: Env): SmsProvider {
  const { values, endpoint } = readSmsProviderEnv(env, TENCENT_SMS_PROVIDER, {
    keys: [
      'TENCENT_SMS_SECRET_ID',
      'TENCENT_SMS_SECRET_KEY',
      'TENCENT_SMS_SDK_APP_ID',
      'TENCENT_SMS_SIGN_NAME',
      'TENCENT_SMS_REGION',
      'TENCENT_SMS_ENDPOINT',
    ],
    required: {
      TENCENT_SMS_SECRET_ID: 'the SecretId of a CAM user allowed to send SMS',
      TENCENT_SMS_SECRET_KEY: 'the SecretKey of that CAM user',
      TENCENT_SMS_SDK_APP_ID: 'the SdkAppId of the SMS application (14000…)',
      TENCENT_SMS_SIGN_NAME: 'the approved sign name (签名内容), e.g. 某某马拉松',
    },
    endpointKey: 'TENCENT_SMS_ENDPOINT',
    fallback: DEFAULT_TENCENT_SMS_ENDPOINT,
  });

  const client = new SmsClient({
    credential: { secretId: values.TENCENT_SMS_SECRET_ID, secretKey: values.TENCENT_SMS_SECRET_KEY },
    region: values.TENCENT_SMS_REGION ?? DEFAULT_TENCENT_SMS_REGION,
    profile: { httpProfile: { endpoint: endpoint.host, protocol: `${endpoint.protocol}://`, reqTimeout: 10 } },
  });
  const appId = values.TENCENT_SMS_SDK_APP_ID as string;
  const signName = values.TENCENT_SMS_SIGN_NAME as string;

  return {
    name: TENCENT_SMS_PROVIDER,
    async send({ phone, mainland, template, values: fields }) {
      // E.164: +86 and the 11 digits in mainland China; + and the country code and number elsewhere.
      const digits = phone.replace(/[^\d]/g, '').replace(/^00/, '');
      const number = mainland ? `+86${digits.replace(/^86(?=1\d{10}$)/, '')}` : `+${digits}`;
      try {
        const answer = await client.SendSms({
          PhoneNumberSet: [number],
          SmsSdkAppId: appId,
          TemplateId: template.code,
          ...(mainland ? { SignName: signName } : {}),
          TemplateParamSet: templateValues(template, fields).map(([, value]) => value),
        });
        const status = answer.SendStatusSet?.[0];
        if (status?.Code === 'Ok' && status.SerialNo) return { ok: true, messageId: status.SerialNo };
        return classify(status?.Code ?? 'unknown', status?.Message ?? '');
      } catch (error) {
        const failure = error as { code?: unknown; message?: unknown; httpCode?: unknown };
        if (typeof failure.code === 'string' && failure.code !== '') {
          return classify(failure.code, String(failure.message ?? ''));
        }
        if (typeof failure.httpCode === 'number' && failure.httpCode < 500) {
          return {
            ok: false,
            code: `http${failure.httpCode}`,
            message: String(failure.message ?? ''),
            transient: false,
            throttled: false,
          };
        }
        return networkFailure(error);
      }
    },
    parseReceipts(body) {
      if (!Array.isArray(body)) throw new SmsReceiptFormatError('a Tencent status callback is a JSON array');
      return body.map((item, index): SmsReceipt => {
        const report = item as { sid?: unknown; report_status?: unknown; errmsg?: unknown; description?: unknown };
        if (item === null || typeof item !== 'object' || typeof report.sid !== 'string' || report.sid === '') {
          throw new SmsReceiptFormatError(`status ${index}: no sid`);
        }
        if (report.report_status !== 'SUCCESS' && report.report_status !== 'FAIL') {
          throw new SmsReceiptFormatError(`status ${index}: report_status must be SUCCESS or FAIL`);
        }
        return {
          messageId: report.sid,
          delivered: report.report_status === 'SUCCESS',
          code: typeof report.errmsg === 'string' ? report.errmsg : '',
          reason: typeof report.description === 'string' ? report.description : '',
        };
      });
    },
    receiptAnswer: { result: 0, errmsg: 'OK' },
  };
}
