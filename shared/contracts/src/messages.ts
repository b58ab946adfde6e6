/** Vietnamese messages with the exact text of SPEC §5 and §8. */
export const MSG = {
  required: 'Thông tin không được để trống',
  phoneFormat: 'Định dạng số điện thoại sai',
  generic: 'Có lỗi xảy ra , vui lòng thử lại',
  sessionExpired: 'Phiên làm việc hết hạn. Vui lòng đăng nhập lại !',
} as const;
