/**
 * The messages of the organiser console's calls (/api/admin/…), in both languages here: the console shows
 * them by code, the envelope's `msg` carries the English. Kept apart from contract/messages.ts so that none
 * of the console's texts reaches a public visitor's browser (the public SPA imports that file, never this).
 */
export const CONSOLE_MESSAGES = {
  staffLoginFailed: { zh: '邮箱或密码错误', en: 'E-mail or password is incorrect' },
  staffLocked: {
    zh: '连续输错次数过多，账号已锁定，请在 {{until}} 后重试',
    en: 'Too many wrong attempts: the account is locked until {{until}}',
  },
  staffTotpRequired: {
    zh: '请输入身份验证器中的 6 位动态码',
    en: 'Enter the 6-digit code from your authenticator app',
  },
  staffTotpWrong: {
    zh: '动态码错误或已使用，请输入新的动态码',
    en: 'The code is wrong or already used: enter a new one',
  },
  staffLoginExpired: { zh: '登录已过期，请重新登录', en: 'Your session has ended: please sign in again' },
  staffCsrf: {
    zh: '请求未通过校验，请刷新页面后重试',
    en: 'The request could not be verified: reload the page and try again',
  },
  staffForbidden: { zh: '您的角色无权进行此操作', en: 'Your role does not allow this' },
  staffRaceForbidden: { zh: '您无权查看此赛事', en: 'You do not have access to this race' },
  staffSetupPending: {
    zh: '请先修改初始密码并设置身份验证器',
    en: 'First change your one-time password and set up your authenticator',
  },
  staffPasswordWrong: { zh: '当前密码错误', en: 'The current password is wrong' },
  staffPasswordTooShort: { zh: '新密码至少 12 位', en: 'The new password needs at least 12 characters' },
  staffPasswordTooLong: { zh: '新密码最多 128 位', en: 'The new password may have at most 128 characters' },
  staffPasswordTooSimple: { zh: '新密码须同时包含字母和数字', en: 'The new password needs letters and digits' },
  staffPasswordSame: { zh: '新密码不能与当前密码相同', en: 'The new password must differ from the current one' },
  staffEmailInvalid: { zh: '请输入有效的邮箱地址', en: 'Enter a valid e-mail address' },
  staffRoleInvalid: { zh: '请选择有效的角色', en: 'Choose a valid role' },
  staffExists: { zh: '该邮箱已是工作人员', en: 'A staff member with this e-mail already exists' },
  staffNotFound: { zh: '工作人员不存在', en: 'No such staff member' },
  staffLastOwner: {
    zh: '不能删除或降级最后一位所有者，请先添加另一位所有者',
    en: 'The last owner cannot be removed or given another role: add another owner first',
  },
  staffRaceUnknown: { zh: '所选赛事不存在', en: 'A chosen race does not exist' },
  staffSessionNotFound: {
    zh: '该登录会话不存在或已结束',
    en: 'That session does not exist or has already ended',
  },
  staffBadQuery: { zh: '筛选条件无效：{{field}}', en: 'Invalid filter: {{field}}' },
} as const;

export type ConsoleMessageCode = keyof typeof CONSOLE_MESSAGES;

export const isConsoleMessageCode = (code: unknown): code is ConsoleMessageCode =>
  typeof code === 'string' && Object.hasOwn(CONSOLE_MESSAGES, code);
