import {
  checkFieldValue,
  checkFormDocument,
  fieldDependencies,
  checkSubmission,
  cleanSubmission,
  FIELD_TYPES,
  isValidDate,
  visibleFields,
  type RegistrationForm,
  type SubmissionContext,
} from '#contract/registration-form';

const t = (zh: string, en: string) => ({ zh, en });

/** A form with every field type (the shape of the demo race's form). */
const FORM = {
  version: 1,
  raceId: 'race-1',
  title: t('报名表', 'Entry form'),
  fields: [
    {
      key: 'name',
      type: 'input',
      label: t('姓名', 'Name'),
      required: true,
      rules: [{ rule: 'requiredText', message: 'nameInvalid' }],
    },
    { key: 'gender', type: 'gender', label: t('性别', 'Gender'), required: true },
    { key: 'certType', type: 'certificateType', label: t('证件类型', 'Certificate type'), required: true },
    {
      key: 'certNo',
      type: 'certificateNumber',
      typeField: 'certType',
      label: t('证件号码', 'Certificate number'),
      required: true,
    },
    { key: 'phone', type: 'phone', label: t('手机号', 'Mobile'), required: true },
    { key: 'email', type: 'email', label: t('邮箱', 'E-mail') },
    { key: 'birthday', type: 'date', label: t('出生日期', 'Birthday'), min: '1940-01-01', max: '2009-04-18' },
    { key: 'country', type: 'country', label: t('国家/地区', 'Country/region'), required: true },
    {
      key: 'region',
      type: 'region',
      label: t('省市区', 'Province/city/district'),
      required: true,
      showWhen: { field: 'country', equals: 'CN' },
    },
    { key: 'address', type: 'textarea', label: t('详细地址', 'Address'), maxLength: 10 },
    {
      key: 'emergencyName',
      type: 'input',
      label: t('紧急联系人', 'Emergency contact'),
      required: true,
      rules: [{ rule: 'requiredText' }, { rule: 'differsFrom', field: 'name', message: 'emergencyNameSame' }],
    },
    {
      key: 'emergencyPhone',
      type: 'phone',
      label: t('紧急联系人电话', 'Emergency phone'),
      required: true,
      rules: [{ rule: 'differsFrom', field: 'phone', message: 'emergencyPhoneSame' }],
    },
    {
      key: 'size',
      type: 'clothingSize',
      label: t('服装尺码', 'T-shirt size'),
      required: true,
      sizes: [
        { code: 'M', label: t('M', 'M'), chest: 100, length: 70, stock: 5 },
        { code: 'XXL', label: t('XXL', 'XXL'), chest: 116, length: 78, stock: 0 },
        { code: 'L', label: t('L', 'L') },
      ],
    },
    {
      key: 'pastEvents',
      type: 'pastEvents',
      label: t('参赛经历', 'Past events'),
      rules: [{ rule: 'maxLength', value: 2 }],
    },
    { key: 'score', type: 'scoreVerification', label: t('成绩认证', 'Qualifying result') },
    { key: 'scorePaid', type: 'scoreValidationPaid', label: t('认证费', 'Verification fee') },
    {
      key: 'photo',
      type: 'image',
      label: t('证件照', 'Photo'),
      required: true,
      upload: { maxSize: { size: 2, unit: 'MB' }, maxCount: 1, width: 358, height: 441, confirmAuthenticity: true },
    },
    {
      key: 'health',
      type: 'file',
      label: t('体检报告', 'Health report'),
      upload: { maxSize: { size: 0, unit: 'MB' }, maxCount: 2 },
    },
    {
      key: 'experience',
      type: 'radio',
      label: t('跑龄', 'Running years'),
      options: [
        { value: 'new', label: t('新手', 'Beginner') },
        { value: 'old', label: t('老手', 'Experienced') },
      ],
    },
    {
      key: 'finishes',
      type: 'number',
      label: t('完赛次数', 'Finishes'),
      showWhen: { field: 'experience', equals: 'old' },
      required: true,
      rules: [{ rule: 'positiveInteger' }, { rule: 'max', value: 300 }],
    },
    {
      key: 'interests',
      type: 'checkbox',
      label: t('兴趣', 'Interests'),
      options: [
        { value: 'trail', label: t('越野', 'Trail') },
        { value: 'road', label: t('路跑', 'Road') },
        { value: 'track', label: t('场地', 'Track') },
      ],
      rules: [
        { rule: 'minLength', value: 1 },
        { rule: 'maxLength', value: 2 },
      ],
    },
    {
      key: 'trailNote',
      type: 'input',
      label: t('越野经历', 'Trail note'),
      showWhen: { field: 'interests', equals: ['trail'] },
      required: true,
    },
    { key: 'blood', type: 'picker', label: t('血型', 'Blood type'), options: [{ value: 'A', label: t('A型', 'A') }] },
    { key: 'blog', type: 'url', label: t('个人主页', 'Home page') },
    {
      key: 'nick',
      type: 'input',
      label: t('昵称', 'Nickname'),
      rules: [
        { rule: 'minLength', value: 2 },
        { rule: 'maxLength', value: 4 },
      ],
    },
  ],
};

