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
  // One entry and its actions (issue 30 §5; services/console/entry-actions.ts).
  entryNotFound: { zh: '该赛事没有此报名', en: 'No such entry in this race' },
  entryReasonRequired: {
    zh: '请填写操作原因（最多 {{max}} 字）',
    en: 'Give a reason for this action (at most {{max}} characters)',
  },
  entryAnswersInvalid: {
    zh: '报名信息未通过报名表的校验，请按提示修改',
    en: 'The answers do not pass the registration form’s rules: see each field',
  },
  entryChannelFormMissing: {
    zh: '该赛事尚未发布此报名通道的报名表',
    en: 'The race has no published registration form for this entry’s channel',
  },
  entryChangedMeanwhile: {
    zh: '报名已被他人修改，请刷新后重试',
    en: 'The entry was changed meanwhile: reload it and try again',
  },
  entryPersonLive: {
    zh: '此证件号码在本赛事已有有效报名',
    en: 'This certificate number already has a live entry in this race',
  },
  entryNotCancellable: {
    zh: '只能取消待抽签/待支付或已报名的报名（退款审核中的请在退款处理中操作）',
    en: 'Only a submitted or registered entry can be cancelled (one under refund review is decided in refunds)',
  },
  entryTransferOff: {
    zh: '本赛事不允许转让名额（赛事设置 entry.allowTransfer）',
    en: 'This race does not allow transfers (race setting entry.allowTransfer)',
  },
  entryTransferSamePerson: {
    zh: '转让须换成另一位跑者（证件号码不同）',
    en: 'A transfer needs another person (a different certificate number)',
  },
  entryNotRegistered: {
    zh: '只有已报名（状态：已报名/中签）的报名可以进行此操作',
    en: 'Only a registered entry (won or registered) allows this',
  },
  entryNoUnpaidOrder: { zh: '此报名没有待支付的订单', en: 'This entry has no order awaiting payment' },
  entryAmountMismatch: {
    zh: '线下收款金额须等于订单金额 ¥{{amount}}',
    en: 'The amount received must equal the order’s amount, CNY {{amount}}',
  },
  entryPaymentMethod: { zh: '请选择收款方式', en: 'Choose how the money was received' },
  entryReferenceInvalid: {
    zh: '请填写收款凭证号（1–64 个字符）',
    en: 'Give the payment’s reference (1–64 characters)',
  },
  entryNoPaidOrder: { zh: '此报名没有已支付的订单可退款', en: 'This entry has no paid order to refund' },
  entryRefundAmount: {
    zh: '退款金额须为 1 分到 ¥{{max}} 之间的整数分',
    en: 'The refund must be a whole number of fen from 0.01 to CNY {{max}}',
  },
  entryRefundDone: {
    zh: '此订单已由主办方发起过退款（每个订单一次）',
    en: 'The organiser already refunded this order (once per order)',
  },
  entryRequestOpen: {
    zh: '此报名有待审核的退款或延期申请，请先处理该申请',
    en: 'This entry has a refund or deferral request under review: decide it first',
  },
  entryBibInvalid: {
    zh: '号码须为 1–20 位字母或数字（不能全为 0）',
    en: 'A bib is 1–20 letters or digits (not all zeros)',
  },
  entryBibTaken: {
    zh: '号码 {{bib}} 已被本赛事其他跑者使用',
    en: 'Bib {{bib}} is already another runner’s in this race',
  },
  reconcileDayInvalid: { zh: '{{day}} 不是有效日期（格式 YYYY-MM-DD）', en: '{{day}} is not a date (YYYY-MM-DD)' },
  reconcileDayNotOver: {
    zh: '{{day}} 尚未结束（北京时间），账单要到次日才出',
    en: '{{day}} is not over yet (China time): its bill comes out the day after',
  },
  reconcileProviderUnknown: { zh: '没有支付渠道 {{provider}}', en: 'No payment provider {{provider}}' },
  reconcileNoFetch: {
    zh: '支付渠道 {{provider}} 不支持自动下载账单，请导入账单文件',
    en: 'The provider {{provider}} cannot fetch its bill: import a bill file instead',
  },
  reconcileNoImport: {
    zh: '支付渠道 {{provider}} 不支持导入账单文件',
    en: 'The provider {{provider}} cannot read a bill file',
  },
  reconcileBillNotReady: {
    zh: '{{provider}} 尚未生成 {{day}} 的账单，请稍后再试（通常在次日 10:00 前）',
    en: 'The {{provider}} bill of {{day}} is not out yet: try again later (usually by 10:00 the day after)',
  },
  reconcileFetchFailed: {
    zh: '下载 {{provider}} 账单失败：{{problem}}',
    en: 'Fetching the {{provider}} bill failed: {{problem}}',
  },
  reconcileBillFormat: {
    zh: '无法读取账单文件（第 {{line}} 行）：{{problem}}。未做任何更改',
    en: 'The bill file cannot be read (line {{line}}): {{problem}}. Nothing was changed',
  },
  reconcileBillOtherDay: {
    zh: '账单文件中有 {{other}} 的记录，不是 {{day}} 的账单。未做任何更改',
    en: 'The bill file has lines of {{other}}: it is not the bill of {{day}}. Nothing was changed',
  },
  reconcileNoteInvalid: {
    zh: '请填写处理说明（1–{{max}} 个字）',
    en: 'Write what was done about it (1–{{max}} characters)',
  },
  reconcileDifferenceMissing: { zh: '没有差异记录 {{id}}', en: 'No difference {{id}}' },
  reconcileHandledAlready: {
    zh: '差异 {{id}} 已被处理',
    en: 'Difference {{id}} was already handled',
  },
  // The direct-pass review (issue 32 §1; routes/admin/review.ts).
  directApplicationNotFound: { zh: '该赛事没有此直通申请', en: 'No such direct-pass application in this race' },
  directDocumentNotFound: { zh: '该申请没有此材料', en: 'This application has no such document' },
  directRejectReasonRequired: {
    zh: '请填写驳回原因（1–{{max}} 字），跑者将看到它',
    en: 'Give the reason for rejecting (1–{{max}} characters): the runner reads it',
  },
  directReviewChanged: {
    zh: '您打开后该申请已被更改，未做任何更改；请刷新后重新审核',
    en: 'The application changed after you opened it: nothing was changed; reload it and review again',
  },
  directReviewApprovedAlready: {
    zh: '该申请已被审核通过，未做任何更改',
    en: 'This application has already been approved: nothing was changed',
  },
  directReviewNotAwaiting: {
    zh: '该申请已不在待审核状态，未做任何更改',
    en: 'This application is no longer awaiting review: nothing was changed',
  },
  // Results and photos imports (issue 32 §1; routes/admin/imports.ts).
  importBadRows: {
    zh: '文件有问题，未导入任何数据：请按行修正后重新上传',
    en: 'The file has problems: nothing was imported. Fix the lines shown and upload it again',
  },
  importFileUnreadable: {
    zh: '无法读取文件：请上传 UTF-8 编码的 CSV 文件',
    en: 'The file cannot be read: upload a CSV file in UTF-8',
  },
  // Refunds and deferrals, an entry's payments at the provider (issue 32; services/console/refunds.ts).
  refundRaceMissing: { zh: '没有此赛事', en: 'No such race' },
  refundNoRequest: { zh: '此报名没有待审核的退款或延期申请', en: 'This entry has no request under review' },
  refundRejectReason: {
    zh: '请填写驳回原因（1–{{max}} 字），跑者会看到',
    en: 'Give the reason for the rejection (1–{{max}} characters): the runner reads it',
  },
  refundEntryChanged: {
    zh: '该报名状态已变化，无法批准延期，请刷新后重试',
    en: 'The entry changed meanwhile: the deferral cannot be approved. Reload and try again',
  },
  refundMissing: { zh: '没有退款 {{refundNo}}', en: 'No refund {{refundNo}}' },
  refundNotOwed: { zh: '退款 {{refundNo}} 已完成，无需重试', en: 'Refund {{refundNo}} is settled: nothing owed' },
  deferralSameRace: { zh: '请选择另一场赛事（下届）', en: 'Choose another race (the next one)' },
  deferralExpiryMissing: {
    zh: '下届赛事没有报名截止时间，请填写邀请码有效期',
    en: 'The next race has no sign-up end: give the codes’ expiry',
  },
  deferralExpiryInvalid: {
    zh: '有效期“{{text}}”不是 YYYY-MM-DD HH:mm:ss 格式的时间',
    en: 'The expiry “{{text}}” is not a time YYYY-MM-DD HH:mm:ss',
  },
  deferralExpiryPast: {
    zh: '有效期 {{text}} 已过，邀请码会立即失效，请填写更晚的时间',
    en: 'The expiry {{text}} is already past: the codes would expire at once. Give a later one',
  },
  paymentMissing: { zh: '此报名没有该支付记录', en: 'This entry has no such payment' },
  paymentOfflineQuery: {
    zh: '线下收款没有支付渠道可查询',
    en: 'An offline payment has no provider to ask',
  },
  paymentProviderUnavailable: {
    zh: '无法连接此笔支付的渠道：{{problem}}',
    en: 'The provider of this payment cannot be used: {{problem}}',
  },
  paymentQueryFailed: {
    zh: '查询支付渠道失败：{{problem}}，请稍后再试',
    en: 'Asking the provider failed: {{problem}}. Try again later',
  },
  paymentNotPaidThere: {
    zh: '支付渠道未显示此笔已付款（{{status}}），无需登记',
    en: 'The provider does not say this payment is paid ({{status}}): nothing to record',
  },
  paymentAmountDiffers: {
    zh: '支付渠道的金额 ¥{{theirs}} 与本笔支付 ¥{{ours}} 不符，未登记，请核对',
    en: 'The provider’s amount CNY {{theirs}} differs from this payment’s CNY {{ours}}: not recorded, check it',
  },
  // The entry season (issue 32 §1; services/organiser/sign-up-switch.ts, invitation-codes.ts, season.ts).
  seasonItemUnknown: { zh: '本赛事没有项目 {{item}}', en: 'The race has no item {{item}}' },
  seasonChannelUnknown: { zh: '没有报名通道 {{channel}}', en: 'No entry channel {{channel}}' },
  seasonCountInvalid: {
    zh: '数量须为 1 至 {{max}} 的整数',
    en: 'The number of codes must be a whole number from 1 to {{max}}',
  },
  seasonUsesInvalid: {
    zh: '每个邀请码的可用次数须为 1 至 {{max}} 的整数',
    en: 'The uses of each code must be a whole number from 1 to {{max}}',
  },
  seasonNoteTooLong: { zh: '备注最多 {{max}} 个字', en: 'The note may have at most {{max}} characters' },
  seasonExpiryInvalid: {
    zh: '有效期须为赛事时区的未来时间（YYYY-MM-DD HH:mm:ss）',
    en: 'The expiry must be a future time on the race clock (YYYY-MM-DD HH:mm:ss)',
  },
  seasonIssueRetry: {
    zh: '生成邀请码时与其他操作冲突，未生成任何邀请码，请重试',
    en: 'Another issue drew the same code meanwhile: nothing was issued, try again',
  },
  seasonImportInvalid: {
    zh: '文件有 {{count}} 处问题，未导入任何邀请码',
    en: 'The file has {{count}} problem(s): nothing was imported',
  },
  seasonCodeMissing: { zh: '本赛事没有邀请码 {{code}}', en: 'The race has no code {{code}}' },
  // The ballot and bibs (issue 32; services/entry/ballot.ts, bibs.ts): the CLI's refusals.
  ballotNoRace: { zh: '赛事 {{race}} 不存在', en: 'No race {{race}}' },
  ballotNoItem: { zh: '本赛事没有项目 {{item}}', en: 'This race has no item {{item}}' },
  ballotNotBallotItem: {
    zh: '项目 {{item}} 不是抽签项目，只有抽签和先付款后抽签的项目才抽签',
    en: 'Item {{item}} is not drawn: only ballot and pay-first-then-draw items are',
  },
  ballotRoundOpen: {
    zh: '第 {{round}} 轮已承诺、尚未抽签，不能再承诺新一轮',
    en: 'Round {{round}} is committed and not drawn yet: no new round can be committed',
  },
  ballotNoSecondRound: {
    zh: '先付款后抽签的项目未中签者已退款，没有第二轮',
    en: 'A pay-first-then-draw item refunds those not drawn: there is no second round',
  },
  ballotNoSignUpEnd: {
    zh: '赛事未设置报名截止时间，承诺须在截止前发布',
    en: 'The race has no sign-up end time: the commitment must come before it',
  },
  ballotWindowClosed: {
    zh: '报名已于 {{end}}（{{zone}}）截止：承诺必须在截止前发布',
    en: 'The sign-up window closed at {{end}} ({{zone}}): a commitment must be published before it closes',
  },
  ballotRaced: {
    zh: '另一操作刚刚承诺了同一轮，请刷新',
    en: 'Another run committed this round at the same moment: reload',
  },
  ballotNoCommitment: { zh: '尚未发布承诺，请先承诺', en: 'No commitment yet: commit first' },
  ballotDrawnAlready: { zh: '第 {{round}} 轮已抽签', en: 'Round {{round}} was drawn already' },
  ballotEntryOpen: {
    zh: '报名仍在进行中，请在报名截止（或关闭报名）后抽签',
    en: 'Entry is still open: draw after it closes (or close entry first)',
  },
  ballotEntryOpenUntil: {
    zh: '报名仍在进行中，截止时间 {{end}}（{{zone}}）：请在截止（或关闭报名）后抽签',
    en: 'Entry is open until {{end}} ({{zone}}): draw after it closes (or close entry first)',
  },
  ballotEntryNotStarted: {
    zh: '报名尚未开始，请在报名截止后抽签',
    en: 'Entry has not started yet: draw after it closes',
  },
  ballotNotDrawn: { zh: '第 {{round}} 轮尚未抽签', en: 'Round {{round}} is not drawn yet' },
  ballotBeaconNeeded: {
    zh: '承诺时指定了公开信标“{{beacon}}”，请填写其开奖值',
    en: 'The commitment named the beacon “{{beacon}}”: give its value',
  },
  ballotBeaconUnexpected: {
    zh: '承诺时未指定信标，现在填写的信标值会是承诺之后选定的，不能使用',
    en: 'The commitment named no beacon: a value given now would be chosen after the commitment',
  },
  ballotBeaconInvalid: {
    zh: '信标名称或开奖值为 1–{{max}} 个字',
    en: 'A beacon name or value is 1–{{max}} characters',
  },
  ballotSeedUnreadable: {
    zh: '无法用本服务器的证件号密钥读取保存的种子（或与承诺不符），请联系技术人员',
    en: 'The stored seed cannot be read with this server’s ID-number secret (or does not match): ask your technical team',
  },
  ballotRevealedAlready: { zh: '第 {{round}} 轮的种子已公布', en: 'The seed of round {{round}} was revealed already' },
  bibsPrefixInvalid: {
    zh: '前缀为最多 {{max}} 个大写字母或数字（可留空，只用数字）',
    en: 'The prefix is at most {{max}} capital letters or digits (empty for numbers only)',
  },
  bibsFromInvalid: {
    zh: '起始号须为 {{min}}–{{max}} 的整数',
    en: 'The first number is a whole number from {{min}} to {{max}}',
  },
  bibsWidthInvalid: {
    zh: '位数须为 {{min}}–{{max}} 的整数',
    en: 'The width is a whole number from {{min}} to {{max}}',
  },
  bibsOtherItem: {
    zh: '号码 {{bib}} 已分配给项目 {{item}} 的报名，未分配任何号码。请换一个前缀或起始号',
    en: 'Bib {{bib}} is already given to an entry of item {{item}}; no bib assigned. Choose another prefix or first number',
  },
  bibsTooWide: {
    zh: '号码 {{bib}} 超出 {{width}} 位（或不是有效号码），未分配任何号码',
    en: 'Bib {{bib}} does not fit {{width}} digits (or is not a valid bib); no bib assigned',
  },
  bibsConflict: {
    zh: '另一操作刚刚分配了其中的号码，未分配任何号码，请重试',
    en: 'Another run gave one of these bibs meanwhile; no bib assigned. Try again',
  },
  bibsNoneAwaiting: {
    zh: '该项目没有等待分配号码的报名',
    en: 'No entry of this item awaits a bib',
  },
  // Mailing (issue 32; services/after-entry/mailing.ts).
  mailingFileUnreadable: {
    zh: '无法读取快递单号文件：{{problem}}。未导入任何内容（需要 key、carrier、trackingNo 三列的 CSV 文件）',
    en: 'The tracking file cannot be read: {{problem}}. Nothing was imported (a CSV file with the columns key, carrier, trackingNo)',
  },
  messagePlaceholderUnknown: {
    zh: '文本中的 {{name}} 不是此消息可用的字段（可用：{{allowed}}）',
    en: '{{name}} in the text is not a field of this message (fields: {{allowed}})',
  },
  messageTextMissing: {
    zh: '请填写中文和英文的标题与正文（标题最多 {{subjectMax}} 字，正文最多 {{bodyMax}} 字）',
    en: 'Write the subject and the text in Chinese and in English (subject up to {{subjectMax}}, text up to {{bodyMax}} characters)',
  },
  messageKindUnknown: { zh: '没有这种系统消息：{{kind}}', en: 'No such system message: {{kind}}' },
  messageAudienceInvalid: { zh: '收件人条件无效：{{field}}', en: 'The audience filter is not valid: {{field}}' },
  messageAudienceEmpty: {
    zh: '没有符合条件、可通过所选方式联系的报名者，未发送',
    en: 'No entrant matches and can be reached that way: nothing was sent',
  },
  messageSendAtPast: {
    zh: '定时发送的时间须在现在之后',
    en: 'A scheduled time must be in the future',
  },
  messageCampaignMissing: { zh: '没有消息 {{id}}', en: 'No message {{id}}' },
  messageCampaignNotScheduled: {
    zh: '消息 {{id}} 已发送或已取消，不能取消',
    en: 'Message {{id}} was already sent or cancelled: it cannot be cancelled',
  },
  messageNothingToRetry: { zh: '没有发送失败的记录可重试', en: 'No failed copy to try again' },
  pickupCollectedBy: {
    zh: '该领物已于 {{at}} 由 {{by}} 发放，不能再次发放',
    en: 'Already collected at {{at}} by {{by}}: not handed over again',
  },
  pickupKeyLabelInvalid: { zh: '标签须为 1–{{max}} 个字符', en: 'A label has 1–{{max}} characters' },
  pickupKeyExists: {
    zh: '已有标签为“{{label}}”的有效密钥，请先吊销',
    en: 'An active key labelled “{{label}}” already exists: revoke it first',
  },
  pickupKeyMissing: { zh: '没有标签为“{{label}}”的有效密钥', en: 'No active key labelled “{{label}}”' },
  pickupCapacityInvalid: {
    zh: '容量须为 0–{{max}} 之间的整数',
    en: 'A capacity is a whole number from 0 to {{max}}',
  },
  pickupCapacityBelowBooked: {
    zh: '时段 {{slot}} 已有 {{booked}} 个预约，容量不能低于此数',
    en: 'Slot {{slot}} already has {{booked}} bookings: the capacity cannot be lower',
  },
  pickupRaceInvalid: {
    zh: '修改后的赛事设置未通过校验：{{problem}}',
    en: 'The race settings would not be valid: {{problem}}',
  },
  pickupNonceInvalid: {
    zh: '发放记录的编号无效，请刷新页面后重试',
    en: 'The hand-over’s code is not valid: reload the page and try again',
  },
  pickupNonceReused: {
    zh: '此发放编号已用于另一个领物凭证',
    en: 'This hand-over’s code was already used for another pass',
  },
  // The site page (issue 33 §2; services/website/site-drafts.ts).
  siteDomainNotBound: {
    zh: '域名 {{domain}} 未绑定到此赛事',
    en: 'The domain {{domain}} is not bound to this race',
  },
  siteDraftTooLarge: {
    zh: '草稿有 {{bytes}} 字节，最多允许 {{max}} 字节',
    en: 'The draft is {{bytes}} bytes; at most {{max}} are allowed',
  },
  siteDraftMissing: { zh: '没有可发布的草稿', en: 'There is no draft to publish' },
  siteDraftInvalid: {
    zh: '发布被拒绝：站点配置有 {{count}} 个错误',
    en: 'Publishing refused: the site configuration has {{count}} errors',
  },
  siteVersionNotFound: { zh: '此域名没有该版本', en: 'No such version of this domain' },
  // The asset library (issue 33 §1; services/organiser/event-assets.ts).
  assetRaceNotFound: { zh: '赛事 {{raceId}} 不存在', en: 'No race {{raceId}}' },
  assetNotFound: { zh: '素材库中没有 {{name}}', en: 'The library has no asset {{name}}' },
  assetNameInvalid: {
    zh: '“{{name}}”不是有效的文件名：只能使用小写字母、数字、“-”“_”“.”，最多 100 个字符',
    en: '“{{name}}” is not a valid name: lower-case letters, digits, “-”, “_” and “.”, at most 100 characters',
  },
  assetTypeInvalid: {
    zh: '{{name}}：文件格式不正确，只能上传 {{types}}',
    en: '{{name}}: this type of file is not accepted; accepted: {{types}}',
  },
  assetEmpty: { zh: '{{name}}：文件是空的', en: '{{name}}: the file is empty' },
  assetTooBig: {
    zh: '{{name}}：文件太大，请上传小于 {{limit}} MB 的文件',
    en: '{{name}}: the file is too big; the limit is {{limit}} MB',
  },
  assetContentMismatch: {
    zh: '{{name}}：文件内容不是 .{{type}} 格式',
    en: '{{name}}: the content is not a .{{type}} file',
  },
  assetImageUnreadable: {
    zh: '{{name}}：无法读取图片的宽高，文件可能已损坏',
    en: '{{name}}: the image’s width and height cannot be read; the file may be damaged',
  },
  assetNameTaken: {
    zh: '素材库中已有 {{name}}：请使用“替换”，或换一个文件名',
    en: 'The library already has {{name}}: replace it, or use another name',
  },
  assetInUse: {
    zh: '{{name}} 正在使用中，不能删除：{{where}}。请先去掉这些引用',
    en: '{{name}} is in use and cannot be deleted: {{where}}. Take it out of these first',
  },
  assetSlotSize: {
    zh: '图片尺寸不符合要求：{{where}} 需要 {{width}} × {{height}} px，此图片为 {{actualWidth}} × {{actualHeight}} px',
    en: 'The image size does not meet the standard: {{where}} needs {{width}} × {{height}} px, this image is {{actualWidth}} × {{actualHeight}} px',
  },
  // Races, race settings and domains (issue 33 §3; services/races.ts, services/website/domains.ts).
  raceIdInvalid: {
    zh: '赛事编号须为 1–64 个字母、数字或“-”，以字母或数字开头',
    en: 'A race id is 1–64 letters, digits or "-", starting with a letter or digit',
  },
  raceIdTaken: { zh: '赛事编号 {{race}} 已被使用', en: 'The race id {{race}} is already taken' },
  raceCreateLimited: {
    zh: '您只能管理指定的赛事，不能新建赛事；请联系可管理全部赛事的所有者',
    en: 'You are limited to some races and cannot create one: ask an owner of every race',
  },
  raceInvalid: {
    zh: '赛事设置有 {{count}} 处问题，未保存',
    en: 'The race settings have {{count}} problem(s): nothing saved',
  },
  raceIdMismatch: {
    zh: '文档中的 raceId（{{got}}）与本赛事（{{race}}）不同；赛事编号不能修改',
    en: 'The document’s raceId ({{got}}) is not this race ({{race}}): a race id cannot change',
  },
  raceChangedMeanwhile: {
    zh: '此赛事设置刚被他人（或命令行）修改，未保存；请重新加载后再改',
    en: 'Someone (or the command line) changed this race meanwhile: nothing saved. Reload, then change it again',
  },
  raceCapacityBelowTaken: {
    zh: '项目 {{item}} 已有 {{taken}} 个名额被占用，名额不能改为 {{capacity}}，未保存',
    en: 'Item {{item}} already has {{taken}} places taken: its capacity cannot be {{capacity}}. Nothing saved',
  },
  raceCharityBelowTaken: {
    zh: '项目 {{item}} 已有 {{taken}} 个公益名额被占用，公益名额不能改为 {{capacity}}，未保存',
    en: 'Item {{item}} already has {{taken}} charity places taken: its charity capacity cannot be {{capacity}}. Nothing saved',
  },
  raceItemHasEntries: {
    zh: '项目 {{item}} 已有 {{count}} 条报名，不能删除或修改其代码，未保存',
    en: 'Item {{item}} already has {{count}} entries: it cannot be removed or its code changed. Nothing saved',
  },
  raceCharityHasEntries: {
    zh: '项目 {{item}} 的公益名额已有 {{count}} 条报名，不能取消公益名额，未保存',
    en: 'Item {{item}} already has {{count}} charity entries: its charity places cannot be removed. Nothing saved',
  },
  raceModelHasEntries: {
    zh: '项目 {{item}} 已有 {{count}} 条报名，报名方式不能由 {{from}} 改为 {{to}}，未保存',
    en: 'Item {{item}} already has {{count}} entries: its entry model cannot change from {{from}} to {{to}}. Nothing saved',
  },
  raceSlotRemovedBooked: {
    zh: '领物时段 {{slot}} 已有 {{booked}} 个预约，不能删除，未保存',
    en: 'Pick-up slot {{slot}} already has {{booked}} bookings: it cannot be removed. Nothing saved',
  },
  domainInvalid: {
    zh: '“{{domain}}”不是有效的域名（字母、数字、“-”和“.”，不能是 IP 地址）',
    en: '“{{domain}}” is not a host name (letters, digits, "-" and "."; not an IP address)',
  },
  domainBoundElsewhere: {
    zh: '域名 {{domain}} 已绑定到赛事 {{race}}；确认后可改绑到本赛事',
    en: 'The domain {{domain}} is bound to the race {{race}}: confirm to move it to this race',
  },
  domainNotBound: { zh: '域名 {{domain}} 未绑定任何赛事', en: 'The domain {{domain}} is not bound to a race' },
  // The registration-form editor (issue 33 §3; services/registration/form-editor.ts).
  formProblems: {
    zh: '报名表有 {{count}} 个问题，请修改后再发布',
    en: 'The form has {{count}} problem(s): fix them before publishing',
  },
  formChannelInvalid: {
    zh: '报名渠道须为小写字母、数字或“-”，以字母开头',
    en: 'A channel is lower-case letters, digits or “-”, starting with a letter',
  },
} as const;

export type ConsoleMessageCode = keyof typeof CONSOLE_MESSAGES;

export const isConsoleMessageCode = (code: unknown): code is ConsoleMessageCode =>
  typeof code === 'string' && Object.hasOwn(CONSOLE_MESSAGES, code);
