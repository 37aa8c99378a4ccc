/**
 * Local fakes of the two SMS providers' gateways (issue 31 §4, §5: no test reaches a provider). Each is a
 * node:http server on 127.0.0.1 speaking the provider's API as its documentation gives it, written here from
 * that documentation (not from the SDKs' code):
 *
 * - Aliyun dysmsapi 2017-05-25 SendSms, signed with the V3 signature (ACS3-HMAC-SHA256: the Authorization
 *   header's Credential=<AccessKeyId>, SignedHeaders and Signature over the canonical request), its
 *   parameters in the query; answers { Code: 'OK', BizId, RequestId, Message }.
 * - Tencent Cloud SMS API 3.0 (2021-01-11) SendSms, signed TC3-HMAC-SHA256 (Authorization: Credential=
 *   <SecretId>/<date>/<service>/tc3_request, SignedHeaders, Signature; a key derived from the date and
 *   service), a JSON body; answers { Response: { SendStatusSet: [{ SerialNo, Code: 'Ok', … }], RequestId } }.
 *
 * Each verifies our signature with the test keys (a bad one is refused as the provider refuses it), records
 * every send, can answer the provider's throttling error to the next sends, and posts delivery receipts in the
 * provider's form to a callback URL (Aliyun's SmsReport HTTP batch push, Tencent's 短信下发状态 callback).
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSend {
  phone: string;
  signName: string | undefined;
  template: string;
  /** Aliyun: the TemplateParam object; Tencent: TemplateParamSet, in order. */
  params: Record<string, string> | string[];
  messageId: string;
}