const VALID = {
  name: '张三',
  gender: 1,
  certType: 1,
  certNo: '11010519491231002X',
  phone: '13800138000',
  email: 'runner@example.com',
  birthday: '1990-05-01',
  country: 'CN',
  region: ['320000', '320100', '320102'],
  address: '运河路1号',
  emergencyName: '李四',
  emergencyPhone: '13900139000',
  size: 'M',
  pastEvents: ['qc-marathon-2026:A0001'],
  score: { source: 'own', resultId: 'qc-marathon-2026:A0001' },
  photo: '/files/uploads/2027/photo.JPG',
  health: 'https://cdn.example.com/a.pdf,/files/uploads/b.docx',
  experience: 'old',
  finishes: 12,
  interests: ['road'],
  blood: 'A',
  blog: 'https://runner.example.com',
  nick: 'Sam',
};

function form(): RegistrationForm {
  const { form: parsed, problems } = checkFormDocument(FORM);
  expect(problems).toEqual([]);
  return parsed!;
}

const refusalOf = (values: Record<string, unknown>, key: string, context?: SubmissionContext) =>
  checkSubmission(form(), values, context)[key] ?? null;

const codeOf = (patch: Record<string, unknown>, key: string, context?: SubmissionContext) =>
  refusalOf({ ...VALID, ...patch }, key, context)?.code ?? null;

