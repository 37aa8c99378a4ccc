/**
 * Aliyun SMS (阿里云短信服务, dysmsapi 2017-05-25) through its official SDK, @alicloud/dysmsapi20170525:
 * SendSms with the sign name, the template code and TemplateParam (JSON of the template's variables). The SDK
 * signs each call with the AccessKey (ACS3-HMAC-SHA256). Its own retries are off: the delivery path retries
 * (plugins/delivery.ts), backing off longer when throttled.
 *
 * Delivery receipts (SmsReport) come by HTTP batch push: the console's 通用设置 → 发送状态回执 → HTTP 批量推送,
 * a JSON array of { biz_id, success, err_code, err_msg, phone_number, … } posted to our receipt URL
 * (routes/sms/receipt.ts), answered { "code": 0, "msg": "接收成功" }.
 *
 * Environment: ALIYUN_SMS_ACCESS_KEY_ID, ALIYUN_SMS_ACCESS_KEY_SECRET, ALIYUN_SMS_SIGN_NAME,
 * ALIYUN_SMS_ENDPOINT (default dysmsapi.aliyuncs.com).
 */
import * as dysmsapi from '@alicloud/dysmsapi20170525';
import * as openapi from '@alicloud/openapi-core';
import * as dara from '@darabonba/typescript';
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

export const ALIYUN_SMS_PROVIDER = 'aliyun';
export const DEFAULT_ALIYUN_SMS_ENDPOINT = 'dysmsapi.aliyuncs.com';

/**
 * Aliyun's codes worth another try: throttled (a number's minute or hour limit, the API's rate), or its own
 * failure. A day's limit (isv.DAY_LIMIT_CONTROL), a permission or a template refused are not.
 */
const THROTTLED = /^(isv\.BUSINESS_LIMIT_CONTROL|Throttling.*)$/;
const TRANSIENT = /^(isp\.SYSTEM_ERROR|ServiceUnavailable.*|InternalError.*)$/;

type AliyunClient = {
  sendSmsWithOptions(
    request: dysmsapi.SendSmsRequest,
    runtime: dara.RuntimeOptions,
  ): Promise<{ body?: { code?: string; message?: string; bizId?: string } }>;
};
// A CommonJS module: its class is `default` (twice over when loaded as ESM by Node).
const ClientClass = ((dysmsapi.default as unknown as { default?: unknown }).default ?? dysmsapi.default) as new (
  config: openapi.$OpenApiUtil.Config,
) => AliyunClient;

function classify(code: string, message: string, httpStatus?: number): SmsSendResult {
  const throttled = THROTTLED.test(code);
  const transient = throttled || TRANSIENT.test(code) || (httpStatus !== undefined && httpStatus >= 500);
  return { ok: false, code, message, transient, throttled };
}

export function createAliyunSmsProvider(env: Env): SmsProvider {
  const { values, endpoint } = readSmsProviderEnv(env, ALIYUN_SMS_PROVIDER, {
    keys: ['ALIYUN_SMS_ACCESS_KEY_ID', 'ALIYUN_SMS_ACCESS_KEY_SECRET', 'ALIYUN_SMS_SIGN_NAME', 'ALIYUN_SMS_ENDPOINT'],
    required: {
      ALIYUN_SMS_ACCESS_KEY_ID: 'the AccessKey ID of a RAM user allowed to send SMS',
      ALIYUN_SMS_ACCESS_KEY_SECRET: 'the AccessKey secret of that RAM user',
      ALIYUN_SMS_SIGN_NAME: 'the approved sign name (签名), e.g. 某某马拉松',
    },
    endpointKey: 'ALIYUN_SMS_ENDPOINT',
    fallback: DEFAULT_ALIYUN_SMS_ENDPOINT,
  });

  const client = new ClientClass(
    new openapi.$OpenApiUtil.Config({
      accessKeyId: values.ALIYUN_SMS_ACCESS_KEY_ID,
      accessKeySecret: values.ALIYUN_SMS_ACCESS_KEY_SECRET,
      endpoint: endpoint.host,
      protocol: endpoint.protocol,
    }),
  );
  const runtime = new dara.RuntimeOptions({
    autoretry: false,
    maxAttempts: 1,
    connectTimeout: 5000,
    readTimeout: 10_000,
  });
  const signName = values.ALIYUN_SMS_SIGN_NAME as string;

  return {
    name: ALIYUN_SMS_PROVIDER,
    async send({ phone, mainland, template, values: fields }) {
      // Mainland numbers as they are; others as country code and number, digits only (85212345678).
      const digits = phone.replace(/[^\d]/g, '').replace(/^00/, '');
      const request = new dysmsapi.SendSmsRequest({
        phoneNumbers: mainland ? digits.replace(/^86(?=1\d{10}$)/, '') : digits,
        signName,
        templateCode: template.code,
        templateParam: JSON.stringify(Object.fromEntries(templateValues(template, fields))),
      });
      try {
        const answer = await client.sendSmsWithOptions(request, runtime);
        const body = answer.body ?? {};
        if (body.code === 'OK' && body.bizId) return { ok: true, messageId: body.bizId };
        return classify(body.code ?? 'unknown', body.message ?? '');
      } catch (error) {
        const failure = error as { code?: unknown; message?: unknown; statusCode?: unknown; name?: unknown };
        if (typeof failure.statusCode === 'number' && typeof failure.code === 'string') {
          const result = classify(failure.code, String(failure.message ?? ''), failure.statusCode);
          return failure.name === 'ThrottlingError' && !result.ok
            ? { ...result, transient: true, throttled: true }
            : result;
        }
        return networkFailure(error);
      }
    },
    parseReceipts(body) {
      if (!Array.isArray(body)) throw new SmsReceiptFormatError('an Aliyun SmsReport push is a JSON array');
      return body.map((item, index): SmsReceipt => {
        const report = item as { biz_id?: unknown; success?: unknown; err_code?: unknown; err_msg?: unknown };
        if (item === null || typeof item !== 'object' || typeof report.biz_id !== 'string' || report.biz_id === '') {
          throw new SmsReceiptFormatError(`report ${index}: no biz_id`);
        }
        if (typeof report.success !== 'boolean') throw new SmsReceiptFormatError(`report ${index}: no success`);
        return {
          messageId: report.biz_id,
          delivered: report.success,
          code: typeof report.err_code === 'string' ? report.err_code : '',
          reason: typeof report.err_msg === 'string' ? report.err_msg : '',
        };
      });
    },
    receiptAnswer: { code: 0, msg: '接收成功' },
  };
}
