/**
 * A self-signed X.509 certificate made with Node's crypto alone (tests only): Node reads certificates
 * (X509Certificate) but cannot make one, and a test must not depend on an openssl binary. The certificate is
 * the smallest valid one: version 1, a serial, sha256WithRSAEncryption, CN= issuer and subject, a validity
 * and the key; DER written by hand, returned as PEM.
 */
import { sign, type KeyObject } from 'node:crypto';

function lengthOf(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, content: Buffer) => Buffer.concat([Buffer.from([tag]), lengthOf(content.length), content]);
const sequence = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => tlv(0x31, Buffer.concat(parts));
const integer = (bytes: Buffer) => tlv(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));
const NULL = Buffer.from([0x05, 0x00]);

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]];
  const bytes = [40 * a + b];
  for (const n of rest) {
    const chunk: number[] = [n & 0x7f];
    for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function utcTime(at: number): Buffer {
  const iso = new Date(at).toISOString(); // 2025-06-16T02:00:00.000Z
  const text = `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

const name = (cn: string) => sequence(set(sequence(oid('2.5.4.3'), utf8(cn))));
const SHA256_WITH_RSA = sequence(oid('1.2.840.113549.1.1.11'), NULL);

/** A PEM certificate of `publicKey`, signed by `privateKey` (its own pair: self-signed). */
export function selfSignedCertificate(input: {
  serialHex: string;
  commonName: string;
  publicKey: KeyObject;
  privateKey: KeyObject;
  notBefore: number;
  notAfter: number;
}): string {
  const tbs = sequence(
    integer(Buffer.from(input.serialHex, 'hex')),
    SHA256_WITH_RSA,
    name(input.commonName),
    sequence(utcTime(input.notBefore), utcTime(input.notAfter)),
    name(input.commonName),
    input.publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign('sha256', tbs, input.privateKey);
  const der = sequence(tbs, SHA256_WITH_RSA, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