describe('the registration-form document', () => {
  it('accepts a form that uses every field type', () => {
    const types = new Set(FORM.fields.map((f) => f.type));
    expect([...FIELD_TYPES].filter((type) => !types.has(type))).toEqual([]);
    expect(checkFormDocument(FORM).problems).toEqual([]);
    expect(checkFormDocument(FORM).form?.fields).toHaveLength(FORM.fields.length);
  });

  it('refuses what is not an object, and names the version, raceId, channel and fields', () => {
    expect(checkFormDocument([]).problems).toEqual([{ path: '$', message: expect.stringContaining('JSON object') }]);
    const { form: none, problems } = checkFormDocument({ version: 2, raceId: ' ', channel: 'Direct!', fields: [] });
    expect(none).toBeUndefined();
    expect(problems.map((p) => p.path)).toEqual(['$.version', '$.raceId', '$.channel', '$.fields']);
  });

  const withField = (field: Record<string, unknown>, before: Record<string, unknown>[] = []) =>
    checkFormDocument({ version: 1, raceId: 'r', fields: [...before, field] }).problems;
  const name = { key: 'name', type: 'input', label: t('姓名', 'Name') };

  it.each([
    [{ ...name, key: '1name' }, '$.fields[0].key', 'a letter'],
    [{ ...name, type: 'select' }, '$.fields[0].type', 'must be one of input, number'],
    [{ ...name, label: { zh: '姓名' } }, '$.fields[0].label.en', 'must be a string'],
    [{ ...name, label: t('', 'Name') }, '$.fields[0].label.zh', 'must not be empty'],
    [{ ...name, requred: true }, '$.fields[0].requred', 'did you mean'],
    [{ ...name, Required: true }, '$.fields[0].Required', 'did you mean "required"'],
    [{ ...name, required: 'yes' }, '$.fields[0].required', 'true or false'],
    [{ ...name, options: [] }, '$.fields[0].options', 'unknown key'],
    [{ ...name, type: 'radio' }, '$.fields[0].options', 'at least one option'],
    [
      {
        ...name,
        type: 'picker',
        options: [
          { value: 'a', label: t('甲', 'A') },
          { value: 'a', label: t('乙', 'B') },
        ],
      },
      '$.fields[0].options[1].value',
      'already the value of option 0',
    ],
    [
      { ...name, type: 'checkbox', options: [{ value: '', label: t('甲', 'A') }] },
      '$.fields[0].options[0].value',
      'must not be empty',
    ],
    [{ ...name, type: 'date', min: '2020-02-30' }, '$.fields[0].min', 'YYYY-MM-DD'],
    [{ ...name, type: 'date', min: '2020-02-03', max: '2020-01-01' }, '$.fields[0].max', 'before min'],
    [{ ...name, type: 'textarea', maxLength: 0 }, '$.fields[0].maxLength', '1 or more'],
    [{ ...name, type: 'image' }, '$.fields[0].upload', 'maxSize'],
    [
      { ...name, type: 'image', upload: { maxSize: { size: 2, unit: 'TB' }, maxCount: 1 } },
      '$.fields[0].upload.maxSize.unit',
      'B, KB, MB, GB',
    ],
    [
      { ...name, type: 'image', upload: { maxSize: { size: -1, unit: 'MB' }, maxCount: 1 } },
      '$.fields[0].upload.maxSize.size',
      '0 or more',
    ],
    [
      { ...name, type: 'image', upload: { maxSize: { size: 1, unit: 'MB' }, maxCount: 1.5 } },
      '$.fields[0].upload.maxCount',
      'whole number',
    ],
    [
      { ...name, type: 'image', upload: { maxSize: { size: 1, unit: 'MB' }, maxCount: 1, width: 300 } },
      '$.fields[0].upload',
      'both width and height',
    ],
    [
      { ...name, type: 'file', upload: { maxSize: { size: 1, unit: 'MB' }, maxCount: 1, width: 3, height: 3 } },
      '$.fields[0].upload.width',
      'unknown key',
    ],
    [
      { ...name, type: 'clothingSize', sizes: [{ code: 'M', label: t('M', 'M'), stock: -1 }] },
      '$.fields[0].sizes[0].stock',
      '0 or more',
    ],
    [
      { ...name, type: 'clothingSize', sizes: [{ code: 'M', label: t('M', 'M'), chest: 0 }] },
      '$.fields[0].sizes[0].chest',
      'above 0',
    ],
    [
      {
        ...name,
        type: 'clothingSize',
        sizes: [
          { code: 'M', label: t('M', 'M') },
          { code: 'M', label: t('M', 'M') },
        ],
      },
      '$.fields[0].sizes[1].code',
      'already the code',
    ],
    [{ ...name, type: 'certificateNumber', typeField: 'name' }, '$.fields[0].typeField', 'certificateType field'],
    [{ ...name, type: 'scoreValidationPaid', required: true }, '$.fields[0].required', 'set by the server'],
    [{ ...name, type: 'scoreVerification', items: [{ value: 'M' }] }, '$.fields[0].items[0].label', 'zh'],
    [{ ...name, rules: [{ rule: 'noSpaces' }] }, '$.fields[0].rules[0].rule', 'requiredText, positiveInteger'],
    [{ ...name, rules: [{ rule: 'min', value: 1 }] }, '$.fields[0].rules[0].rule', 'does not apply to an input field'],
    [{ ...name, rules: [{ rule: 'maxLength', value: -2 }] }, '$.fields[0].rules[0].value', 'whole number'],
    [
      { ...name, rules: [{ rule: 'requiredText', message: 'noSuchMessage' }] },
      '$.fields[0].rules[0].message',
      'not a message code',
    ],
    [{ ...name, rules: [{ rule: 'differsFrom', field: 'name' }] }, '$.fields[0].rules[0].field', 'another field'],
    [
      { ...name, rules: [{ rule: 'differsFrom', field: 'nobody' }] },
      '$.fields[0].rules[0].field',
      'key of another field',
    ],
    [
      {
        ...name,
        rules: [
          { rule: 'minLength', value: 5 },
          { rule: 'maxLength', value: 2 },
        ],
      },
      '$.fields[0].rules',
      'above maxLength',
    ],
    [{ ...name, rules: [{ rule: 'requiredText', value: 3 }] }, '$.fields[0].rules[0].value', 'unknown key'],
    [{ ...name, showWhen: { field: 'name', equals: 'x' } }, '$.fields[0].showWhen.field', 'earlier field'],
    [{ ...name, showWhen: { field: 'later', equals: 'x' } }, '$.fields[0].showWhen.field', 'earlier field'],
    [{ ...name, showWhen: { field: 'name', equals: [] } }, '$.fields[0].showWhen.equals', 'non-empty list'],
  ])('reports %j at %s', (field, path, message) => {
    const problems = withField(field);
    expect(problems.find((p) => p.path === path)?.message ?? problems).toEqual(expect.stringContaining(message));
  });

  it('wants showWhen to name an EARLIER field, and says when the field comes later', () => {
    const problems = checkFormDocument({
      version: 1,
      raceId: 'r',
      fields: [
        { key: 'a', type: 'input', label: t('甲', 'A'), showWhen: { field: 'b', equals: 'x' } },
        { key: 'b', type: 'input', label: t('乙', 'B') },
        { key: 'c', type: 'scoreValidationPaid', label: t('丙', 'C') },
        { key: 'd', type: 'input', label: t('丁', 'D'), showWhen: { field: 'c', equals: 'paid' } },
      ],
    }).problems;
    expect(problems).toEqual([
      {
        path: '$.fields[0].showWhen.field',
        message: '"b" comes after this field; showWhen must name an earlier field',
      },
      { path: '$.fields[3].showWhen.field', message: '"c" is set by the server and cannot control another field' },
    ]);
  });

  it('refuses duplicate keys, naming the first field with that key', () => {
    const problems = withField(name, [name]);
    expect(problems).toEqual([{ path: '$.fields[1].key', message: '"name" is already the key of $.fields[0]' }]);
  });

  it('reports unknown keys of the document and a wrong title', () => {
    const problems = checkFormDocument({ version: 1, raceId: 'r', titel: 'x', title: 'x', fields: [name] }).problems;
    expect(problems.map((p) => p.path)).toEqual(['$.titel', '$.title']);
  });
});