export interface SmsFake {
  /** The endpoint to set (ALIYUN_SMS_ENDPOINT / TENCENT_SMS_ENDPOINT): http://127.0.0.1:<port>. */
  endpoint: string;
  sends: FakeSend[];
  /** Calls refused for a bad signature or key. */
  refused: string[];
  /** The next `n` sends are answered with the provider's throttling error. */
  throttleNext(n: number): void;
  /** Posts the receipt of message `messageId` to `url` as the provider does; resolves with the answer. */
  postReceipt(url: string, messageId: string, delivered: boolean): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * How long a fake keeps an idle connection open. The SDKs keep their connections alive (Aliyun's in a shared
 * agent); Node's default of 5 s let a fake close a connection just as the next send took it up when the machine
 * was busy enough for two sends to be 5 s apart, and that send failed as a transient error (ECONNRESET), which
 * is what a real gateway's idle timeout does too, but not what a test of throttling and receipts is about.
 */
const IDLE_CONNECTION_MS = 600_000;

async function listen(server: Server): Promise<string> {
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

async function post(url: string, body: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: kept as text.
  }
  return { status: response.status, body: parsed };
}

/** RFC 3986 percent-encoding, as Aliyun's canonical query string wants it. */
const aliyunEncode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The phone a receipt names (as the provider reports it). */
const phoneOf = (sends: FakeSend[], messageId: string) => sends.find((s) => s.messageId === messageId)?.phone ?? '';

export async function startAliyunFake(keys: { accessKeyId: string; accessKeySecret: string }): Promise<SmsFake> {
  const sends: FakeSend[] = [];
  const refused: string[] = [];
  let throttle = 0;
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const answer = (status: number, json: object) => {
        response.writeHead(status, { 'content-type': 'application/json;charset=utf-8' });
        response.end(JSON.stringify(json));
      };
      const requestId = randomUUID().toUpperCase();
      const [pathname = '/', rawQuery = ''] = (request.url ?? '/').split('?');
      const query: [string, string][] = rawQuery
        .split('&')
        .filter(Boolean)
        .map((pair) => {
          const at = pair.indexOf('=');
          const [k, v] = at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
          return [decodeURIComponent(k), decodeURIComponent(v)];
        });
      // V3 signature: Authorization: ACS3-HMAC-SHA256 Credential=<id>,SignedHeaders=<a;b>,Signature=<hex>.
      const auth = /^ACS3-HMAC-SHA256 Credential=([^,]+),SignedHeaders=([^,]+),Signature=([0-9a-f]+)$/.exec(
        String(request.headers.authorization ?? ''),
      );
      const refuse = (code: string) => {
        refused.push(code);
        answer(code === 'InvalidAccessKeyId.NotFound' ? 404 : 400, { Code: code, Message: code, RequestId: requestId });
      };
      if (!auth) return refuse('MissingAuthorization');
      const [, accessKeyId, signedHeaders, signature] = auth as unknown as [string, string, string, string];
      if (accessKeyId !== keys.accessKeyId) return refuse('InvalidAccessKeyId.NotFound');
      const payloadHash = sha256(body);
      if (request.headers['x-acs-content-sha256'] !== payloadHash) return refuse('ContentSHA256NotMatch');
      const canonicalQuery = [...query]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => `${aliyunEncode(k)}=${aliyunEncode(v)}`)
        .join('&');
      const names = signedHeaders.split(';');
      const canonicalHeaders = names.map((name) => `${name}:${String(request.headers[name] ?? '').trim()}\n`).join('');
      const canonicalRequest = [
        request.method,
        pathname,
        canonicalQuery,
        canonicalHeaders,
        signedHeaders,
        payloadHash,
      ].join('\n');
      const expected = createHmac('sha256', keys.accessKeySecret)
        .update(`ACS3-HMAC-SHA256\n${sha256(canonicalRequest)}`)
        .digest('hex');
      if (expected !== signature) return refuse('SignatureDoesNotMatch');
      if (request.headers['x-acs-action'] !== 'SendSms' || request.headers['x-acs-version'] !== '2017-05-25') {
        return refuse('InvalidAction.NotFound');
      }
      const params = Object.fromEntries(query);
      if (throttle > 0) {
        throttle -= 1;
        return answer(200, {
          Code: 'isv.BUSINESS_LIMIT_CONTROL',
          Message: '触发分钟级流控Permits:1',
          RequestId: requestId,
        });
      }
      if (!params.PhoneNumbers || !params.TemplateCode || !params.SignName) {
        return answer(200, { Code: 'isv.MISSING_PARAMETER', Message: '参数缺失', RequestId: requestId });
      }
      const bizId = `${Date.now()}${String(sends.length).padStart(4, '0')}^0`;
      sends.push({
        phone: params.PhoneNumbers,
        signName: params.SignName,
        template: params.TemplateCode,
        params: params.TemplateParam ? (JSON.parse(params.TemplateParam) as Record<string, string>) : {},
        messageId: bizId,
      });
      answer(200, { Code: 'OK', Message: 'OK', BizId: bizId, RequestId: requestId });
    })();
  });
  const endpoint = await listen(server);
  return {
    endpoint,
    sends,
    refused,
    throttleNext: (n) => {
      throttle = n;
    },
    // SmsReport by HTTP batch push: a JSON array of reports.
    postReceipt: (url, messageId, delivered) =>
      post(url, [
        {
          phone_number: phoneOf(sends, messageId),
          send_time: '2026-11-27 10:00:00',
          report_time: '2026-11-27 10:00:05',
          success: delivered,
          err_code: delivered ? 'DELIVERED' : 'MK:0001',
          err_msg: delivered ? '用户接收成功' : '空号',
          sms_size: '1',
          biz_id: messageId,
          out_id: '',
        },
      ]),
    close: () => close(server),
  };
}

