/** Registrations import: one row per runner, with the order and (for third-party sales) the channel. */
import { isCertificateType } from '#contract/enums';
import { checkCertificateNumber, isValidPhone } from '#contract/rules';
import { ORDER_FIELDS } from '#contract/site-config/race-types';
import type { OrderRow, RaceCenterRepository, RegistrationRow } from '../../db/race-center-repository.ts';
import { catalogItem, maskMobile, normalizeBib, normalizeCertNo, normalizeName } from '../../lib/race-center.ts';
import { DATE_TIME, parseGender, unknownItemProblem, validDate, type Importer } from './import-table.ts';

/** Registration channel: web|app|third-party or its code 3|5|2 (the spec's query-type numbers); blank is web. */
const CHANNELS: Record<string, number> = { web: 3, '3': 3, app: 5, '5': 5, 'third-party': 2, '2': 2 };

/**
 * Registrations replace those of the same certificate number; numbers are stored hashed and masked only. A bib
 * held by another runner's entry made on the site refuses the file.
 */
export function registrationsImporter(repo: RaceCenterRepository): Importer<RegistrationRow> {
  /** The line of each bib of the file (a bib is on one line only: the `unique` check). */
  const lineOfBib = new Map<string, number>();
  return {
    kind: 'registrations',
    columns: {
      required: [
        'name',
        'gender',
        'birthday',
        'certificateType',
        'certificateNumber',
        'phone',
        'emergencyName',
        'emergencyPhone',
        'item',
        'status',
      ],
      optional: ['bib', ...ORDER_FIELDS, 'channel', 'channelName', 'channelNameEn'],
    },
    toRow({ line, get, has, required, unique, problem }, target) {
      const { raceId } = target;
      const name = normalizeName(required('name'));
      const gender = parseGender(get('gender'));
      if (gender === null) problem('gender', 'must be 1/M/男 or 2/F/女');
      const birthday = get('birthday');
      if (!validDate(birthday)) problem('birthday', 'must be a date YYYY-MM-DD');
      const certType = Number(get('certificateType'));
      if (!isCertificateType(certType)) problem('certificateType', 'must be 1 (ID card), 2, 3 or 4');
      const certNo = normalizeCertNo(required('certificateNumber'));
      // The contract's rule of the type (spec §5): an ID number's checksum, a permit's format.
      if (isCertificateType(certType) && certNo && checkCertificateNumber(certType, certNo))
        problem(
          'certificateNumber',
          certType === 1 ? 'not a valid 18-character ID number' : 'not a valid number of its type',
        );
      if (certNo) unique(`cert:${certNo}`, 'certificateNumber');
      const phone = get('phone');
      if (!isValidPhone(phone)) problem('phone', 'must be 11 digits starting with 1');
      const emergencyName = normalizeName(required('emergencyName'));
      const emergencyPhone = get('emergencyPhone');
      if (!isValidPhone(emergencyPhone)) problem('emergencyPhone', 'must be 11 digits starting with 1');
      if (emergencyPhone === phone) problem('emergencyPhone', "must differ from the runner's phone");
      if (emergencyName && emergencyName === name) problem('emergencyName', "must differ from the runner's name");
      const def = catalogItem(target.items, get('item'));
      if (!def) problem('item', unknownItemProblem(target, get('item')));
      const item = def?.code ?? '';
      const status = Number(get('status'));
      if (!/^[0-5]$/.test(get('status'))) problem('status', 'must be 0..5');
      const bib = has('bib') ? normalizeBib(get('bib')) : null;
      if (bib) {
        unique(`bib:${bib}`, 'bib');
        if (!lineOfBib.has(bib)) lineOfBib.set(bib, line);
      }
      const money = (field: string) => {
        if (!has(field)) return 0;
        const n = Number(get(field));
        if (!Number.isFinite(n) || n < 0) problem(field, 'must be a non-negative amount');
        return n;
      };
      const time = (field: string) => {
        if (has(field) && !DATE_TIME.test(get(field))) problem(field, 'must be YYYY-MM-DD HH:mm:ss');
        return get(field);
      };
      const channel = has('channel') ? (CHANNELS[get('channel').toLowerCase()] ?? null) : 3;
      if (channel === null) problem('channel', 'must be web, app or third-party (or 3, 5, 2)');
      const channelName = get('channelName');
      const channelNameEn = get('channelNameEn');
      for (const [field, value] of [
        ['channelName', channelName],
        ['channelNameEn', channelNameEn],
      ] as const) {
        if (value.length > 50) problem(field, 'at most 50 characters');
        else if (value && channel !== null && channel !== 2) problem(field, 'only for third-party registrations');
      }
      const order: OrderRow = {
        orderNo: get('orderNo'),
        subOrderNo: get('subOrderNo'),
        createTime: time('createTime'),
        serialNo: get('serialNo'),
        payTime: time('payTime'),
        amountPaid: money('amountPaid'),
        orderAmount: money('orderAmount'),
        coupon: get('coupon'),
        discount: money('discount'),
      };
      if (gender === null || channel === null) return undefined;
      return {
        race_id: raceId,
        bib,
        name,
        gender,
        birthday,
        cert_type: certType,
        cert_hash: repo.certHash(certNo),
        phone_masked: maskMobile(phone),
        emergency_name: emergencyName,
        emergency_phone_masked: maskMobile(emergencyPhone),
        item,
        status,
        orders_json: JSON.stringify(order.orderNo ? [order] : []),
        channel,
        channel_name: channelName || null,
        channel_name_en: channelNameEn || null,
      };
    },
    // One bib, one runner: a bib an entry made on the site already holds is refused (bibs-assign skips the
    // imported ones in turn).
    write: async (rows) =>
      (await repo.saveRegistrations(rows)).map(
        (held) =>
          `line ${lineOfBib.get(held.bib) ?? '?'}: bib: ${held.bib} is already given to another runner ` +
          `(entry ${held.entryNo}, made on the site); choose another bib or leave it blank`,
      ),
  };
}