describe('submissions', () => {
  it('passes a complete, valid submission', () => {
    expect(checkSubmission(form(), VALID)).toEqual({});
  });

  it("refuses every missing required field with its type's message", () => {
    const refusals = checkSubmission(form(), { country: 'CN', experience: 'old', interests: ['trail'] });
    expect(Object.fromEntries(Object.entries(refusals).map(([k, r]) => [k, r.code]))).toEqual({
      name: 'nameRequired',
      gender: 'choiceRequired',
      certType: 'choiceRequired',
      certNo: 'certificateRequired',
      phone: 'phoneRequired',
      region: 'regionIncomplete',
      emergencyName: 'fieldRequired',
      emergencyPhone: 'phoneRequired',
      size: 'choiceRequired',
      photo: 'uploadRequired',
      finishes: 'fieldRequired',
      trailNote: 'fieldRequired',
    });
  });

  it('treats blank text and empty lists as missing', () => {
    expect(codeOf({ name: '   ' }, 'name')).toBe('nameRequired');
    expect(codeOf({ region: [] }, 'region')).toBe('regionIncomplete');
    expect(cleanSubmission(form(), { ...VALID, region: ['', '', ''], country: 'CN' })).not.toHaveProperty('region');
    expect(codeOf({ photo: ' , ' }, 'photo')).toBe('uploadRequired');
  });

  it("input: requiredText takes inner spaces, refuses nothing but spaces and double quotes with the caller's message", () => {
    expect(codeOf({ name: 'ZHANG Wei' }, 'name')).toBeNull();
    expect(codeOf({ name: ' John  Smith ' }, 'name')).toBeNull();
    expect(codeOf({ emergencyName: '李 四' }, 'emergencyName')).toBeNull();
    expect(codeOf({ name: ' " " ' }, 'name')).toBe('nameInvalid');
    expect(codeOf({ emergencyName: '""' }, 'emergencyName')).toBe('textInvalid');
    expect(codeOf({ name: 42 }, 'name')).toBe('invalidValue');
    // Kept as on the certificate: ends trimmed, a run of spaces inside made one.
    expect(cleanSubmission(form(), { ...VALID, name: '  John   Smith ' }).name).toBe('John Smith');
  });

  it('input: minLength and maxLength count characters', () => {
    expect(refusalOf({ ...VALID, nick: 'S' }, 'nick')).toEqual({ code: 'textTooShort', params: { count: 2 } });
    expect(refusalOf({ ...VALID, nick: '长跑爱好者' }, 'nick')).toEqual({ code: 'textTooLong', params: { count: 4 } });
    expect(codeOf({ nick: '跑者' }, 'nick')).toBeNull();
  });

  it('textarea: maxLength', () => {
    expect(refusalOf({ ...VALID, address: '一二三四五六七八九十一' }, 'address')).toEqual({
      code: 'textTooLong',
      params: { count: 10 },
    });
    expect(codeOf({ address: '一二三四五六七八九十' }, 'address')).toBeNull();
  });

  it('number: a number, a positive integer without a leading zero, within max', () => {
    expect(codeOf({ finishes: 'abc' }, 'finishes')).toBe('badNumber');
    expect(codeOf({ finishes: '012' }, 'finishes')).toBe('positiveInteger');
    expect(codeOf({ finishes: 0 }, 'finishes')).toBe('positiveInteger');
    expect(codeOf({ finishes: 1.5 }, 'finishes')).toBe('positiveInteger');
    expect(codeOf({ finishes: -3 }, 'finishes')).toBe('positiveInteger');
    expect(refusalOf({ ...VALID, finishes: 301 }, 'finishes')).toEqual({
      code: 'numberTooLarge',
      params: { max: 300 },
    });
    expect(codeOf({ finishes: '300' }, 'finishes')).toBeNull();
  });

  it('number: min', () => {
    const doc = {
      version: 1,
      raceId: 'r',
      fields: [{ key: 'n', type: 'number', label: t('数', 'N'), rules: [{ rule: 'min', value: 3 }] }],
    };
    const f = checkFormDocument(doc).form!;
    expect(checkSubmission(f, { n: 2 })).toEqual({ n: { code: 'numberTooSmall', params: { min: 3 } } });
    expect(checkSubmission(f, { n: 3 })).toEqual({});
  });

  it('email: a correct address', () => {
    expect(codeOf({ email: 'runner@example' }, 'email')).toBe('badEmail');
    expect(codeOf({ email: ' Runner@Example.com ' }, 'email')).toBeNull();
    expect(codeOf({ email: undefined }, 'email')).toBeNull();
  });

  it('phone: an 11-digit mainland mobile number', () => {
    expect(codeOf({ phone: '12800138000' }, 'phone')).toBe('badPhone');
    expect(codeOf({ phone: '1380013800' }, 'phone')).toBe('badPhone');
    expect(codeOf({ phone: 13800138000 }, 'phone')).toBe('badPhone');
  });

  it('differsFrom: the emergency contact differs from the applicant', () => {
    expect(codeOf({ emergencyName: '张三' }, 'emergencyName')).toBe('emergencyNameSame');
    expect(codeOf({ emergencyPhone: '13800138000' }, 'emergencyPhone')).toBe('emergencyPhoneSame');
    expect(codeOf({ emergencyPhone: '13900139000' }, 'emergencyPhone')).toBeNull();
  });

  it('differsFrom without a message: valueRepeated', () => {
    const f = checkFormDocument({
      version: 1,
      raceId: 'r',
      fields: [
        { key: 'a', type: 'input', label: t('甲', 'A') },
        { key: 'b', type: 'input', label: t('乙', 'B'), rules: [{ rule: 'differsFrom', field: 'a' }] },
      ],
    }).form!;
    expect(checkSubmission(f, { a: 'Same', b: 'same ' })).toEqual({ b: { code: 'valueRepeated' } });
  });

  it('gender: 1 male, 2 female, 0 unknown', () => {
    for (const gender of [0, 1, 2]) expect(codeOf({ gender }, 'gender')).toBeNull();
    expect(codeOf({ gender: 3 }, 'gender')).toBe('badChoice');
    expect(codeOf({ gender: 'M' }, 'gender')).toBe('badChoice');
  });

  it('certificate type and number: the number is checked by its type', () => {
    expect(codeOf({ certType: 5 }, 'certType')).toBe('badCertificateType');
    expect(codeOf({ certNo: '110105194912310021' }, 'certNo')).toBe('idCardInvalid');
    expect(codeOf({ certType: 2, certNo: 'E1234' }, 'certNo')).toBeNull();
    expect(codeOf({ certType: 2, certNo: 'E1' }, 'certNo')).toBe('passportInvalid');
    expect(codeOf({ certType: 3, certNo: 'H12345678' }, 'certNo')).toBeNull();
    expect(codeOf({ certType: 3, certNo: 'X12345678' }, 'certNo')).toBe('hkMacaoPermitInvalid');
    expect(codeOf({ certType: 4, certNo: '12345678' }, 'certNo')).toBeNull();
    expect(codeOf({ certType: 4, certNo: '1234' }, 'certNo')).toBe('taiwanPermitInvalid');
  });

  it('radio, picker, checkbox: only the options', () => {
    expect(codeOf({ experience: 'pro' }, 'experience')).toBe('badChoice');
    expect(codeOf({ blood: 'O' }, 'blood')).toBe('badChoice');
    expect(codeOf({ interests: ['road', 'swim'] }, 'interests')).toBe('badChoice');
    expect(codeOf({ interests: ['road', 'road'] }, 'interests')).toBe('badChoice');
    expect(codeOf({ interests: 'road' }, 'interests')).toBe('badChoice');
    expect(refusalOf({ ...VALID, interests: ['road', 'track', 'trail'], trailNote: 'x' }, 'interests')).toEqual({
      code: 'tooManyChoices',
      params: { count: 2 },
    });
  });

  it('country: a twoCode on the country list', () => {
    const context = { countryExists: (code: string) => ['CN', 'HK'].includes(code) };
    expect(codeOf({ country: 'HK' }, 'country', context)).toBeNull();
    expect(codeOf({ country: 'XX' }, 'country', context)).toBe('badCountry');
    expect(codeOf({ country: 'cn' }, 'country')).toBe('badCountry');
  });

  it('date: a real YYYY-MM-DD within min and max', () => {
    expect(codeOf({ birthday: '1990-02-30' }, 'birthday')).toBe('badDate');
    expect(codeOf({ birthday: '1990/05/01' }, 'birthday')).toBe('badDate');
    expect(refusalOf({ ...VALID, birthday: '1939-12-31' }, 'birthday')).toEqual({
      code: 'dateTooEarly',
      params: { date: '1940-01-01' },
    });
    expect(refusalOf({ ...VALID, birthday: '2010-01-01' }, 'birthday')).toEqual({
      code: 'dateTooLate',
      params: { date: '2009-04-18' },
    });
    expect(isValidDate('2024-02-29')).toBe(true);
    expect(isValidDate('2023-02-29')).toBe(false);
  });

  it('url: 请输入正确的网址', () => {
    expect(codeOf({ blog: 'runner.example.com' }, 'blog')).toBe('badUrl');
    expect(codeOf({ blog: 'javascript:alert(1)' }, 'blog')).toBe('badUrl');
    expect(codeOf({ blog: '//runner.example.com/me' }, 'blog')).toBeNull();
  });

  it('image and file: URLs of allowed types, within the count', () => {
    expect(refusalOf({ ...VALID, photo: '/files/a.jpg,/files/b.jpg' }, 'photo')).toEqual({
      code: 'tooManyFiles',
      params: { count: 1 },
    });
    expect(codeOf({ photo: '/files/a.pdf' }, 'photo')).toBe('badFileType');
    expect(codeOf({ photo: 'javascript:alert(1).png' }, 'photo')).toBe('badUpload');
    expect(codeOf({ photo: '//evil.example/a.png' }, 'photo')).toBe('badUpload');
    expect(codeOf({ photo: ['/files/a.png'] }, 'photo')).toBe('badUpload');
    expect(codeOf({ health: '/files/a.exe' }, 'health')).toBe('badFileType');
    expect(codeOf({ health: 'https://cdn.example.com/a.XLSX?v=1,/files/b.zip' }, 'health')).toBeNull();
    expect(codeOf({ photo: 'uploads/9f86d081.png' }, 'photo')).toBeNull();
    expect(codeOf({ photo: 'uploads/../secret.png' }, 'photo')).toBe('badUpload');
    expect(codeOf({ photo: 'uploads/a b.png' }, 'photo')).toBe('badUpload');
  });

  it('region: three six-digit codes that exist', () => {
    expect(codeOf({ region: ['320000', '320100'] }, 'region')).toBe('regionIncomplete');
    expect(codeOf({ region: ['320000', '320100', ''] }, 'region')).toBe('regionIncomplete');
    expect(codeOf({ region: '320000,320100,320102' }, 'region')).toBe('regionIncomplete');
    const context = { regionExists: (codes: readonly string[]) => codes[2] === '320102' };
    expect(codeOf({}, 'region', context)).toBeNull();
    expect(codeOf({ region: ['320000', '320100', '320199'] }, 'region', context)).toBe('regionUnknown');
  });

  it('clothing size: a size of the chart that is not sold out', () => {
    expect(codeOf({ size: 'S' }, 'size')).toBe('badClothingSize');
    expect(codeOf({ size: 'XXL' }, 'size')).toBe('sizeSoldOut');
    expect(codeOf({ size: 'L' }, 'size')).toBeNull();
    const left = { sizeLeft: (_key: string, size: { code: string }) => (size.code === 'M' ? 0 : 9) };
    expect(codeOf({ size: 'M' }, 'size', left)).toBe('sizeSoldOut');
    expect(codeOf({ size: 'XXL' }, 'size', left)).toBeNull();
  });

  it("past events: the runner's own result ids", () => {
    const context = { ownResult: (id: string) => id.startsWith('qc-') };
    expect(codeOf({ pastEvents: ['other-race:12'] }, 'pastEvents', context)).toBe('badPastEvent');
    expect(codeOf({ pastEvents: ['not an id'] }, 'pastEvents')).toBe('badPastEvent');
    expect(codeOf({ pastEvents: ['qc-1:1', 'qc-1:1'] }, 'pastEvents')).toBe('badPastEvent');
    expect(refusalOf({ ...VALID, pastEvents: ['qc-1:1', 'qc-1:2', 'qc-1:3'] }, 'pastEvents')).toEqual({
      code: 'tooManyChoices',
      params: { count: 2 },
    });
    expect(codeOf({ pastEvents: ['qc-1:1', 'qc-2:B7'] }, 'pastEvents', context)).toBeNull();
  });

  it('score verification: an own result, or an outside one with its certificate image', () => {
    const outside = {
      source: 'outside',
      raceName: '2026 上海马拉松',
      item: '马拉松',
      chipTime: '3:05:59',
      raceDate: '2026-11-29',
      certificateImage: '/files/uploads/cert.png',
    };
    expect(codeOf({ score: outside }, 'score')).toBeNull();
    expect(codeOf({ score: { ...outside, raceName: ' ' } }, 'score')).toBe('scoreRaceRequired');
    expect(codeOf({ score: { ...outside, item: '' } }, 'score')).toBe('scoreItemRequired');
    expect(codeOf({ score: { ...outside, chipTime: '3:5:59' } }, 'score')).toBe('badChipTime');
    expect(codeOf({ score: { ...outside, chipTime: '25:00:00' } }, 'score')).toBe('badChipTime');
    expect(codeOf({ score: { ...outside, raceDate: '2026-13-01' } }, 'score')).toBe('badRaceDate');
    expect(codeOf({ score: { ...outside, certificateImage: '' } }, 'score')).toBe('certificateImageRequired');
    expect(codeOf({ score: { ...outside, certificateImage: '/files/a.pdf' } }, 'score')).toBe('badFileType');
    expect(codeOf({ score: { source: 'guess' } }, 'score')).toBe('scoreClaimRequired');
    expect(codeOf({ score: { source: 'own', resultId: '' } }, 'score')).toBe('scoreClaimRequired');
    const context = { ownResult: () => false };
    expect(codeOf({ score: { source: 'own', resultId: 'qc-1:A1' } }, 'score', context)).toBe('badPastEvent');
  });

  it("score verification: an outside item from the field's list when it has one", () => {
    const f = checkFormDocument({
      version: 1,
      raceId: 'r',
      fields: [
        {
          key: 's',
          type: 'scoreVerification',
          required: true,
          label: t('成绩', 'Result'),
          items: [{ value: 'M', label: t('马拉松', 'Marathon') }],
        },
      ],
    }).form!;
    const claim = {
      source: 'outside',
      raceName: 'X',
      chipTime: '2:59:00',
      raceDate: '2026-01-01',
      certificateImage: '/f/a.png',
    };
    expect(checkSubmission(f, { s: { ...claim, item: 'H' } })).toEqual({ s: { code: 'badChoice' } });
    expect(checkSubmission(f, { s: { ...claim, item: 'M' } })).toEqual({});
    expect(checkSubmission(f, {})).toEqual({ s: { code: 'scoreClaimRequired' } });
  });

  it('score validation paid: set by the server, a submitted value is refused and dropped', () => {
    expect(codeOf({ scorePaid: 'paid' }, 'scorePaid')).toBe('readOnlyField');
    expect(codeOf({}, 'scorePaid')).toBeNull();
    expect(cleanSubmission(form(), { ...VALID, scorePaid: 'paid' })).not.toHaveProperty('scorePaid');
  });
});

