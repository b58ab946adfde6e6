/** Vietnamese messages of the PBX screens and the /pbx partner API. */

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

/** Too long: at most n characters. */
export const max = (n: number) => `Tối đa ${n} ký tự`;
export const INVALID = 'Giá trị không hợp lệ';

export const PBX_MSG = {
  nameTaken: 'Tên đã tồn tại',
  numberFormat: 'Số điện thoại chỉ gồm 3–15 chữ số (có thể bắt đầu bằng +)',
  numberTaken: 'Số điện thoại đã được sử dụng',
  didUnknown: 'Số DID không thuộc doanh nghiệp',
  inboundTaken: 'Tuyến gọi vào cho số DID và mẫu số gọi này đã tồn tại',
  callerPattern: 'Mẫu số gọi chỉ gồm chữ số, X, Z, N, [ ], dấu . ở cuối',
  dialPattern: 'Mẫu quay số chỉ gồm chữ số, X, Z, N, [ ], dấu . ở cuối, +, * hoặc #',
  destinationType: 'Chọn loại điểm đến',
  destinationTarget: 'Chọn điểm đến',
  destinationMissing: 'Điểm đến không tồn tại',
  extensionUnknown: (ext: string) => `Máy nhánh ${ext} không tồn tại`,
  membersRequired: 'Chọn ít nhất một máy nhánh',
  duplicateMember: 'Máy nhánh bị trùng',
  duplicateDigit: 'Phím bấm bị trùng',
  /** A queue's wall thresholds: amber must come before red. */
  amberBelowRed: 'Ngưỡng cảnh báo vàng phải nhỏ hơn ngưỡng cảnh báo đỏ',
  digitFormat: 'Phím bấm là 0–9, * hoặc #',
  timeFormat: 'Giờ có dạng HH:MM',
  rangeRequired: 'Nhóm thời gian cần ít nhất một khoảng thời gian',
  timezone: 'Múi giờ không hợp lệ',
  inUse: (what: string) => `Đang được dùng bởi ${what}, không thể xoá`,
  /** Refused at save time: the path names each object of the loop, e.g. IVR "Menu" → … → IVR "Menu". */
  loop: (path: string) => `Cấu hình tạo vòng lặp: ${path}`,
  audioType: 'Chỉ nhận tệp âm thanh WAV hoặc MP3',
  audioTooLarge: (mb: number) => `Tệp âm thanh tối đa ${mb} MB`,
  audioRequired: 'Chọn tệp âm thanh',
  fileRequired: 'Chọn tệp CSV hoặc Excel',
  fileType: 'Chỉ nhận tệp CSV hoặc Excel (.xlsx)',
  importTooMany: (n: number) => `Tối đa ${n} dòng mỗi lần nhập`,
  internationalRefused: 'Không được gọi quốc tế nếu không có tuyến cho phép',
  premiumRefused: 'Không được gọi đầu số dịch vụ giá cao nếu không có tuyến cho phép',
  /** Raised by the destinations fetch when the answer is not 200 (SPEC §7, §8). */
  destinationsFailed: (status: number) => `Không tải được danh sách điểm đến (mã ${status})`,
} as const;
