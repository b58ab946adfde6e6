import { foldText, type CustomerInput, type CustomerStatus } from '@tongdai/contracts';

/** Demo logins; tests import these instead of repeating the strings. */
export const DEMO = {
  tenants: { demo: 'demo', abc: 'abc' },
  admin: { username: 'admin', password: 'Admin@123' },
  staff: { username: 'nhanvien', password: 'Nhanvien@123' },
} as const;

export const SEED_TENANTS = [
  { ma_dn: DEMO.tenants.demo, name: 'Công ty TNHH Tổng Đài Demo', customers: 35, max_user: 20 },
  { ma_dn: DEMO.tenants.abc, name: 'Công ty Cổ phần ABC', customers: 12, max_user: 3 },
] as const;

/** The restricted role: may look up, add and edit customers, never delete. */
export const STAFF_ROLE = 'nhan-vien';
export const STAFF_ROLE_DISPLAY_NAME = 'Nhân viên';

const FAMILY = ['Nguyễn', 'Trần', 'Lê', 'Phạm', 'Hoàng', 'Huỳnh', 'Phan', 'Vũ', 'Võ', 'Đặng', 'Bùi', 'Đỗ', 'Hồ', 'Ngô', 'Dương', 'Lý'];
const MIDDLE = ['Thị', 'Văn', 'Minh', 'Thanh', 'Ngọc', 'Đức', 'Thu', 'Quốc', 'Hoài', 'Gia'];
const GIVEN = ['Hoa', 'An', 'Bình', 'Châu', 'Dũng', 'Giang', 'Hải', 'Hương', 'Khánh', 'Lan', 'Long', 'Mai', 'Nam', 'Phúc', 'Quân', 'Tâm', 'Thảo', 'Trang', 'Tuấn', 'Vy', 'Yến'];
const STREETS = [
  '12 Trần Hưng Đạo, Hoàn Kiếm, Hà Nội',
  '45 Nguyễn Trãi, Thanh Xuân, Hà Nội',
  '88 Cầu Giấy, Cầu Giấy, Hà Nội',
  '120 Lê Lợi, Quận 1, TP.HCM',
  '34 Võ Văn Tần, Quận 3, TP.HCM',
  '210 Phan Xích Long, Phú Nhuận, TP.HCM',
  '56 Bạch Đằng, Hải Châu, Đà Nẵng',
  '9 Nguyễn Văn Linh, Thanh Khê, Đà Nẵng',
];
const STATUSES: CustomerStatus[] = ['new', 'contacting', 'potential', 'customer', 'stopped'];
const NOTES = ['Khách quan tâm gói tổng đài 10 máy lẻ', 'Gọi lại vào buổi chiều', 'Đã gửi báo giá qua email', '', 'Khách hàng thân thiết'];


/** Deterministic sample customers: same input, same rows (tests rely on counts per status). */
export function sampleCustomers(count: number, offset = 0): CustomerInput[] {
  return Array.from({ length: count }, (_, k) => {
    const i = k + offset;
    const name = `${FAMILY[i % FAMILY.length]} ${MIDDLE[(i * 3) % MIDDLE.length]} ${GIVEN[(i * 7) % GIVEN.length]}`;
    const prefix = ['090', '091', '098', '097', '093', '096'][i % 6];
    const phone = `${prefix}${String(1234567 + i * 7919).slice(-7)}`;
    return {
      name,
      code: `KH${String(i + 1).padStart(4, '0')}`,
      email: i % 4 === 3 ? '' : `${foldText(name).replace(/ /g, '.')}${i}@example.vn`,
      phone,
      address: STREETS[i % STREETS.length],
      zalo: i % 3 === 0 ? phone : '',
      facebook: '',
      status: STATUSES[i % STATUSES.length],
      note: NOTES[i % NOTES.length],
      user_id: null,
    };
  });
}

/** Seeded SIP extensions (tests register with these; real subscribers get generated passwords). */
export const DEMO_SIP = {
  demo: {
    admin: { extension: '101', display_name: 'Quản trị viên', password: 'DemoSip101Pass' },
    staff: { extension: '102', display_name: 'Nhân viên tổng đài', password: 'DemoSip102Pass' },
  },
  abc: {
    admin: { extension: '101', display_name: 'Quản trị viên ABC', password: 'AbcSip101Pass' },
  },
} as const;
