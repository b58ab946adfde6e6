import { registerTranslations } from '@tongdai/platform';
import { ACTIVITY_LABELS, ACTIVITY_STATUSES, DATE_PRESETS, REPORT_DIRECTIONS, CALL_RESULTS } from '@tongdai/contracts';

/** Strings of mf-reports (read by the manifest for navigation, before any screen loads). */
export const NS = 'reports';
const history = {
  searchPlaceholder: 'Tìm theo số điện thoại',
  empty: 'Chưa có cuộc gọi nào trong khoảng thời gian này',
  fields: {
    started_at: 'Thời gian', direction: 'Hướng gọi', caller: 'Số gọi', callee: 'Số nhận', did: 'Số tổng đài',
    path: 'Luồng cuộc gọi', answered_by: 'Người nghe', wait: 'Chờ', billsec: 'Đàm thoại', recording: 'Ghi âm', result: 'Kết quả', customer: 'Khách hàng',
  },
};
registerTranslations(NS, {
  area: 'Báo cáo',
  nav: { monitor: 'Giám sát trực tiếp', callHistory: 'Lịch sử cuộc gọi', successCalls: 'Cuộc gọi thành công', byExtension: 'Thống kê theo máy nhánh', byDepartmentTeam: 'Thống kê phòng ban, nhóm', carrier: 'Cuộc gọi theo nhà mạng', hotlineCalls: 'Cuộc gọi qua hotline', activity: ACTIVITY_LABELS.title },
  callHistory: { ...history, listTitle: 'Lịch sử cuộc gọi' },
  hotlineCalls: {
    ...history, listTitle: 'Lịch sử cuộc gọi qua hotline', empty: 'Chưa có cuộc gọi qua hotline nào trong khoảng thời gian này',
    fields: { ...history.fields, hotline: 'Hotline', carrier: 'Nhà mạng' },
  },
  successCalls: { ...history, listTitle: 'Lịch sử cuộc gọi thành công', empty: 'Chưa có cuộc gọi thành công nào trong khoảng thời gian này' },
  activity: {
    listTitle: ACTIVITY_LABELS.title,
    searchPlaceholder: 'Tìm theo tên, tài khoản hoặc máy nhánh',
    empty: ACTIVITY_LABELS.empty,
    fields: {
      day: ACTIVITY_LABELS.day, person: ACTIVITY_LABELS.person, first_login: ACTIVITY_LABELS.first_login, last_logout: ACTIVITY_LABELS.last_logout,
      registered: ACTIVITY_LABELS.registered, status_changes: ACTIVITY_LABELS.status_changes, calls_handled: ACTIVITY_LABELS.calls_handled,
      ...Object.fromEntries(ACTIVITY_STATUSES.map((s) => [`status_${s.value}`, s.label])),
    },
  },
  filters: {
    user: 'Người dùng', allUsers: 'Tất cả người dùng',
    allDirections: 'Tất cả hướng gọi', allResults: 'Tất cả kết quả', allExtensions: 'Tất cả máy nhánh',
    allDepartments: 'Tất cả phòng ban', allTeams: 'Tất cả nhóm', allQueues: 'Tất cả hàng đợi',
    hotline: 'Hotline', allHotlines: 'Tất cả hotline', extension: 'Máy nhánh', department: 'Phòng ban', team: 'Nhóm', queue: 'Hàng đợi', direction: 'Hướng gọi', result: 'Kết quả',
  },
  recording: {
    play: 'Nghe ghi âm ({{duration}})',
    close: 'Đóng trình phát ghi âm ({{duration}})',
    loading: 'Đang tải ghi âm…',
    player: 'Ghi âm cuộc gọi {{caller}} → {{callee}}',
    download: 'Tải ghi âm',
    downloading: 'Đang tải xuống ghi âm…',
    voicemail: 'Nghe tin nhắn thoại người gọi để lại ({{duration}})',
    voicemailClose: 'Đóng tin nhắn thoại ({{duration}})',
    voicemailPlayer: 'Tin nhắn thoại của cuộc gọi {{caller}} → {{callee}}',
  },
  export: { format: 'Định dạng file', run: 'Xuất file', done: 'Đã xuất file', cancel: 'Hủy', cancelled: 'Đã hủy xuất file', rows: 'Đã nhận {{rows}} / {{total}} dòng' },
  carrier: {
    title: 'Cuộc gọi theo nhà mạng', empty: 'Chưa có cuộc gọi qua hotline nào trong khoảng thời gian này', total: 'Tổng theo hotline',
    fields: { hotline: 'Hotline / trung kế', direction: 'Hướng gọi', carrier: 'Nhà mạng', destination: 'Loại số', calls: 'Cuộc gọi', answered: 'Trả lời', talk: 'Đàm thoại', billed: 'Phút tính cước' },
  },
  monitor: {
    // Issue 16: the wall's listen / whisper / barge buttons (their labels and hints are SPY_LABELS / SPY_HINTS).
    spy: {
      column: 'Giám sát',
      group: 'Giám sát cuộc gọi của máy nhánh {{extension}}',
      notReady: 'Điện thoại chưa sẵn sàng: máy nhánh chưa đăng ký hoặc đang có cuộc gọi',
      code: '{{code}} + máy nhánh để {{action}}',
      key: '{{digit}} để {{action}}',
      help: 'Từ điện thoại bất kỳ, gọi {{codes}}. Trong cuộc gọi, bấm {{keys}}. Chỉ giám sát được cuộc gọi qua hàng đợi, IVR hoặc cuộc gọi được ghi âm.',
    },
  },
  presets: DATE_PRESETS,
  directions: REPORT_DIRECTIONS,
  results: CALL_RESULTS,
});