export async function startTencentFake(keys: { secretId: string; secretKey: string }): Promise<SmsFake> {
  const sends: FakeSend[] = [];
  const refused: string[] = [];
  let throttle = 0;
  const server = createServer((request, response) => {
    void (async () => {
      const raw = await readBody(request);
      const requestId = randomUUID();
      const answer = (json: object) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ Response: { ...json, RequestId: requestId } }));
      };
      const error = (code: string, message: string) => answer({ Error: { Code: code, Message: message } });
      const refuse = (code: string) => {
        refused.push(code);
        error(code, code);
      };
      const auth =
        /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([^,]+), Signature=([0-9a-f]+)$/.exec(
          String(request.headers.authorization ?? ''),
        );
      if (!auth) return refuse('AuthFailure.SignatureFailure');
      const [, secretId, date, service, signedHeaders, signature] = auth as unknown as string[];
      if (secretId !== keys.secretId) return refuse('AuthFailure.SecretIdNotFound');
      const timestamp = String(request.headers['x-tc-timestamp'] ?? '');
      if (new Date(Number(timestamp) * 1000).toISOString().slice(0, 10) !== date) {
        return refuse('AuthFailure.SignatureFailure');
      }
      // Canonical headers: each signed header, lower-case name and trimmed value; the host without its port.
      const canonicalHeaders = signedHeaders!
        .split(';')
        .map((name) => {
          const value = String(request.headers[name] ?? '').trim();
          return `${name}:${(name === 'host' ? value.replace(/:\d+$/, '') : value).toLowerCase()}\n`;
        })
        .join('');
      const [pathname = '/', query = ''] = (request.url ?? '/').split('?');
      const canonicalRequest = [request.method, pathname, query, canonicalHeaders, signedHeaders, sha256(raw)].join(
        '\n',
      );
      const stringToSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/${service}/tc3_request\n${sha256(canonicalRequest)}`;
      const signing = hmac(hmac(hmac(`TC3${keys.secretKey}`, date!), service!), 'tc3_request');
      if (createHmac('sha256', signing).update(stringToSign).digest('hex') !== signature) {
        return refuse('AuthFailure.SignatureFailure');
      }
      if (request.headers['x-tc-action'] !== 'SendSms' || request.headers['x-tc-version'] !== '2021-01-11') {
        return refuse('InvalidAction');
      }
      if (throttle > 0) {
        throttle -= 1;
        return error('RequestLimitExceeded', '请求的次数超过了频率限制。');
      }
      const body = JSON.parse(raw.toString('utf8')) as {
        PhoneNumberSet?: string[];
        SmsSdkAppId?: string;
        TemplateId?: string;
        SignName?: string;
        TemplateParamSet?: string[];
      };
      if (!body.PhoneNumberSet?.length || !body.SmsSdkAppId || !body.TemplateId) {
        return error('MissingParameter', '缺少参数');
      }
      const statuses = body.PhoneNumberSet.map((phone) => {
        const serial = `2433:${randomUUID().replace(/-/g, '').slice(0, 24)}`;
        sends.push({
          phone,
          signName: body.SignName,
          template: body.TemplateId!,
          params: body.TemplateParamSet ?? [],
          messageId: serial,
        });
        return {
          SerialNo: serial,
          PhoneNumber: phone,
          Fee: 1,
          SessionContext: '',
          Code: 'Ok',
          Message: 'send success',
          IsoCode: 'CN',
        };
      });
      answer({ SendStatusSet: statuses });
    })();
  });
  const endpoint = await listen(server);
  return {
    endpoint,
    sends,
    refused,
    throttleNext: (n) => {
      throttle = n;
    },
    // 短信下发状态回调: a JSON array.
    postReceipt: (url, messageId, delivered) =>
      post(url, [
        {
          user_receive_time: '2026-11-27 10:00:05',
          nationcode: '86',
          mobile: phoneOf(sends, messageId).replace(/^\+86/, ''),
          report_status: delivered ? 'SUCCESS' : 'FAIL',
          errmsg: delivered ? 'DELIVRD' : 'MN:0001',
          description: delivered ? '用户短信送达成功' : '空号',
          sid: messageId,
        },
      ]),
    close: () => close(server),
  };
}
