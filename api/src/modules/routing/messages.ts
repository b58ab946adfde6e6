import { PBX_MSG } from '@tongdai/contracts';
import type { RejectReason } from './types';

/** Vietnamese text of each reject reason (CDRs, logs, the call-history screens). */
export const ROUTING_MSG = {
  blocked_in: () => 'Số gọi đến nằm trong danh sách chặn',
  blocked_out: () => 'Số gọi đi nằm trong danh sách chặn',
  international: () => PBX_MSG.internationalRefused,
  premium: () => PBX_MSG.premiumRefused,
  no_route: () => 'Không có tuyến gọi ra phù hợp với số đã quay',
  unknown_did: () => 'Không có tuyến gọi vào cho số này',
  did_inactive: () => 'Số DID đang tạm ngưng',
  unknown_extension: (ext: string) => PBX_MSG.extensionUnknown(ext),
  missing_destination: () => PBX_MSG.destinationMissing,
  offline: (ext: string) => `Máy nhánh ${ext} không trực tuyến`,
  busy: (ext: string) => `Máy nhánh ${ext} đang bận`,
  loop: (path: string) => PBX_MSG.loop(path),
  spy_forbidden: () => 'Người gọi không có quyền giám sát cuộc gọi',
  spy_no_call: (ext: string) => `Máy nhánh ${ext} không có cuộc gọi nào có thể giám sát`,
} satisfies Record<RejectReason, (detail: string) => string>;
