import { MSG } from './messages';

/** Stable machine-readable error codes; tests assert these, people read the message. */
export const ERROR_CODES = {
  validation: 'VALIDATION_FAILED',
  unauthorized: 'UNAUTHORIZED',
  sessionExpired: 'SESSION_EXPIRED',
  invalidCredentials: 'INVALID_CREDENTIALS',
  tooManyAttempts: 'TOO_MANY_ATTEMPTS',
  forbidden: 'FORBIDDEN',
  /** Granting, assigning or touching more than the caller holds (PRIVILEGE_MSG says which rule). */
  privilegeEscalation: 'PRIVILEGE_ESCALATION',
  unauthorizedTenant: 'UNAUTHORIZED_TENANT',
  featureNotPurchased: 'FEATURE_NOT_PURCHASED',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  /** A PBX save that would make calls go round in a circle (IVR → time condition → IVR …). */
  pbxLoop: 'PBX_LOOP',
  /** A switchboard pointed at the PBX's own internals (issue 32); the host's field error names the rule. */
  switchboardHostRefused: 'SWITCHBOARD_HOST_REFUSED',
  /** A campaign refused a change its state does not allow (ADR 0050): a transition, an edit of a running campaign's contacts. */
  campaignState: 'CAMPAIGN_STATE',
  /** Voice-OTP (issue 35): the number may not be called (details[0].rule says why: OTP_REFUSALS). */
  otpRefused: 'OTP_REFUSED',
  /** Voice-OTP: a per-number, per-key or per-tenant limit reached (details[0].rule). */
  otpRateLimited: 'OTP_RATE_LIMITED',
  /** Voice-OTP: the tenant has no hotline enabled for OTP on /voice-otp/number. */
  otpNoCallerNumber: 'OTP_NO_CALLER_NUMBER',
  /** Voice-OTP: a key's webhook URL points at the PBX's own internals or a private network (details[0].rule). */
  webhookHostRefused: 'WEBHOOK_HOST_REFUSED',
  /** The Google Sheet source (issue 33): no service account yet, or Google refused (details[0] says which, in Vietnamese). */
  googleSheetRefused: 'GOOGLE_SHEET_REFUSED',
  /** Click-to-call (issue 39): the agent or the number may not be called (details[0].rule: CrmCallRefusal). */
  crmCallRefused: 'CRM_CALL_REFUSED',
  /** Click-to-call: the agent has no registered phone, or is in a call (details[0].rule). */
  crmAgentUnavailable: 'CRM_AGENT_UNAVAILABLE',
  /** Click-to-call: the key's calls per minute reached (details[0].rule). */
  crmRateLimited: 'CRM_RATE_LIMITED',
  /** Google did not answer (a network error, a 5xx): try again later. */
  googleUnavailable: 'GOOGLE_UNAVAILABLE',
  /** PostgreSQL unreachable, restarting or out of connections (issue 41): try again in a moment. */
  databaseUnavailable: 'DATABASE_UNAVAILABLE',
  internal: 'INTERNAL_ERROR',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Vietnamese message for each code. */
export const ERROR_MESSAGES: Record<ErrorCode, string> = {
  VALIDATION_FAILED: 'Dữ liệu không hợp lệ',
  UNAUTHORIZED: MSG.sessionExpired,
  SESSION_EXPIRED: MSG.sessionExpired,
  INVALID_CREDENTIALS: 'Mã doanh nghiệp, tên đăng nhập hoặc mật khẩu không đúng',
  TOO_MANY_ATTEMPTS: 'Bạn đã thử đăng nhập quá nhiều lần. Vui lòng thử lại sau ít phút',
  FORBIDDEN: 'Bạn không có quyền thực hiện thao tác này',
  PRIVILEGE_ESCALATION: 'Bạn không thể cấp hoặc sử dụng quyền mà bạn không có',
  UNAUTHORIZED_TENANT: 'Bạn không có quyền truy cập dữ liệu của doanh nghiệp này',
  FEATURE_NOT_PURCHASED: 'Tính năng chưa được đăng ký hoặc đã hết hạn',
  NOT_FOUND: 'Không tìm thấy dữ liệu',
  CONFLICT: 'Dữ liệu đã tồn tại',
  PBX_LOOP: 'Cấu hình tạo vòng lặp',
  SWITCHBOARD_HOST_REFUSED: 'Địa chỉ nội bộ của hệ thống không được dùng làm tổng đài',
  CAMPAIGN_STATE: 'Trạng thái chiến dịch không cho phép thao tác này',
  OTP_REFUSED: 'Không thể gọi OTP tới số này',
  OTP_RATE_LIMITED: 'Đã vượt giới hạn gọi OTP. Vui lòng thử lại sau',
  OTP_NO_CALLER_NUMBER: 'Chưa có hotline nào được bật để gọi OTP',
  WEBHOOK_HOST_REFUSED: 'Địa chỉ webhook trỏ vào mạng nội bộ hoặc cổng dịch vụ của tổng đài: không được phép',
  CRM_CALL_REFUSED: 'Không thể thực hiện cuộc gọi này',
  CRM_AGENT_UNAVAILABLE: 'Nhân viên chưa thể nhận cuộc gọi lúc này',
  CRM_RATE_LIMITED: 'Đã vượt giới hạn cuộc gọi. Vui lòng thử lại sau',
  GOOGLE_SHEET_REFUSED: 'Không đọc được trang tính Google',
  GOOGLE_UNAVAILABLE: 'Không kết nối được với Google, vui lòng thử lại sau',
  DATABASE_UNAVAILABLE: 'Hệ thống tạm thời không truy cập được dữ liệu. Vui lòng thử lại sau ít phút',
  INTERNAL_ERROR: MSG.generic,
};

export interface FieldError {
  field: string;
  message: string;
  /** Which rule refused the value, when a rule has a name (e.g. a switchboard host's 'loopback'). */
  rule?: string;
}

/** The one error body every API surface answers with. */
export interface ApiErrorBody {
  status: number;
  code: ErrorCode;
  message: string;
  details?: FieldError[];
}

export function isApiErrorBody(x: unknown): x is ApiErrorBody {
  return !!x && typeof x === 'object' && typeof (x as ApiErrorBody).code === 'string' && typeof (x as ApiErrorBody).status === 'number';
}
