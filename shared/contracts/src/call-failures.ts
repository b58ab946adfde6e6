/**
 * Why a call failed, in words the agent understands (issue 11). Kamailio answers a refused call
 * with a SIP status and, when the routing plan refused it, the plan's reason in the
 * X-Tongdai-Cause header; the softphone turns both into one of these failures.
 */
import { parseSpyNumber } from './spy';

export const CALL_CAUSE_HEADER = 'X-Tongdai-Cause';

export const CALL_FAILURES = [
  'busy', 'no_answer', 'rejected', 'not_allowed', 'no_route', 'unknown_extension', 'extension_offline', 'trunk_not_configured',
  'channel_limit', 'tenant_channel_limit', 'unknown_carrier', 'unreachable', 'failed', 'spy_forbidden', 'spy_no_call',
] as const;
export type CallFailure = (typeof CALL_FAILURES)[number];

/** Short, for the softphone's badge in the one-line top bar. Also the softphone's i18n keys: no key of its own may clash ('offline' is the phone's registration). */
export const CALL_FAILURE_LABELS: Record<CallFailure, string> = {
  busy: 'Máy bận',
  no_answer: 'Không trả lời',
  rejected: 'Bên kia từ chối',
  not_allowed: 'Số không được phép gọi',
  no_route: 'Không có tuyến gọi',
  unknown_extension: 'Máy nhánh không tồn tại',
  extension_offline: 'Máy nhánh ngoại tuyến',
  trunk_not_configured: 'Chưa cấu hình trunk',
  channel_limit: 'Trunk hết kênh',
  tenant_channel_limit: 'Hết kênh gọi',
  unknown_carrier: 'Nhà mạng không hợp lệ',
  unreachable: 'Mất kết nối tổng đài',
  failed: 'Cuộc gọi thất bại',
  spy_forbidden: 'Không có quyền giám sát',
  spy_no_call: 'Không có cuộc gọi',
};

/** The full sentence (a notice beside the badge): what happened to the call to `number`, and what to do. */
export const CALL_FAILURE_MESSAGES: Record<CallFailure, (number: string) => string> = {
  busy: (n) => `Số ${n} đang bận, vui lòng gọi lại sau`,
  no_answer: (n) => `Số ${n} không trả lời`,
  rejected: (n) => `Số ${n} đã từ chối cuộc gọi`,
  not_allowed: (n) => `Không được phép gọi số ${n}: số bị chặn, hoặc tuyến gọi ra không cho phép gọi quốc tế / đầu số dịch vụ`,
  no_route: (n) => `Không có tuyến gọi nào cho số ${n}`,
  unknown_extension: (n) => `Máy nhánh ${n} không tồn tại`,
  extension_offline: (n) => `Máy nhánh ${n} không trực tuyến`,
  trunk_not_configured: (n) => `Không gọi được số ${n}: chưa cấu hình đường trung kế (SIP trunk) để gọi ra ngoài. Vui lòng liên hệ quản trị viên`,
  channel_limit: (n) => `Không gọi được số ${n}: tổng đài (trunk) đã dùng hết số kênh đồng thời, vui lòng gọi lại sau`,
  tenant_channel_limit: (n) => `Không gọi được số ${n}: doanh nghiệp đã dùng hết số kênh gọi đồng thời, vui lòng gọi lại sau`,
  unknown_carrier: (n) => `Cuộc gọi tới số ${n} bị từ chối: đến từ địa chỉ không phải tổng đài (trunk) đã cấu hình`,
  unreachable: () => 'Không kết nối được tổng đài, vui lòng thử lại',
  failed: (n) => `Cuộc gọi tới số ${n} thất bại`,
  spy_forbidden: (n) => `Bạn không có quyền nghe, nhắc hoặc tham gia cuộc gọi của máy nhánh ${parseSpyNumber(n)?.extension ?? n}`,
  spy_no_call: (n) =>
    `Máy nhánh ${parseSpyNumber(n)?.extension ?? n} không có cuộc gọi nào có thể giám sát (chỉ giám sát được cuộc gọi qua hàng đợi, IVR, cuộc gọi được ghi âm, hoặc mọi cuộc gọi khi bật “Cho phép giám sát mọi cuộc gọi” trong cài đặt hệ thống)`,
};

/** The routing plan's reject reasons (api routing RejectReason, and the trunk check) → failure. */
const BY_CAUSE: Readonly<Record<string, CallFailure>> = {
  busy: 'busy',
  offline: 'extension_offline',
  blocked_out: 'not_allowed',
  blocked_in: 'not_allowed',
  international: 'not_allowed',
  premium: 'not_allowed',
  no_route: 'no_route',
  unknown_did: 'no_route',
  did_inactive: 'no_route',
  missing_destination: 'no_route',
  loop: 'no_route',
  unknown_extension: 'unknown_extension',
  trunk_not_configured: 'trunk_not_configured',
  channel_limit: 'channel_limit',
  tenant_channel_limit: 'tenant_channel_limit',
  unknown_carrier: 'unknown_carrier',
  spy_forbidden: 'spy_forbidden',
  spy_no_call: 'spy_no_call',
  // A plan larger than Kamailio can read (api kamailio-plan planForKamailio): the PBX failed, not the line.
  plan_too_large: 'failed',
};

/**
 * The failure a SIP answer means. `status` undefined = no answer at all (socket closed, request
 * timed out): the SIP server is unreachable. The cause header wins over the status, which only
 * says what kind of no it was.
 */
export function callFailureOf(answer: { status?: number; cause?: string | null }): CallFailure {
  const named = answer.cause ? BY_CAUSE[answer.cause.trim()] : undefined;
  if (named) return named;
  const status = answer.status;
  if (status === undefined) return 'unreachable';
  if (status === 486 || status === 600) return 'busy';
  if (status === 408 || status === 480) return 'no_answer';
  if (status === 603) return 'rejected';
  if (status === 403) return 'not_allowed';
  if (status === 404 || status === 484 || status === 604) return 'no_route';
  if (status >= 500 && status < 600) return 'unreachable';
  return 'failed';
}