describe('showWhen', () => {
  it('shows a field while its earlier field holds the wanted value', () => {
    const keys = (values: Record<string, unknown>) => visibleFields(form(), values).map((f) => f.key);
    expect(keys({ country: 'CN' })).toContain('region');
    expect(keys({ country: 'HK' })).not.toContain('region');
    expect(keys({ experience: 'new' })).not.toContain('finishes');
    expect(keys({ interests: ['road', 'trail'] })).toContain('trailNote');
  });

  it('compares numbers and strings by their text', () => {
    const f = checkFormDocument({
      version: 1,
      raceId: 'r',
      fields: [
        { key: 'g', type: 'gender', label: t('性别', 'Gender') },
        { key: 'x', type: 'input', required: true, label: t('甲', 'X'), showWhen: { field: 'g', equals: ['2'] } },
      ],
    }).form!;
    expect(visibleFields(f, { g: 2 }).map((field) => field.key)).toEqual(['g', 'x']);
  });

  it('hides a field whose controlling field is hidden itself', () => {
    const f = checkFormDocument({
      version: 1,
      raceId: 'r',
      fields: [
        {
          key: 'a',
          type: 'radio',
          label: t('甲', 'A'),
          options: [
            { value: 'y', label: t('是', 'Yes') },
            { value: 'n', label: t('否', 'No') },
          ],
        },
        {
          key: 'b',
          type: 'radio',
          label: t('乙', 'B'),
          showWhen: { field: 'a', equals: 'y' },
          options: [{ value: 'y', label: t('是', 'Yes') }],
        },
        { key: 'c', type: 'input', required: true, label: t('丙', 'C'), showWhen: { field: 'b', equals: 'y' } },
      ],
    }).form!;
    expect(visibleFields(f, { a: 'n', b: 'y' }).map((field) => field.key)).toEqual(['a']);
    expect(checkSubmission(f, { a: 'y', b: 'y' })).toEqual({ c: { code: 'fieldRequired' } });
  });

  it('does not check hidden fields, and cleanSubmission drops their values and unknown keys', () => {
    const values = { ...VALID, country: 'HK', region: ['x'], experience: 'new', finishes: 'abc', stranger: 1 };
    expect(checkSubmission(form(), values)).toEqual({});
    const kept = cleanSubmission(form(), { ...values, name: ' 张三 ', email: '' });
    expect(kept).not.toHaveProperty('region');
    expect(kept).not.toHaveProperty('finishes');
    expect(kept).not.toHaveProperty('stranger');
    expect(kept).not.toHaveProperty('email');
    expect(kept.name).toBe('张三');
    expect(cleanSubmission(form(), { ...VALID, health: ' /files/a.pdf, ,/files/b.zip ' }).health).toBe(
      '/files/a.pdf,/files/b.zip',
    );
  });

  it('names the fields a field depends on: its showWhen, its certificate type, its differsFrom', () => {
    const byKey = (key: string) => form().fields.find((f) => f.key === key)!;
    expect(fieldDependencies(byKey('certNo'))).toEqual(['certType']);
    expect(fieldDependencies(byKey('emergencyPhone'))).toEqual(['phone']);
    expect(fieldDependencies(byKey('finishes'))).toEqual(['experience']);
    expect(fieldDependencies(byKey('name'))).toEqual([]);
  });

  it('checkFieldValue answers one field, null when hidden or unknown', () => {
    expect(checkFieldValue(form(), 'phone', { phone: '123' })).toEqual({ code: 'badPhone' });
    expect(checkFieldValue(form(), 'region', { country: 'US' })).toBeNull();
    expect(checkFieldValue(form(), 'nobody', {})).toBeNull();
  });
});
